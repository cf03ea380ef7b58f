"""E3RG — explicit emotion-driven empathetic response generation, as a Gradio Space.

This file only builds the interface and wires its events; the stages live in e3rg_core.
"""
import spaces  # noqa: F401  (first: on ZeroGPU it must patch torch before anything imports it)

import os
import shutil
import tempfile
import threading
from pathlib import Path

import gradio as gr
import pandas as pd

from e3rg_core import service
from e3rg_core.dialogue import AGES, GENDERS, TIMBRES, Utterance
from e3rg_core.engines import GenerationSettings
from e3rg_core.errors import InputError
from e3rg_core.limits import MAX_VIDEO_STEPS
from e3rg_core.memory.avatars import DEFAULT_AVATAR, AvatarStore
from e3rg_core.full_tier import FULL_TIER
from e3rg_core.tiers import lite_supported_settings, select_pipeline
from e3rg_core.understanding.prompts import SHOT_CHOICES

EXAMPLES = Path(__file__).parent / "examples"
AVATARS = AvatarStore()
_serving = {}
_serving_lock = threading.Lock()


def pipeline():
    """The pipeline serving requests, built on first use (the lite engines load in a few seconds)."""
    with _serving_lock:
        if "pipeline" not in _serving:
            _serving["pipeline"] = select_pipeline(AVATARS)
        return _serving["pipeline"]


if FULL_TIER is not None:
    pipeline()   # ZeroGPU must find the GPU function, and the GPU models loaded, before launch
SUPPORTED_SETTINGS = pipeline().supported_settings if FULL_TIER is not None else lite_supported_settings()
TIER_NOTE = ("Engines: **full** (GPU: Ola-Omni + Qwen2.5-Omni, OpenVoice, DICE-Talk), with the lite CPU engines as "
             "fallback." if FULL_TIER is not None and FULL_TIER.engines else
             "Engines: **lite** (CPU, offline models shipped in Python packages). Each tab names the engine that "
             "made its output.")


DEFAULT_SETTINGS = GenerationSettings(seed=0)


def _settings(intensity, speed, steps, identity, emotion_scale, seed, diffusion_video):
    return GenerationSettings(emotion_intensity=float(intensity), speech_speed=float(speed), video_steps=int(steps),
                              identity_scale=float(identity), emotion_scale=float(emotion_scale),
                              seed=None if seed in (None, "") else int(seed), diffusion_video=bool(diffusion_video))


def _avatar(choice, session_avatars):
    return (session_avatars or {}).get(choice) or choice or DEFAULT_AVATAR


def _views(reply, workdir, final):
    """Values for every output component from the reply so far."""
    emotion = reply.emotion
    headline = "_Listening…_" if emotion is None else (
        f"## {emotion.fine} · *{emotion.coarse}*\nDecided by **{emotion.decided_by}** from {len(emotion.votes)} vote(s)."
        + (f"\n\nHeard: “{reply.heard_text}”" + (" (transcribed)" if reply.transcribed else "")
           if reply.heard_text else "")
        + "".join(f"\n\n> ⚠️ {notice}" for notice in reply.notices))
    history = service.rows_from_history(reply.history + (Utterance(len(reply.history), "listener", reply.text),))
    return (headline, service.votes_table(reply), service.engine_line(reply, "emotion", "transcript"), reply.text,
            service.engine_line(reply, "text"),
            str(reply.wav_path) if reply.wav_path else None, service.engine_line(reply, "speech"),
            str(reply.mp4_path) if reply.mp4_path else None, service.engine_line(reply, "video"),
            str(service.write_bundle(reply, workdir)) if final else None,
            history if final else gr.skip())


