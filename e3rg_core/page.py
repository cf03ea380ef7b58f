"""The page's parts, each built inside the Blocks context that calls it; app.py places them and wires their events.

Each builder returns its components in a SimpleNamespace whose names the views use (views.ReplyView names the
outputs of a turn), so that the order of a turn's outputs is written once.
"""
from __future__ import annotations

from types import SimpleNamespace

import gradio as gr

from .contracts import GenerationSettings
from .dialogue import AGES, GENDERS, TIMBRES
from .emotions import EXPRESSION_MODES
from .settings import MAX_TEXT_CHARS, MAX_VIDEO_STEPS
from .understanding.prompts import SHOT_CHOICES

SEND_HINT = "**Enter** sends · **Shift+Enter** for a new line"
# The votes table's headers wrap between words only (a narrow column breaks "confidence" mid-word by default).
CSS = "#votes th, #votes th * { word-break: keep-all; overflow-wrap: normal; }"


def conversation(headers: list[str]) -> SimpleNamespace:
    """The dialogue as a chat, with the editable table of the same dialogue under 'Edit dialogue'."""
    chat = gr.Chatbot(label="Conversation", height=360, elem_id="chat",
                      placeholder="Tell the listener something: type, record your voice or film yourself.")
    with gr.Accordion("Edit dialogue", open=False):
        history = gr.Dataframe(headers=headers, datatype=["str", "str"], column_count=2, value=[], interactive=True,
                               label="Dialogue so far (role = speaker or listener)", wrap=True, max_height=260)
        with gr.Row():
            dialogue_file = gr.UploadButton("Load AvaMERG JSON", file_types=[".json"], size="sm")
            new_conversation = gr.Button("New conversation", size="sm")
    return SimpleNamespace(chat=chat, history=history, dialogue_file=dialogue_file, new_conversation=new_conversation)


def turn_inputs(avatar_names: list[str], default_avatar: str, defaults: GenerationSettings,
                supported: frozenset[str]) -> SimpleNamespace:
    # One line that grows: Gradio sends on Enter only when lines=1, and Shift+Enter then breaks the line.
    text = gr.Textbox(label="Your latest turn", placeholder="Say something to the listener…", lines=1, max_lines=6,
                      max_length=MAX_TEXT_CHARS, elem_id="turn-text", info=SEND_HINT)
    with gr.Row():
        audio = gr.Audio(label="…or say it (audio)", sources=["upload", "microphone"], type="filepath",
                         elem_id="turn-audio")
        video = gr.Video(label="…or show it (video)", sources=["upload", "webcam"], elem_id="turn-video")
    with gr.Row():
        avatar = gr.Dropdown(avatar_names, value=default_avatar, label="Listener avatar", scale=2)
        k_shot = gr.Radio(list(SHOT_CHOICES), value=0, label="k-shot examples", scale=1)
    expression = gr.Radio(list(EXPRESSION_MODES), value=defaults.expression_mode, label="The listener's voice and face",
                          info="listener: comforts (a calm voice for fear, a soft one for sadness); mirror: E3RG's "
                               "own, the speaker's emotion")
    diffusion_video = gr.Checkbox(
        value=defaults.diffusion_video, visible="diffusion_video" in supported,
        label="Diffusion talking head (DICE-Talk): most of a turn's GPU time. Untick it to use less of your GPU quota; "
              "a quick CPU portrait then animates the reply.")
    with gr.Row():
        submit = gr.Button("Respond", variant="primary", scale=3)
        clear = gr.ClearButton(value="Clear", scale=1)
    return SimpleNamespace(text=text, audio=audio, video=video, avatar=avatar, k_shot=k_shot, expression=expression,
                           diffusion_video=diffusion_video, submit=submit, clear=clear)


def own_avatar() -> SimpleNamespace:
    with gr.Accordion("Your own avatar (kept for this session only)", open=False):
        with gr.Row():
            portrait = gr.Image(label="Portrait (a clear, front-facing face)", type="filepath", height=200)
            voice = gr.Audio(label="Reference voice (5-20 s of speech)", type="filepath",
                             sources=["upload", "microphone"])
        with gr.Row():
            name = gr.Textbox(label="Name", max_length=40)
            profile = [gr.Dropdown([""] + list(choices), value="", label=label)
                       for choices, label in ((AGES, "Age"), (GENDERS, "Gender"), (TIMBRES, "Timbre"))]
        add = gr.Button("Use this avatar", size="sm")
    return SimpleNamespace(portrait=portrait, voice=voice, name=name, profile=profile, add=add)


