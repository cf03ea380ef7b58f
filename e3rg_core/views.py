"""The Space's views: UI and API values in, a turn through the runner, and what every output shows.

app.py lays out the page and wires these functions to it. Nothing here holds request state between calls: each
request gets its own folder, each browser session its own uploaded avatars (in gr.State).
"""
from __future__ import annotations

import json
import shutil
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import gradio as gr
import pandas as pd

from .contracts import GenerationSettings, Profile, Utterance, Vote
from .dialogue import load_dialogue_so_far, parse_history
from .emotions import EXPRESSION_MODES, FINE_LABELS, coarse_of
from .errors import DialogueFormatError, InputError
from .memory.avatars import DEFAULT_AVATAR, Avatar, AvatarStore
from .runner import Reply, ResponseRequest, Stage, TurnRunner
from .settings import REQUEST_FILES_TTL_SECONDS
from .subtitles import burn_captions, read_vtt
from .understanding.voting import tally

REQUEST_ROOT = Path(tempfile.gettempdir()) / "e3rg-requests"
HISTORY_HEADERS = ["role", "utterance"]


def new_request_dir() -> Path:
    """A fresh folder for one request's files; folders older than two hours are swept on the way."""
    REQUEST_ROOT.mkdir(parents=True, exist_ok=True)
    cutoff = time.time() - REQUEST_FILES_TTL_SECONDS
    for old in REQUEST_ROOT.iterdir():
        if old.is_dir() and old.stat().st_mtime < cutoff:
            shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix="req-", dir=REQUEST_ROOT))


def history_from_rows(rows: Any) -> tuple[Utterance, ...]:
    """The dialogue's rows of role, utterance (the editable table's, kept in the session; blank rows ignored) as
    utterances."""
    if rows is None:
        return ()
    if hasattr(rows, "values") and hasattr(rows, "columns"):
        rows = rows.values.tolist()
    items = [{"role": str(role or "").strip() or "speaker", "utterance": str(text or "").strip()}
             for role, text, *_ in rows if str(text or "").strip()]
    return parse_history(items, "dialogue so far")


def history_from_json_text(text: str | None) -> tuple[Utterance, ...]:
    """The API's history_json: a JSON list of {role, utterance}; empty means a new conversation."""
    if not text or not text.strip():
        return ()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DialogueFormatError(f"history_json is not valid JSON: {error}.") from None
    return parse_history(data, "history_json")


def rows_from_history(history: tuple[Utterance, ...]) -> list[list[str]]:
    return [[u.role, u.utterance] for u in history]


def rows_from_file(path: str | None) -> list[list[str]]:
    """An uploaded {role, utterance} list or AvaMERG file (its first conversation's last turn), as table rows."""
    if not path:
        raise DialogueFormatError("No dialogue file was given.")
    history, _, _ = load_dialogue_so_far(path)
    return rows_from_history(history)


def create_session_avatar(store: AvatarStore, session_root: Path, name: str, portrait: str | None,
                          voice: str | None, age: str | None, gender: str | None, timbre: str | None) -> Avatar:
    """An avatar that lives only in this browser session's folder."""
    profile = Profile(age=age or None, gender=gender or None, timbre=timbre or None)
    return store.create(name.strip(), portrait, voice, profile, root=session_root, source="uploaded in this session")


VOTES_HEADERS = ["voter", "label · coarse", "confidence", "weight", "top 3", "evidence"]


def _top_cell(top) -> str:
    return ", ".join(f"{label} {probability:.2f}" for label, probability in top)


def _top_of_cell(cell: str) -> tuple[tuple[str, float], ...]:
    """_top_cell read back (the chart is drawn from the table alone, see votes_chart)."""
    pairs = (item.rsplit(" ", 1) for item in (cell or "").split(", ") if item)
    return tuple((label, float(probability)) for label, probability in pairs)


def votes_table(reply: Reply) -> list[list[Any]]:
    """One row per vote: the voter (and what it read), the label it chose and that label's coarse class, how sure
    it was (a probability, 0-1, where it has one), its say in the vote, its three best labels, and what else it
    said (its raw answer, where that is more than its top 3)."""
    return [[f"{v.voter} ({v.modality})", f"{v.label} · {coarse_of(v.label)}",
             "" if v.confidence is None else round(float(v.confidence), 2), round(float(v.weight), 2),
             _top_cell(v.top[:3]), "" if v.raw == _top_cell(v.top) else v.raw]
            for v in (reply.emotion.votes if reply.emotion else ())]


