"""The public API and MCP tools: one call answers a turn (a text turn needs only its text) and one lists the
avatars. Values in and out are plain: text, file paths and JSON text."""
from __future__ import annotations

import json
from dataclasses import asdict, replace

import gradio as gr

from .admission import TurnGate
from .contracts import GenerationSettings
from .dialogue import history_from_json_text
from .display import emotion_json
from .errors import InputError, ServerBusyError
from .memory.avatars import DEFAULT_AVATAR
from .request_files import write_bundle
from .serving import AVATARS, runner
from .settings import CONCURRENT_TURNS, queue_size
from .views import check_expression_mode, run_turn


class ApiError(gr.Error):
    """Bad input from an API caller. gradio's Error repr()s its message in str(), which is what an MCP client is
    shown; this one gives the message itself, the page's words."""

    def __str__(self) -> str:
        return self.message


# Turns served at once through the API, and callers waiting for them: its MCP and JavaScript calls skip gradio's
# queue (see app.py).
_API_TURNS = TurnGate(CONCURRENT_TURNS, queue_size())


def respond(text: str | None = None, audio: str | None = None, video: str | None = None,
            history_json: str | None = None, avatar: str | None = None, expression: str | None = None):
    """An empathetic listener avatar answers the speaker's latest turn (text, audio or video): it votes on the
    speaker's emotion, writes a reply conditioned on it, speaks it in its own voice and animates its face saying it.

    Args:
        text: the speaker's latest turn as text (give text, audio or video, or several of them).
        audio: a recording of the latest turn (wav, mp3, ...); leave it out when there is none.
        video: a video of the speaker saying the latest turn (mp4, webm, ...); leave it out when there is none.
        history_json: the dialogue so far, a JSON list of {"role": "speaker" or "listener", "utterance": text}.
        avatar: the name of the listener avatar who answers, one of those list_avatars gives.
        expression: listener (the avatar comforts: a calm voice and face for fear) or mirror (it shows the emotion).

    Returns:
        the speaker's emotion (one of 36 labels)
        the reply text
        a link to the spoken reply (wav)
        a link to the talking-avatar video (mp4)
        a link to a zip bundle of them with subtitles
        the details as JSON text (every vote, the engines, timings and a self-check of the voice and face)
    """
    try:
        history = history_from_json_text(history_json)
        settings = replace(GenerationSettings(), expression_mode=check_expression_mode(expression))
        with _API_TURNS.admit():
            *_, (reply, workdir) = run_turn(runner(), history, text, audio, video, avatar or DEFAULT_AVATAR,
                                            settings=settings)
    except (InputError, ServerBusyError) as error:
        raise ApiError(str(error), title=type(error).__name__) from None
    return (reply.emotion.fine, reply.text, str(reply.wav_path), str(reply.mp4_path),
            str(write_bundle(reply, workdir)), json.dumps(emotion_json(reply), ensure_ascii=False))


def list_avatars() -> str:
    """The listener avatars that respond can answer as: each one's name, age, gender and voice timbre, and which
    one answers when none is named.

    Returns:
        the avatars as JSON text, a list of {"name", "age", "gender", "timbre", "default"}
    """
    avatars = (AVATARS.get(name) for name in AVATARS.names())
    return json.dumps([{"name": avatar.name, **asdict(avatar.profile), "default": avatar.name == DEFAULT_AVATAR}
                       for avatar in avatars])
