"""The page's and the API's handlers: UI and API values in, a turn through the runner, and every output's value.

app.py lays out the page and wires these functions to it. Nothing here holds request state between calls: each
request gets its own folder (request_files), each browser session its own uploaded avatars (in gr.State).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import gradio as gr
import pandas as pd

from . import heap
from .contracts import GenerationSettings, Profile, Utterance
from .dialogue import history_from_rows, load_dialogue_so_far, rows_from_history
from .display import (CHART_COLUMNS, chat_messages, compare_note, engine_line, headline,
                      rendering_engines, vote_tally, votes_table)
from .emotions import EXPRESSION_MODES
from .errors import DialogueFormatError, InputError
from .memory.avatars import DEFAULT_AVATAR, Avatar
from .request_files import new_request_dir, new_session_dir, write_bundle
from .runner import Reply, ResponseRequest, Stage, TurnRunner
from .serving import AVATARS, DEFAULT_SETTINGS, runner
from .settings import REQUEST_FILES_TTL_SECONDS
from .subtitles import burn_captions, read_vtt


def run_turn(runner: TurnRunner, history: tuple[Utterance, ...], text: str | None, audio: str | None,
             video: str | None, avatar: Avatar | str, k_shot: int = 0,
             settings: GenerationSettings = GenerationSettings()) -> Iterator[tuple[Reply, Path]]:
    """Stream one turn through the runner in a fresh folder; the last item carries the finished reply."""
    workdir = new_request_dir()
    request = ResponseRequest(history=history, text=text or "", audio_path=audio or None, video_path=video or None,
                              avatar=avatar if isinstance(avatar, str) else avatar.name, k_shot=int(k_shot),
                              settings=settings)
    try:
        for reply in runner.respond(request, workdir, avatar=None if isinstance(avatar, str) else avatar):
            yield reply, workdir
    finally:
        # A turn frees some hundred MiB of arrays and tensors that glibc keeps; handed back now, the server's
        # resident memory is what it holds between turns, not what the last few turns left (heap.py).
        heap.trim()


def check_expression_mode(mode: str | None) -> str:
    mode = (mode or "listener").strip().lower()
    if mode not in EXPRESSION_MODES:
        raise InputError(f"expression must be one of {', '.join(EXPRESSION_MODES)}, not '{mode}'.")
    return mode


def settings_from_controls(expression, intensity, speed, steps, identity, emotion_scale, seed, diffusion_video):
    return GenerationSettings(expression_mode=check_expression_mode(expression),
                              emotion_intensity=float(intensity), speech_speed=float(speed), video_steps=int(steps),
                              identity_scale=float(identity), emotion_scale=float(emotion_scale),
                              seed=None if seed in (None, "") else int(seed), diffusion_video=bool(diffusion_video))


def _avatar(choice, session_avatars):
    return (session_avatars or {}).get(choice) or choice or DEFAULT_AVATAR


class ReplyView(NamedTuple):
    """What a turn shows, one field per output component (app.py lists the components by these names)."""
    headline: Any
    votes: Any
    emotion_engine: Any
    reply_text: Any
    text_engine: Any
    reply_audio: Any
    speech_engine: Any
    reply_video: Any
    video_engine: Any
    bundle: Any
    player_video: Any
    player_audio: Any
    self_check: Any
    vote_tally: Any
    # not replayed by the cached examples (an example starts a conversation of its own):
    chat: Any
    history: Any
    dialogue: Any
    turn_text: Any
    last_turn: Any


EXAMPLE_VIEW_FIELDS = ReplyView._fields[:ReplyView._fields.index("chat")]


@dataclass(frozen=True)
class LastTurn:
    """The session's latest reply, for rendering it again (the compare view)."""
    reply: Reply
    avatar: Avatar | str
    settings: GenerationSettings






