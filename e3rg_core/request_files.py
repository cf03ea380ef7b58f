"""The files a request or a browser session leaves behind: each request gets a fresh folder, each session's own
avatars a folder of their own, and old request folders are swept."""
from __future__ import annotations

import shutil
import tempfile
import time
import zipfile
from pathlib import Path

from .runner import Reply
from .settings import REQUEST_FILES_TTL_SECONDS

REQUEST_ROOT = Path(tempfile.gettempdir()) / "e3rg-requests"


def new_request_dir() -> Path:
    """A fresh folder for one request's files; folders older than their lifetime are swept on the way."""
    REQUEST_ROOT.mkdir(parents=True, exist_ok=True)
    cutoff = time.time() - REQUEST_FILES_TTL_SECONDS
    for old in REQUEST_ROOT.iterdir():
        if old.is_dir() and old.stat().st_mtime < cutoff:
            shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix="req-", dir=REQUEST_ROOT))


def new_session_dir() -> Path:
    """A folder for one browser session's uploaded avatars, deleted when the session closes."""
    return Path(tempfile.mkdtemp(prefix="e3rg-session-"))


def forget_session_dir(path) -> None:
    """A closed browser session's uploaded avatars are deleted with it."""
    if path:
        shutil.rmtree(path, ignore_errors=True)


def write_bundle(reply: Reply, workdir: Path) -> Path:
    """One zip to share: reply.json (dialogue, votes, reply, engines, timings, self-check), reply.wav, reply.mp4
    and the subtitles."""
    bundle = workdir / "e3rg_reply.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in (reply.write_json(workdir), reply.wav_path, reply.mp4_path, *reply.subtitles):
            if path is not None and path.is_file():
                archive.write(path, path.name)
    return bundle