def votes_chart(table: list[list[Any]]) -> list[dict[str, Any]]:
    """The weight each fine label got in the vote (voting.tally: each voter's weight spread over its top labels'
    probabilities), read from the rows of votes_table: the chart is a view of the table, so that a replayed example,
    which can carry the table but no plot, draws it too."""
    columns = {name: VOTES_HEADERS.index(name) for name in ("label · coarse", "confidence", "weight", "top 3")}
    votes = [Vote(voter="", modality="", label=str(row[columns["label · coarse"]]).split(" · ")[0],
                  confidence=None if row[columns["confidence"]] in ("", None) else float(row[columns["confidence"]]),
                  top=_top_of_cell(row[columns["top 3"]]), weight=float(row[columns["weight"]] or 0))
             for row in table]
    totals = tally(votes)
    return [{"emotion": name, "weight": round(totals[name], 2)} for name in FINE_LABELS if totals.get(name)]


def chart_votes(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(votes_chart(table.values.tolist()), columns=["emotion", "weight"])


def warnings_markdown(notices) -> str:
    """Notices as the page's warning lines, each its own quoted paragraph."""
    return "".join(f"\n\n> ⚠️ {notice}" for notice in notices)


def engine_line(reply: Reply, *stages: str) -> str:
    """'Engine: … · 0.42 s' for the stages one tab shows."""
    parts = []
    for stage in stages:
        if stage in reply.engines:
            seconds = reply.seconds.get(stage)
            parts.append(f"**{stage}**: {reply.engines[stage]}" + (f" · {seconds:.2f} s" if seconds else ""))
    return " — ".join(parts) or "_waiting…_"


def write_bundle(reply: Reply, workdir: Path) -> Path:
    """One zip to share: reply.json (dialogue, votes, reply, engines, timings, self-check), reply.wav, reply.mp4
    and the subtitles."""
    bundle = workdir / "e3rg_reply.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in (reply.write_json(workdir), reply.wav_path, reply.mp4_path, *reply.subtitles):
            if path is not None and path.is_file():
                archive.write(path, path.name)
    return bundle


def run_turn(runner: TurnRunner, history: tuple[Utterance, ...], text: str | None, audio: str | None,
             video: str | None, avatar: Avatar | str, k_shot: int = 0,
             settings: GenerationSettings = GenerationSettings()) -> Iterator[tuple[Reply, Path]]:
    """Stream one turn through the runner in a fresh folder; the last item carries the finished reply."""
    workdir = new_request_dir()
    request = ResponseRequest(history=history, text=text or "", audio_path=audio or None, video_path=video or None,
                              avatar=avatar if isinstance(avatar, str) else avatar.name, k_shot=int(k_shot),
                              settings=settings)
    for reply in runner.respond(request, workdir, avatar=None if isinstance(avatar, str) else avatar):
        yield reply, workdir


def emotion_json(reply: Reply) -> dict[str, Any]:
    data = reply.to_json()
    return {key: data[key] for key in ("emotion", "expression", "engines", "seconds", "heard_text", "notices",
                                       "self_check")}



# -- serving ---------------------------------------------------------------------------------------------------
AVATARS = AvatarStore()
DEFAULT_SETTINGS = GenerationSettings(seed=0)
_runner_lock = threading.Lock()


@lru_cache(maxsize=1)
def _select_runner() -> TurnRunner:
    from .tiers import select_runner
    return select_runner(AVATARS)


def runner() -> TurnRunner:
    """The runner serving requests, built on first use (the lite engines load in a few seconds)."""
    with _runner_lock:
        return _select_runner()


def full_tier_wanted() -> bool:
    """Whether the full tier was asked for; importing tiers.full loads its engines."""
    from .tiers.full import FULL_ENGINES
    return FULL_ENGINES is not None


def start() -> None:
    """At import of the app: ZeroGPU must find the GPU function, and the GPU models loaded, before launch."""
    if full_tier_wanted():
        runner()


def supported_settings() -> frozenset[str]:
    if full_tier_wanted():
        return runner().supported_settings
    from .tiers.lite import lite_supported_settings
    return lite_supported_settings()


def tier_note() -> str:
    return engines_note(runner() if full_tier_wanted() else None)


def engines_note(serving: TurnRunner | None) -> str:
    """The page's line on which engines serve; for the full tier each engine by name, and any that is missing
    with why (serving is None when only the lite tier was wanted, which then need not load to be described)."""
    if serving is None:
        return ("Engines: **lite** (CPU, offline models shipped in Python packages). Each tab names the engine that "
                "made its output.")
    tier, warnings = serving.tier, warnings_markdown(serving.tier.notices)
    if tier.name != "full":
        return "Engines: **lite** (CPU, offline models shipped in Python packages)." + warnings
    engines = tier.engines
    voters = ", ".join(voter.name for voter in engines.voters) or "the lite voters only"
    return (f"Engines: **full** (GPU) — emotion vote: {voters}; reply: {engines.writer.name}; speech: "
            f"{engines.speech.name}; video: {engines.video.name}; the lite CPU engines stand behind it." + warnings)


# -- the page's events -----------------------------------------------------------------------------------------
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


def headline(reply: Reply) -> str:
    emotion = reply.emotion
    if emotion is None:
        return "_Listening…_"
    coarse = (f"E3RG's coarse class: **{emotion.coarse}**" if emotion.coarse == emotion.fine else
              f"E3RG's coarse class: **{emotion.coarse}** (its 8 classes group the 36 feelings; *{emotion.fine}* "
              f"is counted as *{emotion.coarse}*)")
    return (f"## {emotion.fine}\n{coarse}. Decided by **{emotion.decided_by}** from {len(emotion.votes)} vote(s)."
            + (f" The listener answers with a **{reply.expression}** voice and face." if reply.expression else "")
            + (f"\n\nHeard: “{reply.heard_text}”" + (" (transcribed)" if reply.transcribed else "")
               if reply.heard_text else "")
            + warnings_markdown(reply.notices))


def chat_messages(history: tuple[Utterance, ...]) -> list[dict[str, str]]:
    """The dialogue as chat messages: the speaker is the user, the listener the avatar."""
    return [{"role": "user" if u.role == "speaker" else "assistant", "content": u.utterance or "🎞️ (a wordless clip)"}
            for u in history]


def view_of(reply: Reply, workdir: Path, first: bool, last_turn: LastTurn | None) -> ReplyView:
    """Every output's value for the reply so far; what is not ready yet is left as it is."""
    dialogue = reply.history + ((Utterance(len(reply.history), "listener", reply.text),) if reply.text else ())
    mp4 = str(reply.mp4_path) if reply.mp4_path else None
    # The player beside the chat shows the reply's WebVTT subtitles as captions.
    player = gr.Video(mp4, subtitles=str(reply.subtitles[0]) if reply.subtitles else None) if mp4 else None
    check = f"**Self-check** — {reply.self_check.line()}" if reply.self_check else ""
    return ReplyView(
        headline=headline(reply), votes=votes_table(reply), emotion_engine=engine_line(reply, "emotion", "transcript"),
        reply_text=reply.text, text_engine=engine_line(reply, "text"),
        reply_audio=str(reply.wav_path) if reply.wav_path else None, speech_engine=engine_line(reply, "speech"),
        reply_video=mp4, video_engine=engine_line(reply, "video"),
        bundle=str(write_bundle(reply, workdir)) if reply.done else None,
        player_video=player, player_audio=str(reply.wav_path) if reply.wav_path else None, self_check=check,
        chat=chat_messages(dialogue), history=rows_from_history(dialogue) if reply.done else gr.skip(),
        dialogue=rows_from_history(dialogue) if reply.done else gr.skip(),
        turn_text="" if first else gr.skip(), last_turn=last_turn if last_turn else gr.skip())


NEXT_STEP = {Stage.UNDERSTAND: (0.3, "Writing the reply"), Stage.WRITE: (0.5, "Speaking the reply"),
             Stage.SPEAK: (0.7, "Animating the avatar"), Stage.ANIMATE: (0.9, "Checking the voice and face")}


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


def respond(history_json: str, text: str, audio: str | None, video: str | None, avatar: str,
                expression: str = "listener"):
    """Answer the speaker's latest turn as an empathetic listener avatar: vote on the speaker's emotion, write a
    reply conditioned on it, speak it in the avatar's voice and animate the avatar's face saying it.

    Args:
        history_json: the dialogue so far as a JSON list of {"role": "speaker" or "listener", "utterance": text};
            "" or "[]" starts a new conversation.
        text: the speaker's latest turn as text ("" when it is given as audio or video).
        audio: a recording of the latest turn (an audio file), or None.
        video: a video of the speaker saying the latest turn, or None.
        avatar: the listener avatar's name ("" for the default).
        expression: "listener" (the avatar comforts: a calm voice and face for fear) or "mirror" (E3RG's own: the
            avatar shows the speaker's emotion).

    Returns:
        The emotion with every voter's vote, the reply text, the spoken reply (wav), the talking-avatar video (mp4),
        and a zip bundle of them all with subtitles and a self-check of the voice and face.
    """
    try:
        history = history_from_json_text(history_json)
        settings = replace(GenerationSettings(), expression_mode=check_expression_mode(expression))
        *_, (reply, workdir) = run_turn(runner(), history, text, audio, video, avatar or DEFAULT_AVATAR,
                                        settings=settings)
    except InputError as error:
        raise gr.Error(str(error), title=type(error).__name__) from None
    return (emotion_json(reply), reply.text, str(reply.wav_path), str(reply.mp4_path),
            str(write_bundle(reply, workdir)))


class CompareView(NamedTuple):
    """What the compare view shows, one field per component (page.latest_reply names them, app.py lists them)."""
    emotional: Any
    neutral: Any
    emotional_lite: Any
    compare_note: Any


def rendering_engines(reply: Reply) -> tuple[str, str]:
    return reply.engines[Stage.SPEAK.value], reply.engines[Stage.ANIMATE.value]


def rendered_by(reply: Reply) -> str:
    speech, video = rendering_engines(reply)
    return f"spoken by *{speech}* and animated by *{video}*"


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


def compare_note(emotional: Reply, neutral: Reply, emotional_lite: Reply | None) -> str:
    """What the compared videos differ in, each named with the engines that rendered it: a pair that differs in
    its engines too shows more than the emotion's part."""
    emotion = emotional.emotion
    faces = (f"**Emotional** (left) answers *{emotion.fine}* ({emotion.coarse}) with a *{emotional.expression}* "
             f"voice and face, **neutral** (right) with a *{neutral.expression}* one")
    if rendering_engines(neutral) == rendering_engines(emotional):
        note = (f"The same words, avatar and engines ({rendered_by(emotional)}): {faces}, so the two differ only in "
                f"the emotion.")
    else:
        note = (f"The same words and avatar: {faces}. Different engines made them (emotional: "
                f"{rendered_by(emotional)}; neutral: {rendered_by(neutral)}), so they differ in more than the "
                f"emotion.")
    note += warnings_markdown(neutral.notices)
    if emotional_lite is not None:
        note += (f"\n\n**Emotional, lite engines** (below): the emotional reply {rendered_by(emotional_lite)}; "
                 f"beside the emotional one above it differs only in the engines (the lite tier against the full).")
    return note


def compare(last_turn: LastTurn | None) -> CompareView:
    """The latest reply again with a neutral voice and face beside the emotional one; when the full tier made it,
    also on the lite engines."""
    if last_turn is None:
        gr.Warning("Send a turn first; then its reply can be rendered without emotion.")
        return CompareView(*(gr.skip() for _ in CompareView._fields))
    neutral, emotional_lite = compare_renders(runner(), last_turn, new_request_dir())
    return CompareView(emotional=str(last_turn.reply.mp4_path), neutral=str(neutral.mp4_path),
                       emotional_lite=gr.Video(str(emotional_lite.mp4_path) if emotional_lite else None,
                                               visible=emotional_lite is not None),
                       compare_note=compare_note(last_turn.reply, neutral, emotional_lite))


def captioned_video(reply: Reply, workdir: Path) -> Path:
    """The reply's video with its WebVTT captions burned in, to share where players show no subtitle files."""
    return burn_captions(reply.mp4_path, read_vtt(reply.subtitles[0]), reply.wav_path,
                         workdir / "e3rg_reply_captioned.mp4")


def caption(last_turn: LastTurn | None):
    if last_turn is None:
        gr.Warning("Send a turn first; then its video can be captioned.")
        return gr.skip()
    return str(captioned_video(last_turn.reply, new_request_dir()))


def load_dialogue(file):
    try:
        return rows_from_file(file)
    except InputError as error:
        raise gr.Error(str(error), title="Could not load that dialogue") from None


def add_avatar(name, portrait, voice, age, gender, timbre, session_avatars, session_dir):
    session_dir = session_dir or tempfile.mkdtemp(prefix="e3rg-session-")
    try:
        avatar = create_session_avatar(AVATARS, Path(session_dir), name or "", portrait, voice, age, gender, timbre)
    except InputError as error:
        raise gr.Error(str(error), title="Could not use that avatar") from None
    label = f"{avatar.name} (yours)"
    session_avatars = {**(session_avatars or {}), label: avatar}
    gr.Info(f"Avatar “{avatar.name}” is ready for this session.")
    return gr.update(choices=AVATARS.names() + list(session_avatars), value=label), session_avatars, session_dir


def forget_session_dir(path):
    """A closed browser session's uploaded avatars are deleted with it."""
    if path:
        shutil.rmtree(path, ignore_errors=True)


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