def view_of(reply: Reply, workdir: Path, first: bool, last_turn: LastTurn | None) -> ReplyView:
    """Every output's value for the reply so far; what is not ready yet is left as it is. last_turn is given once
    the turn is final (its self-check made)."""
    dialogue = reply.history + ((Utterance(len(reply.history), "listener", reply.text),) if reply.text else ())
    mp4 = str(reply.mp4_path) if reply.mp4_path else None
    # The player beside the chat shows the reply's WebVTT subtitles as captions.
    player = gr.Video(mp4, subtitles=str(reply.subtitles[0]) if reply.subtitles else None) if mp4 else None
    check = f"**Self-check** — {reply.self_check.line()}" if reply.self_check else ""
    return ReplyView(
        headline=headline(reply), votes=votes_table(reply), vote_tally=vote_tally(reply),
        emotion_engine=engine_line(reply, "emotion", "transcript"),
        reply_text=reply.text, text_engine=engine_line(reply, "text"),
        reply_audio=str(reply.wav_path) if reply.wav_path else None, speech_engine=engine_line(reply, "speech"),
        reply_video=mp4, video_engine=engine_line(reply, "video"),
        bundle=str(write_bundle(reply, workdir)) if last_turn else None,    # once, after the self-check
        player_video=player, player_audio=str(reply.wav_path) if reply.wav_path else None, self_check=check,
        chat=chat_messages(dialogue), history=rows_from_history(dialogue) if reply.done else gr.skip(),
        dialogue=rows_from_history(dialogue) if reply.done else gr.skip(),
        turn_text="" if first else gr.skip(), last_turn=last_turn if last_turn else gr.skip())


NEXT_STEP = {Stage.EMOTION: (0.3, "Writing the reply"), Stage.TEXT: (0.5, "Speaking the reply"),
             Stage.SPEECH: (0.7, "Animating the avatar"), Stage.VIDEO: (0.9, "Checking the voice and face")}


def respond_ui(rows, text, audio, video, avatar_choice, session_avatars, k_shot, expression, intensity, speed, steps,
               identity, emotion_scale, seed, diffusion_video, progress=gr.Progress()):
    try:
        settings = settings_from_controls(expression, intensity, speed, steps, identity, emotion_scale, seed,
                                          diffusion_video)
    except InputError as error:
        gr.Warning(str(error), title="Please check your input")
        return
    yield from _respond(rows, text, audio, video, _avatar(avatar_choice, session_avatars), k_shot, settings, progress)


def _respond(rows, text, audio, video, avatar, k_shot, settings, progress) -> Iterator[ReplyView]:
    try:
        history = history_from_rows(rows)
        progress(0.05, desc="Understanding: voting on the emotion")
        shown, first = None, True
        for reply, workdir in run_turn(runner(), history, text, audio, video, avatar, k_shot, settings):
            latest = reply.finished[-1] if reply.finished else None
            if latest is not shown and latest in NEXT_STEP:
                progress(*NEXT_STEP[latest])
            shown = latest
            final = reply.self_check is not None
            yield view_of(reply, workdir, first, LastTurn(reply, avatar, settings) if final else None)
            first = False
    except InputError as error:     # one clear message, and no output marked as failed
        gr.Warning(str(error), title="Please check your input")


def respond_example(text, audio, video):
    """An example turn with the default settings; its final outputs, but the conversation's, are cached."""
    *_, final = _respond([], text, audio, video, DEFAULT_AVATAR, 0, DEFAULT_SETTINGS, gr.Progress())
    # The example cache keeps values, not component updates: the player replays the video without captions.
    final = final._replace(player_video=final.reply_video)
    return tuple(getattr(final, name) for name in EXAMPLE_VIEW_FIELDS)


class CompareView(NamedTuple):
    """What the compare view shows, one field per component (page.latest_reply names them, app.py lists them)."""
    emotional: Any
    neutral: Any
    emotional_lite: Any
    compare_note: Any


def compare_renders(serving: TurnRunner, last_turn: LastTurn, workdir: Path) -> tuple[Reply, Reply | None]:
    """The latest reply rendered neutral on the engines a turn with its settings renders on and, when the lite
    engines did not render it (the full tier served it), rendered again on the lite engines, emotion unchanged."""
    reply, settings = last_turn.reply, last_turn.settings
    avatar = last_turn.avatar if isinstance(last_turn.avatar, Avatar) else serving.avatars.get(last_turn.avatar)
    neutral = serving.rerender(reply.text, "neutral", avatar, settings, workdir / "neutral")
    lite = serving.lite.engines
    if rendering_engines(reply) == (lite.speech.name, lite.video.name):
        return neutral, None
    return neutral, serving.rerender(reply.text, reply.emotion.fine, avatar, settings, workdir / "lite",
                                     lite_only=True)


