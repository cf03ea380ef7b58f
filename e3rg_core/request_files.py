"""The files a request or a browser session leaves behind, each with an owner and a lifetime (settings.py,
"lifetimes"):
- a request's folder (its outputs and bundle, which the page links to): swept on each request's arrival and on the
  sweeper's timer once REQUEST_FILES_TTL_SECONDS have passed;
- a browser session's folder (its own avatars): deleted when gradio sees the session close, and swept after
  SESSION_FILES_TTL_SECONDS should it never see that;
- gradio's cache (its copies of outputs and uploads): deleted by gradio (Blocks' delete_cache) and by the sweeper
  after GRADIO_CACHE_TTL_SECONDS, except the files the page itself shows.
Together they stay under TEMP_FILES_CAP_BYTES: past it, the sweeper deletes the oldest first, sessions' last.
Gradio's own lists of those files, and idle sessions (sessions.py), are pruned after every sweep."""
from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Collection
from pathlib import Path

from . import heap
from .runner import Reply
from .sessions import forget_idle_sessions
from .settings import (GRADIO_CACHE_TTL_SECONDS, REQUEST_FILES_TTL_SECONDS, SESSION_FILES_TTL_SECONDS,
                       SWEEP_INTERVAL_SECONDS, TEMP_FILES_CAP_BYTES)
from .sweeper import Sweeper, SweptFolder, expire

REQUEST_ROOT_NAME, SESSION_ROOT_NAME = "e3rg-requests", "e3rg-sessions"
REQUEST_ROOT = Path(tempfile.gettempdir()) / REQUEST_ROOT_NAME
SESSION_ROOT = Path(tempfile.gettempdir()) / SESSION_ROOT_NAME
REQUESTS = SweptFolder(REQUEST_ROOT, REQUEST_FILES_TTL_SECONDS)


def gradio_cache_root() -> Path:
    """Where gradio keeps the files it serves: GRADIO_TEMP_DIR, else 'gradio' in the temporary folder."""
    from gradio.utils import get_upload_folder
    return Path(get_upload_folder())


def new_request_dir() -> Path:
    """A fresh folder for one request's files; request folders past their lifetime are swept on the way."""
    REQUEST_ROOT.mkdir(parents=True, exist_ok=True)
    expire(REQUESTS)
    return Path(tempfile.mkdtemp(prefix="req-", dir=REQUEST_ROOT))


def new_session_dir() -> Path:
    """A folder for one browser session's uploaded avatars, deleted when the session closes."""
    SESSION_ROOT.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="session-", dir=SESSION_ROOT))


def forget_session_dir(path) -> None:
    """A closed browser session's uploaded avatars are deleted with it."""
    if path:
        shutil.rmtree(path, ignore_errors=True)


def page_files(blocks) -> frozenset[str]:
    """The files in gradio's cache that the page shows from the start (first values, examples): gradio marks them
    to keep (keep_in_cache) and never deletes them; neither does the sweeper."""
    return frozenset(path for block in blocks.blocks.values() for path in getattr(block, "keep_in_cache", ()))


def swept_folders(kept_cache_files: Callable[[], Collection[str]] = frozenset) -> tuple[SweptFolder, ...]:
    cache = gradio_cache_root()

    def kept_cache_entries() -> set[str]:
        return {Path(path).relative_to(cache).parts[0] for path in kept_cache_files()
                if Path(path).is_relative_to(cache)}

    return (REQUESTS, SweptFolder(cache, GRADIO_CACHE_TTL_SECONDS, keep=kept_cache_entries, empty_folders_go=True),
            SweptFolder(SESSION_ROOT, SESSION_FILES_TTL_SECONDS, rank=1))


def forget_deleted_cache_files(blocks) -> int:
    """Drop the files that are gone from gradio's lists of the files it made. Gradio takes a file off its list only
    when it deletes the file itself, so a file the sweeper deleted would stay listed as long as the server runs.
    How many were dropped."""
    dropped = 0
    for listed in blocks.temp_file_sets:
        gone = {path for path in list(listed) if not os.path.lexists(path)}
        listed -= gone
        dropped += len(gone)
    return dropped


def start_sweeper(blocks) -> Sweeper:
    """Sweep the temporary folders now and every SWEEP_INTERVAL_SECONDS; after each sweep, forget what the server
    kept of the files and sessions that are gone, and hand freed memory back."""
    def after_sweep() -> None:
        forget_deleted_cache_files(blocks)
        forget_idle_sessions(blocks)
        heap.trim()

    return Sweeper(swept_folders(lambda: page_files(blocks)), TEMP_FILES_CAP_BYTES, SWEEP_INTERVAL_SECONDS,
                   after=after_sweep).start()


def write_bundle(reply: Reply, workdir: Path) -> Path:
    """One zip to share: reply.json (dialogue, votes, reply, engines, timings, self-check), reply.wav, reply.mp4
    and the subtitles."""
    bundle = workdir / "e3rg_reply.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in (reply.write_json(workdir), reply.wav_path, reply.mp4_path, *reply.subtitles):
            if path is not None and path.is_file():
                archive.write(path, path.name)
    return bundle