def advanced(defaults: GenerationSettings, supported: frozenset[str]) -> list[gr.components.Component]:
    """The generation settings, in the order views.settings_from_controls takes them."""
    with gr.Accordion("Advanced", open=False):
        gr.Markdown("Greyed-out settings are not used by the engines running here.")

        def slider(name, low, high, step, label):
            return gr.Slider(low, high, value=getattr(defaults, name), step=step, label=label,
                             interactive=name in supported)
        return [slider("emotion_intensity", 0, 1, 0.05, "Emotion intensity"),
                slider("speech_speed", 0.5, 1.5, 0.05, "Speech speed"),
                slider("video_steps", 5, MAX_VIDEO_STEPS, 1, "Video denoising steps"),
                slider("identity_scale", 0, 10, 0.5, "Identity scale"),
                slider("emotion_scale", 0, 10, 0.5, "Emotion scale"),
                gr.Number(value=defaults.seed, precision=0, label="Seed", interactive="seed" in supported)]


def latest_reply() -> SimpleNamespace:
    """The latest reply's video (or its speech, until the video is ready) beside the chat, and the self-check."""
    player_video = gr.Video(label="The listener answers", interactive=False, autoplay=True, height=360,
                            elem_id="player-video")
    player_audio = gr.Audio(label="Spoken reply", type="filepath", interactive=False, elem_id="player-audio")
    self_check = gr.Markdown(elem_id="self-check")
    with gr.Accordion("Share: the video with its captions burned in", open=False):
        caption = gr.Button("Make a captioned mp4", size="sm", elem_id="caption-button")
        captioned = gr.File(label="Captioned video", interactive=False, elem_id="captioned-video")
    with gr.Accordion("Compare: the same reply without emotion", open=False):
        compare = gr.Button("Render it neutral beside the emotional one", size="sm", elem_id="compare-button")
        with gr.Row():
            emotional = gr.Video(label="Emotional", interactive=False, elem_id="compare-emotional")
            neutral = gr.Video(label="Neutral", interactive=False, elem_id="compare-neutral")
        # Shown when the full tier rendered the reply: the same emotional reply on the lite engines.
        emotional_lite = gr.Video(label="Emotional, lite engines", interactive=False, visible=False,
                                  elem_id="compare-emotional-lite")
        compare_note = gr.Markdown(elem_id="compare-note")
    return SimpleNamespace(player_video=player_video, player_audio=player_audio, self_check=self_check,
                           caption=caption, captioned=captioned, compare=compare, emotional=emotional, neutral=neutral,
                           emotional_lite=emotional_lite, compare_note=compare_note)


def detail_tabs(votes_headers: list[str]) -> SimpleNamespace:
    with gr.Tabs():
        with gr.Tab("Emotion & votes"):
            headline = gr.Markdown("_Give a turn and press Respond._", elem_id="emotion-headline")
            votes = gr.Dataframe(headers=votes_headers, interactive=False, label="Votes", wrap=True, elem_id="votes",
                                 column_widths=["18%", "15%", "16%", "10%", "23%", "18%"])
            vote_tally = gr.JSON(visible=False)     # the chart's data, which cached examples replay
            votes_plot = gr.BarPlot(x="emotion", y="weight", label="Vote weight per emotion", height=220,
                                    y_lim=[0, None], sort="-y", elem_id="votes-plot")
            emotion_engine = gr.Markdown()
        with gr.Tab("Text"):
            reply_text = gr.Textbox(label="Reply", lines=4, buttons=["copy"], interactive=False, elem_id="reply-text")
            text_engine = gr.Markdown()
        with gr.Tab("Speech"):
            reply_audio = gr.Audio(label="Spoken reply", type="filepath", interactive=False, elem_id="reply-audio")
            speech_engine = gr.Markdown()
        with gr.Tab("Video"):
            reply_video = gr.Video(label="Talking avatar", interactive=False, height=360, elem_id="reply-video")
            video_engine = gr.Markdown()
    bundle = gr.File(label="Download bundle (JSON, wav, mp4, subtitles)", interactive=False, elem_id="bundle")
    return SimpleNamespace(headline=headline, votes=votes, vote_tally=vote_tally, votes_plot=votes_plot,
                           emotion_engine=emotion_engine, reply_text=reply_text, text_engine=text_engine,
                           reply_audio=reply_audio, speech_engine=speech_engine, reply_video=reply_video,
                           video_engine=video_engine, bundle=bundle)