EXPIRED_MESSAGE = (f"This reply's files were deleted {REQUEST_FILES_TTL_SECONDS // 60} minutes after it was made; "
                   f"send the turn again to render it anew.")


def files_expired(last_turn: LastTurn) -> bool:
    """Whether the sweeper has deleted the latest reply's files (request_files: they live
    REQUEST_FILES_TTL_SECONDS)."""
    reply = last_turn.reply
    return not all(path is not None and path.is_file() for path in (reply.wav_path, reply.mp4_path, *reply.subtitles))


def compare(last_turn: LastTurn | None) -> CompareView:
    """The latest reply again with a neutral voice and face beside the emotional one; when the full tier made it,
    also on the lite engines."""
    if last_turn is None:
        gr.Warning("Send a turn first; then its reply can be rendered without emotion.")
        return CompareView(*(gr.skip() for _ in CompareView._fields))
    if files_expired(last_turn):
        gr.Warning(EXPIRED_MESSAGE)
        return CompareView(*(gr.skip() for _ in CompareView._fields))
    neutral, emotional_lite = compare_renders(runner(), last_turn, new_request_dir())
    return CompareView(emotional=str(last_turn.reply.mp4_path), neutral=str(neutral.mp4_path),
                       emotional_lite=gr.Video(str(emotional_lite.mp4_path) if emotional_lite else None,
                                               visible=emotional_lite is not None),
                       compare_note=compare_note(last_turn.reply, neutral, emotional_lite))


def chart_votes(rows) -> pd.DataFrame:
    """The votes chart, drawn from the vote's tally (display.vote_tally), which a replayed example carries too."""
    return pd.DataFrame(rows or [], columns=CHART_COLUMNS)


def captioned_video(reply: Reply, workdir: Path) -> Path:
    """The reply's video with its WebVTT captions burned in, to share where players show no subtitle files."""
    return burn_captions(reply.mp4_path, read_vtt(reply.subtitles[0]), reply.wav_path,
                         workdir / "e3rg_reply_captioned.mp4")


def caption(last_turn: LastTurn | None):
    if last_turn is None:
        gr.Warning("Send a turn first; then its video can be captioned.")
        return gr.skip()
    if files_expired(last_turn):
        gr.Warning(EXPIRED_MESSAGE)
        return gr.skip()
    return str(captioned_video(last_turn.reply, new_request_dir()))


def load_dialogue(file):
    """An uploaded {role, utterance} list or AvaMERG file (its first conversation's last turn), as table rows."""
    try:
        if not file:
            raise DialogueFormatError("No dialogue file was given.")
        history, _, _ = load_dialogue_so_far(file)
        return rows_from_history(history)
    except InputError as error:
        raise gr.Error(str(error), title="Could not load that dialogue") from None


def add_avatar(name, portrait, voice, age, gender, timbre, session_avatars, session_dir):
    """An avatar that lives only in this browser session's folder."""
    session_dir = session_dir or str(new_session_dir())
    profile = Profile(age=age or None, gender=gender or None, timbre=timbre or None)
    try:
        avatar = AVATARS.create((name or "").strip(), portrait, voice, profile, root=Path(session_dir),
                                source="uploaded in this session")
    except InputError as error:
        raise gr.Error(str(error), title="Could not use that avatar") from None
    label = f"{avatar.name} (yours)"
    session_avatars = {**(session_avatars or {}), label: avatar}
    gr.Info(f"Avatar “{avatar.name}” is ready for this session.")
    return gr.update(choices=AVATARS.names() + list(session_avatars), value=label), session_avatars, session_dir


def show_avatar(choice, session_avatars):
    avatar = (session_avatars or {}).get(choice) or AVATARS.get(choice)
    return str(avatar.portrait_path), str(avatar.voice_path)


def edit_dialogue(rows):
    """The table as edited: the session's dialogue and the chat follow it."""
    try:
        history = history_from_rows(rows)
    except InputError as error:
        gr.Warning(str(error), title="Please check the dialogue")
        return gr.skip(), gr.skip()
    return rows_from_history(history), chat_messages(history)
