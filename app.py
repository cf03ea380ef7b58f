"""E3RG — explicit emotion-driven empathetic response generation, as a Gradio Space.

This file only lays out the page and wires its events; e3rg_core.views holds what they do.
"""
import spaces  # noqa: F401  (first: on ZeroGPU it must patch torch before anything imports it)

import os
import threading
from pathlib import Path

import gradio as gr

from e3rg_core import views
from e3rg_core.dialogue import AGES, GENDERS, TIMBRES
from e3rg_core.memory.avatars import DEFAULT_AVATAR
from e3rg_core.settings import MAX_TEXT_CHARS, MAX_VIDEO_STEPS
from e3rg_core.understanding.prompts import SHOT_CHOICES

EXAMPLES = Path(__file__).parent / "examples"
INTRO = """# E3RG · empathetic avatar replies
Tell the listener how your day went — by **text, voice or video**. E3RG votes on your emotion, writes a reply
conditioned on it, and a listener avatar **speaks** it in its own voice with a matching **talking face**.
[Paper](https://arxiv.org/abs/2508.12854) · Top-1 at the ACM MM'25 Avatar-based Multimodal Empathy Challenge.
"""
views.start()
SUPPORTED = views.supported_settings()
DEFAULTS = views.DEFAULT_SETTINGS

with gr.Blocks(title="E3RG: empathetic avatar replies") as demo:
    gr.Markdown(INTRO)
    gr.Markdown(views.tier_note())
    session_avatars = gr.State({})
    session_dir = gr.State(None, delete_callback=views.forget_session_dir)
    with gr.Row(equal_height=False):
        with gr.Column(scale=5):
            history = gr.Dataframe(headers=views.HISTORY_HEADERS, datatype=["str", "str"], column_count=2, value=[],
                                   interactive=True, label="Dialogue so far (editable; role = speaker or listener)",
                                   wrap=True, max_height=260)
            with gr.Row():
                dialogue_file = gr.UploadButton("Load AvaMERG JSON", file_types=[".json"], size="sm")
                clear_history = gr.Button("New conversation", size="sm")
            text = gr.Textbox(label="Your latest turn", placeholder="Say something to the listener…", lines=2,
                              max_length=MAX_TEXT_CHARS)
            with gr.Row():
                audio = gr.Audio(label="…or say it (audio)", sources=["upload", "microphone"], type="filepath",
                                 elem_id="turn-audio")
                video = gr.Video(label="…or show it (video)", sources=["upload", "webcam"], elem_id="turn-video")
            with gr.Row():
                avatar = gr.Dropdown(views.AVATARS.names(), value=DEFAULT_AVATAR, label="Listener avatar", scale=2)
                k_shot = gr.Radio(list(SHOT_CHOICES), value=0, label="k-shot examples", scale=1)
            diffusion_video = gr.Checkbox(
                value=DEFAULTS.diffusion_video, visible="diffusion_video" in SUPPORTED,
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
                    avatar_profile = [gr.Dropdown([""] + list(choices), value="", label=label)
                                      for choices, label in ((AGES, "Age"), (GENDERS, "Gender"), (TIMBRES, "Timbre"))]
                add_avatar_button = gr.Button("Use this avatar", size="sm")
            with gr.Accordion("Advanced", open=False):
                gr.Markdown("Greyed-out settings are not used by the engines running here.")

                def slider(name, low, high, step, label):
                    return gr.Slider(low, high, value=getattr(DEFAULTS, name), step=step, label=label,
                                     interactive=name in SUPPORTED)
                controls = [slider("emotion_intensity", 0, 1, 0.05, "Emotion intensity"),
                            slider("speech_speed", 0.5, 1.5, 0.05, "Speech speed"),
                            slider("video_steps", 5, MAX_VIDEO_STEPS, 1, "Video denoising steps"),
                            slider("identity_scale", 0, 10, 0.5, "Identity scale"),
                            slider("emotion_scale", 0, 10, 0.5, "Emotion scale"),
                            gr.Number(value=DEFAULTS.seed, precision=0, label="Seed", interactive="seed" in SUPPORTED)]
            with gr.Row():
                submit = gr.Button("Respond", variant="primary", scale=3)
                clear = gr.ClearButton(value="Clear", scale=1)
        with gr.Column(scale=6):
            with gr.Tabs():
                with gr.Tab("Emotion & votes"):
                    emotion_md = gr.Markdown("_Give a turn and press Respond._", elem_id="emotion-headline")
                    votes = gr.Dataframe(headers=views.VOTES_HEADERS, interactive=False, label="Votes", wrap=True,
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
                preview = [gr.Image(interactive=False, height=200, show_label=False),
                           gr.Audio(interactive=False, type="filepath", show_label=False)]

    # Cached examples replay into every output but the dialogue table (examples start a conversation), so it is last.
    example_outputs = [emotion_md, votes, emotion_engine, reply_text, text_engine, reply_audio, speech_engine,
                       reply_video, video_engine, bundle]
    outputs = [*example_outputs, history]
    inputs = [history, text, audio, video, avatar, session_avatars, k_shot, *controls, diffusion_video]
    submit.click(views.respond_ui, inputs, outputs, api_name="respond_stream", concurrency_limit=4)
    text.submit(views.respond_ui, inputs, outputs, api_name="respond_stream_text", concurrency_limit=4)
    # The chart follows the table, so a replayed example (which cannot carry a plot value) draws it too.
    votes.change(views.chart_votes, votes, votes_plot, api_visibility="private", show_progress="hidden")
    clear.add([text, audio, video, emotion_md, votes, reply_text, reply_audio, reply_video, bundle])
    clear_history.click(lambda: [], None, history, api_name="new_conversation")
    dialogue_file.upload(views.load_dialogue, dialogue_file, history, api_name="load_dialogue")
    add_avatar_button.click(views.add_avatar, [avatar_name, avatar_portrait, avatar_voice, *avatar_profile,
                                               session_avatars, session_dir],
                            [avatar, session_avatars, session_dir], api_name="add_avatar")
    avatar.change(views.show_avatar, [avatar, session_avatars], preview, api_name="show_avatar")
    gr.Examples(
        examples=[["I finally got accepted into the nursing program after three years of trying!", None, None],
                  ["", str(EXAMPLES / "turn_audio.wav"), None], ["", None, str(EXAMPLES / "turn_video.mp4")]],
        inputs=[text, audio, video], outputs=example_outputs, fn=views.respond_example, cache_examples=True,
        cache_mode="lazy", example_labels=["Text: good news", "Audio: exam stress", "Video: a friend moving away"],
        api_name="example")

    with gr.Group(visible=False):   # the one-call API: inputs and outputs as plain values
        api_inputs = [gr.Textbox(value="[]"), gr.Textbox(), gr.Audio(type="filepath"), gr.Video(), gr.Textbox()]
        api_outputs = [gr.JSON(), gr.Textbox(), gr.Audio(type="filepath"), gr.Video(), gr.File()]
        api_button = gr.Button()
    api_button.click(views.respond_api, api_inputs, api_outputs, api_name="respond", concurrency_limit=4)
    demo.load(views.show_avatar, [avatar, session_avatars], preview, api_name=False)


if __name__ == "__main__":
    if os.environ.get("SPACE_ID"):
        from e3rg_core.space_setup import install_model_file_packages
        install_model_file_packages()
    threading.Thread(target=views.runner, daemon=True).start()   # load the engines while the page comes up
    demo.queue(default_concurrency_limit=4, max_size=32).launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "0.0.0.0"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        theme=gr.themes.Soft(), show_error=True)
