"""The Space's request layer: turns UI/API values into pipeline requests and replies into what the tabs show.

Nothing here holds request state between calls: each request gets its own folder, each browser session its own
uploaded avatars.
"""
from __future__ import annotations

import json
import shutil
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .dialogue import Profile, Utterance, load_dialogue_so_far, parse_history
from .emotions import FINE_LABELS, coarse_of
from .engines import GenerationSettings
from .errors import DialogueFormatError
from .memory.avatars import Avatar, AvatarStore
from .pipeline import E3RGPipeline, Reply, ResponseRequest

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


def run_turn(pipeline: E3RGPipeline, history: tuple[Utterance, ...], text: str | None, audio: str | None,
             video: str | None, avatar: Avatar | str, k_shot: int = 0,
             settings: GenerationSettings = GenerationSettings()) -> Iterator[tuple[Reply, Path]]:
    """Stream one turn through the pipeline in a fresh folder; the last item carries the finished reply."""
    workdir = new_request_dir()
    request = ResponseRequest(history=history, text=text or "", audio_path=audio or None, video_path=video or None,
                              avatar=avatar if isinstance(avatar, str) else avatar.name, k_shot=int(k_shot),
                              settings=settings)
    for reply in pipeline.respond(request, workdir, avatar=None if isinstance(avatar, str) else avatar):
        yield reply, workdir


def emotion_json(reply: Reply) -> dict[str, Any]:
    data = reply.to_json()
    return {"emotion": data["emotion"], "engines": data["engines"], "seconds": data["seconds"],
            "heard_text": data["heard_text"], "notices": data["notices"]}