def chart_votes(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(service.votes_chart(table.values.tolist()), columns=["emotion", "votes"])


def respond_ui(rows, text, audio, video, avatar_choice, session_avatars, k_shot, intensity, speed, steps,
               identity, emotion_scale, seed, diffusion_video, progress=gr.Progress()):
    settings = _settings(intensity, speed, steps, identity, emotion_scale, seed, diffusion_video)
    yield from _respond(rows, text, audio, video, _avatar(avatar_choice, session_avatars), k_shot, settings, progress)


def _respond(rows, text, audio, video, avatar, k_shot, settings, progress):
    try:
        history = service.history_from_rows(rows)
        progress(0.05, desc="Understanding: voting on the emotion")
        turn = service.run_turn(pipeline(), history, text, audio, video, avatar, k_shot, settings)
        stage_progress = {"emotion": (0.3, "Writing the reply"), "text": (0.5, "Speaking the reply"),
                          "speech": (0.7, "Animating the avatar")}
        for reply, workdir in turn:
            if reply.stage in stage_progress:
                progress(*stage_progress[reply.stage])
            yield _views(reply, workdir, final=reply.stage == "done")
    except InputError as error:
        raise gr.Error(str(error), title="Please check your input") from None


def respond_example(text, audio, video):
    """An example turn with the default settings; its final outputs are what the example cache keeps."""
    *_, final = _respond([], text, audio, video, DEFAULT_AVATAR, 0, DEFAULT_SETTINGS, gr.Progress())
    return tuple(value for value, component in zip(final, outputs) if component in example_outputs)


def respond_api(history_json, text, audio, video, avatar):
    """The whole pipeline in one call: (emotion+votes JSON, reply text, wav, mp4, bundle zip)."""
    try:
        history = service.history_from_json_text(history_json)
        *_, (reply, workdir) = service.run_turn(pipeline(), history, text, audio, video, avatar or DEFAULT_AVATAR)
    except InputError as error:
        raise gr.Error(str(error), title=type(error).__name__) from None
    return (service.emotion_json(reply), reply.text, str(reply.wav_path), str(reply.mp4_path),
            str(service.write_bundle(reply, workdir)))


def load_dialogue(file):
    try:
        return service.rows_from_file(file)
    except InputError as error:
        raise gr.Error(str(error), title="Could not load that dialogue") from None


def add_avatar(name, portrait, voice, age, gender, timbre, session_avatars, session_dir):
    session_dir = session_dir or tempfile.mkdtemp(prefix="e3rg-session-")
    try:
        avatar = service.create_session_avatar(AVATARS, Path(session_dir), name or "", portrait, voice, age, gender,
                                               timbre)
    except InputError as error:
        raise gr.Error(str(error), title="Could not use that avatar") from None
    label = f"{avatar.name} (yours)"
    session_avatars = {**(session_avatars or {}), label: avatar}
    gr.Info(f"Avatar “{avatar.name}” is ready for this session.")
    return (gr.update(choices=AVATARS.names() + list(session_avatars), value=label), session_avatars, session_dir)


def forget_session_dir(path):
    """A closed browser session's uploaded avatars are deleted with it."""
    if path:
        shutil.rmtree(path, ignore_errors=True)


def show_avatar(choice, session_avatars):
    avatar = (session_avatars or {}).get(choice)
    if avatar is None:
        avatar = AVATARS.get(choice)
    return str(avatar.portrait_path), str(avatar.voice_path)


INTRO = """# E3RG · empathetic avatar replies
Tell the listener how your day went — by **text, voice or video**. E3RG votes on your emotion, writes a reply
conditioned on it, and a listener avatar **speaks** it in its own voice with a matching **talking face**.
[Paper](https://arxiv.org/abs/2508.12854) · Top-1 at the ACM MM'25 Avatar-based Multimodal Empathy Challenge.
"""

with gr.Blocks(title="E3RG: empathetic avatar replies") as demo:
    gr.Markdown(INTRO)
    gr.Markdown(TIER_NOTE)
    session_avatars = gr.State({})
    session_dir = gr.State(None, delete_callback=forget_session_dir)
    with gr.Row(equal_height=False):
        with gr.Column(scale=5):
            history = gr.Dataframe(headers=service.HISTORY_HEADERS, datatype=["str", "str"], column_count=2,
                                   value=[], interactive=True, label="Dialogue so far (editable; role = speaker or "
                                   "listener)", wrap=True, max_height=260)
            with gr.Row():
                dialogue_file = gr.UploadButton("Load AvaMERG JSON", file_types=[".json"], size="sm")
                clear_history = gr.Button("New conversation", size="sm")
            text = gr.Textbox(label="Your latest turn", placeholder="Say something to the listener…", lines=2,
                              max_length=2000)
            with gr.Row():
                audio = gr.Audio(label="…or say it (audio)", sources=["upload", "microphone"], type="filepath",
                                 elem_id="turn-audio")
                video = gr.Video(label="…or show it (video)", sources=["upload", "webcam"], elem_id="turn-video")
            with gr.Row():
                avatar = gr.Dropdown(AVATARS.names(), value=DEFAULT_AVATAR, label="Listener avatar", scale=2)
                k_shot = gr.Radio(list(SHOT_CHOICES), value=0, label="k-shot examples", scale=1)
            diffusion_video = gr.Checkbox(
                value=DEFAULT_SETTINGS.diffusion_video, visible="diffusion_video" in SUPPORTED_SETTINGS,
                label="Diffusion talking head (DICE-Talk): most of a turn's GPU time. Untick it to use less of your "
                      "GPU quota; a quick CPU portrait then animates the reply.")
            with gr.Accordion("Your own avatar (kept for this session only)", open=False):
                with gr.Row():
                    avatar_portrait = gr.Image(label="Portrait (a clear, front-facing face)", type="filepath",
                                               height=200)
                    avatar_voice = gr.Audio(label="Reference voice (5-20 s of speech)", type="filepath",
                                            sources=["upload", "microphone"])
                with gr.Row():
                    avatar_name = gr.Textbox(label="Name", max_length=40)
                    avatar_age = gr.Dropdown([""] + list(AGES), value="", label="Age")
                    avatar_gender = gr.Dropdown([""] + list(GENDERS), value="", label="Gender")
                    avatar_timbre = gr.Dropdown([""] + list(TIMBRES), value="", label="Timbre")
                add_avatar_button = gr.Button("Use this avatar", size="sm")
            with gr.Accordion("Advanced", open=False):
                supported = SUPPORTED_SETTINGS
                gr.Markdown("Greyed-out settings are not used by the engines running here.")
                intensity = gr.Slider(0, 1, value=DEFAULT_SETTINGS.emotion_intensity, step=0.05,
                                      label="Emotion intensity", interactive="emotion_intensity" in supported)
                speed = gr.Slider(0.5, 1.5, value=DEFAULT_SETTINGS.speech_speed, step=0.05, label="Speech speed",
                                  interactive="speech_speed" in supported)
                steps = gr.Slider(5, MAX_VIDEO_STEPS, value=DEFAULT_SETTINGS.video_steps, step=1,
                                  label="Video denoising steps", interactive="video_steps" in supported)
                identity = gr.Slider(0, 10, value=DEFAULT_SETTINGS.identity_scale, step=0.5, label="Identity scale",
                                     interactive="identity_scale" in supported)
                emotion_scale = gr.Slider(0, 10, value=DEFAULT_SETTINGS.emotion_scale, step=0.5,
                                          label="Emotion scale", interactive="emotion_scale" in supported)
                seed = gr.Number(value=DEFAULT_SETTINGS.seed, precision=0, label="Seed",
                                 interactive="seed" in supported)
            with gr.Row():
                submit = gr.Button("Respond", variant="primary", scale=3)
                clear = gr.ClearButton(value="Clear", scale=1)
        with gr.Column(scale=6):
            with gr.Tabs():
                with gr.Tab("Emotion & votes"):
                    emotion_md = gr.Markdown("_Give a turn and press Respond._", elem_id="emotion-headline")
                    votes = gr.Dataframe(headers=service.VOTES_HEADERS, interactive=False, label="Votes", wrap=True,
                                         elem_id="votes")
                    votes_plot = gr.BarPlot(x="emotion", y="votes", label="Votes per emotion", height=220,
                                            y_lim=[0, None], y_axis_format="d", sort="-y", elem_id="votes-plot")
                    emotion_engine = gr.Markdown()
                with gr.Tab("Text"):
                    reply_text = gr.Textbox(label="Reply", lines=4, buttons=["copy"], interactive=False,
                                            elem_id="reply-text")
                    text_engine = gr.Markdown()
                with gr.Tab("Speech"):
                    reply_audio = gr.Audio(label="Spoken reply", type="filepath", interactive=False,
                                           elem_id="reply-audio")
                    speech_engine = gr.Markdown()
                with gr.Tab("Video"):
                    reply_video = gr.Video(label="Talking avatar", interactive=False, elem_id="reply-video")
                    video_engine = gr.Markdown()
            bundle = gr.File(label="Download bundle (JSON + wav + mp4)", interactive=False, elem_id="bundle")
            with gr.Accordion("Avatar preview", open=False):
                preview_portrait = gr.Image(interactive=False, height=200, show_label=False)
                preview_voice = gr.Audio(interactive=False, type="filepath", show_label=False)

    outputs = [emotion_md, votes, emotion_engine, reply_text, text_engine, reply_audio, speech_engine, reply_video,
               video_engine, bundle, history]
    # Cached examples replay into every output but the dialogue table (examples start a conversation).
    example_outputs = [c for c in outputs if c is not history]
    inputs = [history, text, audio, video, avatar, session_avatars, k_shot, intensity, speed, steps, identity,
              emotion_scale, seed, diffusion_video]
    submit.click(respond_ui, inputs, outputs, api_name="respond_stream", concurrency_limit=4)
    text.submit(respond_ui, inputs, outputs, api_name="respond_stream_text", concurrency_limit=4)
    # The chart follows the table, so a replayed example (which cannot carry a plot value) draws it too.
    votes.change(chart_votes, votes, votes_plot, api_visibility="private", show_progress="hidden")
    clear.add([text, audio, video, emotion_md, votes, reply_text, reply_audio, reply_video, bundle])
    clear_history.click(lambda: [], None, history, api_name="new_conversation")
    dialogue_file.upload(load_dialogue, dialogue_file, history, api_name="load_dialogue")
    add_avatar_button.click(add_avatar, [avatar_name, avatar_portrait, avatar_voice, avatar_age, avatar_gender,
                                         avatar_timbre, session_avatars, session_dir],
                            [avatar, session_avatars, session_dir], api_name="add_avatar")
    avatar.change(show_avatar, [avatar, session_avatars], [preview_portrait, preview_voice], api_name="show_avatar")

    gr.Examples(
        examples=[["I finally got accepted into the nursing program after three years of trying!", None, None],
                  ["", str(EXAMPLES / "turn_audio.wav"), None],
                  ["", None, str(EXAMPLES / "turn_video.mp4")]],
        inputs=[text, audio, video], outputs=example_outputs, fn=respond_example, cache_examples=True, cache_mode="lazy",
        example_labels=["Text: good news", "Audio: exam stress", "Video: a friend moving away"],
        api_name="example")

    with gr.Group(visible=False):
        api_history = gr.Textbox(value="[]")
        api_text = gr.Textbox()
        api_audio = gr.Audio(type="filepath")
        api_video = gr.Video()
        api_avatar = gr.Textbox()
        api_emotion = gr.JSON()
        api_reply = gr.Textbox()
        api_wav = gr.Audio(type="filepath")
        api_mp4 = gr.Video()
        api_bundle = gr.File()
        api_button = gr.Button()
    api_button.click(respond_api, [api_history, api_text, api_audio, api_video, api_avatar],
                     [api_emotion, api_reply, api_wav, api_mp4, api_bundle], api_name="respond", concurrency_limit=4)
    demo.load(show_avatar, [avatar, session_avatars], [preview_portrait, preview_voice], api_name=False)


if __name__ == "__main__":
    if os.environ.get("SPACE_ID"):
        from e3rg_core.space_setup import install_model_file_packages
        install_model_file_packages()
    threading.Thread(target=pipeline, daemon=True).start()   # load the engines while the page comes up
    demo.queue(default_concurrency_limit=4, max_size=32).launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "0.0.0.0"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        theme=gr.themes.Soft(), show_error=True)
