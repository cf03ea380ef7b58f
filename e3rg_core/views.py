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
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd

from .contracts import GenerationSettings, Profile, Utterance
from .dialogue import load_dialogue_so_far, parse_history
from .emotions import FINE_LABELS, coarse_of
from .errors import DialogueFormatError, InputError
from .memory.avatars import DEFAULT_AVATAR, Avatar, AvatarStore
from .runner import Reply, ResponseRequest, Stage, TurnRunner

REQUEST_ROOT = Path(tempfile.gettempdir()) / "e3rg-requests"
_REQUEST_TTL_S = 2 * 3600
HISTORY_HEADERS = ["role", "utterance"]


def new_request_dir() -> Path:
    """A fresh folder for one request's files; folders older than two hours are swept on the way."""
    REQUEST_ROOT.mkdir(parents=True, exist_ok=True)
    cutoff = time.time() - _REQUEST_TTL_S
    for old in REQUEST_ROOT.iterdir():
        if old.is_dir() and old.stat().st_mtime < cutoff:
            shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix="req-", dir=REQUEST_ROOT))


def history_from_rows(rows: Any) -> tuple[Utterance, ...]:
    """The editable dialogue table (rows of role, utterance; blank rows ignored) as utterances."""
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


VOTES_HEADERS = ["voter", "modality", "label", "coarse", "confidence", "evidence"]


def votes_table(reply: Reply) -> list[list[Any]]:
    return [[v.voter, v.modality, v.label, coarse_of(v.label),
             "" if v.confidence is None else round(float(v.confidence), 3), v.raw]
            for v in (reply.emotion.votes if reply.emotion else ())]


def votes_chart(table: list[list[Any]]) -> list[dict[str, Any]]:
    """Votes per fine label, counted from the rows of votes_table (the chart is a view of the table)."""
    counts = Counter(row[VOTES_HEADERS.index("label")] for row in table)
    return [{"emotion": label, "votes": counts[label]} for label in FINE_LABELS if counts[label]]


def engine_line(reply: Reply, *stages: str) -> str:
    """'Engine: … · 0.42 s' for the stages one tab shows."""
    parts = []
    for stage in stages:
        if stage in reply.engines:
            seconds = reply.seconds.get(stage)
            parts.append(f"**{stage}**: {reply.engines[stage]}" + (f" · {seconds:.2f} s" if seconds else ""))
    return " — ".join(parts) or "_waiting…_"


def write_bundle(reply: Reply, workdir: Path) -> Path:
    """One zip to share: reply.json (dialogue, votes, reply, engines, timings), reply.wav, reply.mp4."""
    (workdir / "reply.json").write_text(json.dumps(reply.to_json(), indent=2), encoding="utf-8")
    bundle = workdir / "e3rg_reply.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in (workdir / "reply.json", reply.wav_path, reply.mp4_path):
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
    return {"emotion": data["emotion"], "engines": data["engines"], "seconds": data["seconds"],
            "heard_text": data["heard_text"], "notices": data["notices"]}



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
    if full_tier_wanted() and runner().tier.name == "full":
        return ("Engines: **full** (GPU: Ola-Omni + Qwen2.5-Omni, OpenVoice, DICE-Talk), with the lite CPU engines "
                "as fallback.")
    return ("Engines: **lite** (CPU, offline models shipped in Python packages). Each tab names the engine that made "
            "its output.")


# -- the page's events -----------------------------------------------------------------------------------------
def settings_from_controls(intensity, speed, steps, identity, emotion_scale, seed, diffusion_video):
    return GenerationSettings(emotion_intensity=float(intensity), speech_speed=float(speed), video_steps=int(steps),
                              identity_scale=float(identity), emotion_scale=float(emotion_scale),
                              seed=None if seed in (None, "") else int(seed), diffusion_video=bool(diffusion_video))


def _avatar(choice, session_avatars):
    return (session_avatars or {}).get(choice) or choice or DEFAULT_AVATAR


def outputs_of(reply: Reply, workdir: Path):
    """Values for every output component from the reply so far (the dialogue table only once it is done)."""
    emotion = reply.emotion
    headline = "_Listening…_" if emotion is None else (
        f"## {emotion.fine} · *{emotion.coarse}*\nDecided by **{emotion.decided_by}** from {len(emotion.votes)} vote(s)."
        + (f"\n\nHeard: “{reply.heard_text}”" + (" (transcribed)" if reply.transcribed else "")
           if reply.heard_text else "")
        + "".join(f"\n\n> ⚠️ {notice}" for notice in reply.notices))
    history = rows_from_history(reply.history + (Utterance(len(reply.history), "listener", reply.text),))
    return (headline, votes_table(reply), engine_line(reply, "emotion", "transcript"), reply.text,
            engine_line(reply, "text"),
            str(reply.wav_path) if reply.wav_path else None, engine_line(reply, "speech"),
            str(reply.mp4_path) if reply.mp4_path else None, engine_line(reply, "video"),
            str(write_bundle(reply, workdir)) if reply.done else None,
            history if reply.done else gr.skip())


def chart_votes(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(votes_chart(table.values.tolist()), columns=["emotion", "votes"])


NEXT_STEP = {Stage.UNDERSTAND: (0.3, "Writing the reply"), Stage.WRITE: (0.5, "Speaking the reply"),
             Stage.SPEAK: (0.7, "Animating the avatar")}


def respond_ui(rows, text, audio, video, avatar_choice, session_avatars, k_shot, intensity, speed, steps,
               identity, emotion_scale, seed, diffusion_video, progress=gr.Progress()):
    settings = settings_from_controls(intensity, speed, steps, identity, emotion_scale, seed, diffusion_video)
    yield from _respond(rows, text, audio, video, _avatar(avatar_choice, session_avatars), k_shot, settings, progress)


def _respond(rows, text, audio, video, avatar, k_shot, settings, progress):
    try:
        history = history_from_rows(rows)
        progress(0.05, desc="Understanding: voting on the emotion")
        shown = None
        for reply, workdir in run_turn(runner(), history, text, audio, video, avatar, k_shot, settings):
            latest = reply.finished[-1] if reply.finished else None
            if latest is not shown and latest in NEXT_STEP:
                progress(*NEXT_STEP[latest])
            shown = latest
            yield outputs_of(reply, workdir)
    except InputError as error:
        raise gr.Error(str(error), title="Please check your input") from None


def respond_example(text, audio, video):
    """An example turn with the default settings; its final outputs, less the dialogue table, are cached."""
    *_, final = _respond([], text, audio, video, DEFAULT_AVATAR, 0, DEFAULT_SETTINGS, gr.Progress())
    return final[:-1]


def respond_api(history_json, text, audio, video, avatar):
    """The whole pipeline in one call: (emotion+votes JSON, reply text, wav, mp4, bundle zip)."""
    try:
        history = history_from_json_text(history_json)
        *_, (reply, workdir) = run_turn(runner(), history, text, audio, video, avatar or DEFAULT_AVATAR)
    except InputError as error:
        raise gr.Error(str(error), title=type(error).__name__) from None
    return (emotion_json(reply), reply.text, str(reply.wav_path), str(reply.mp4_path),
            str(write_bundle(reply, workdir)))


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
