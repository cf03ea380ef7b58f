"""The sweeper: deletes what requests and sessions leave in the temporary folders once its lifetime is over, and the
oldest of it whenever the folders together pass their cap. It runs on a timer, so an idle server is swept too."""
from __future__ import annotations

import logging
import os
import shutil
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

# Turns add files between sweeps (on a quiet 2-core machine about 30 MiB a minute, and a 1,000-turn soak once passed
# the cap by 2 MiB that way): eviction starts at HIGH_WATER of the cap and goes down to LOW_WATER.
HIGH_WATER = 0.85
LOW_WATER = 0.7
# An empty folder younger than this may be one that a request or gradio is about to fill.
EMPTY_FOLDER_GRACE_SECONDS = 60


@dataclass(frozen=True)
class SweptFolder:
    """A folder whose entries (the folders and files directly in it) are deleted `lifetime_seconds` after they last
    changed. Over the cap, entries of a lower rank go first, the oldest first within a rank. `keep` names entries
    that are never deleted (asked at every sweep)."""
    root: Path
    lifetime_seconds: float
    rank: int = 0
    keep: Callable[[], Collection[str]] | None = None
    # Empty folders go after EMPTY_FOLDER_GRACE_SECONDS (gradio's cache: its deletions leave them). Not for request
    # folders, which stay empty while a turn is understood and written, longer than that on a busy server.
    empty_folders_go: bool = False


@dataclass(frozen=True)
class Sweep:
    """What one sweep did, and what it left."""
    expired: int
    evicted: int
    kept_bytes: int


def allocated_bytes(path: Path) -> int:
    """The disk a file, or a folder with everything in it, takes."""
    try:
        if not path.is_dir() or path.is_symlink():
            return path.lstat().st_blocks * 512
        total = path.lstat().st_blocks * 512
        for root, folders, files in os.walk(path):
            for name in (*folders, *files):
                try:
                    total += os.lstat(os.path.join(root, name)).st_blocks * 512
                except FileNotFoundError:
                    pass
        return total
    except FileNotFoundError:
        return 0


def remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _is_empty_folder(path: Path) -> bool:
    try:
        return path.is_dir() and next(path.iterdir(), None) is None
    except OSError:
        return False


def expire(folder: SweptFolder, now: float | None = None) -> tuple[int, list[tuple[int, float, Path]]]:
    """Delete the folder's entries past their lifetime, and its empty folders past their grace where they go; how
    many went, and
    the rank, last change and path of each entry that may still go (those not kept)."""
    now = time.time() if now is None else now
    kept = frozenset(folder.keep()) if folder.keep is not None else frozenset()
    try:
        entries = [entry for entry in folder.root.iterdir() if entry.name not in kept]
    except FileNotFoundError:
        return 0, []
    expired, left = 0, []
    for entry in entries:
        try:
            changed = entry.lstat().st_mtime
        except FileNotFoundError:
            continue
        age = now - changed
        if age > folder.lifetime_seconds or (folder.empty_folders_go and age > EMPTY_FOLDER_GRACE_SECONDS
                                             and _is_empty_folder(entry)):
            remove(entry)
            expired += 1
        else:
            left.append((folder.rank, changed, entry))
    return expired, left


def sweep(folders: Sequence[SweptFolder], cap_bytes: int, now: float | None = None) -> Sweep:
    """expire() every folder; then, while what is left takes more than HIGH_WATER of cap_bytes, delete the
    lowest-ranked and oldest entries, down to LOW_WATER of the cap."""
    expired, left = 0, []
    for folder in folders:
        gone, entries = expire(folder, now)
        expired += gone
        left += [(rank, changed, entry, allocated_bytes(entry)) for rank, changed, entry in entries]
    total, evicted = sum(size for *_, size in left), 0
    if total > cap_bytes * HIGH_WATER:
        for _, _, entry, size in sorted(left, key=lambda item: item[:2]):
            if total <= cap_bytes * LOW_WATER:
                break
            remove(entry)
            total -= size
            evicted += 1
        log.warning("temporary files neared their cap of %d MiB: the %d oldest entries were deleted early",
                    cap_bytes // 2**20, evicted)
    return Sweep(expired, evicted, total)


class Sweeper:
    """sweep() now, then every interval_seconds in a daemon thread, until stop()."""

    def __init__(self, folders: Sequence[SweptFolder], cap_bytes: int, interval_seconds: float, after=None):
        self.folders, self.cap_bytes, self.interval_seconds = tuple(folders), cap_bytes, interval_seconds
        self.after = after      # called after every sweep (e.g. to hand freed memory back)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="e3rg-sweeper", daemon=True)

    def start(self) -> Sweeper:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while True:
            try:
                sweep(self.folders, self.cap_bytes)
                if self.after is not None:
                    self.after()
            except Exception:       # a failed sweep must not end the timer; the next one tries again
                log.exception("sweeping the temporary files failed")
            if self._stop.wait(self.interval_seconds):
                return
