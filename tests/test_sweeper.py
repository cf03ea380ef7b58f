"""The sweeper on real folders and a real timer: expired entries go without any request arriving, the cap holds,
lower ranks and older entries go first."""
import os
import time
from pathlib import Path

from e3rg_core.sweeper import (EMPTY_FOLDER_GRACE_SECONDS, LOW_WATER, Sweeper, SweptFolder, allocated_bytes,
                               sweep)


def _entry(root: Path, name: str, size: int, age_seconds: float) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "reply.mp4").write_bytes(os.urandom(size))
    changed = time.time() - age_seconds
    os.utime(folder, (changed, changed))
    return folder


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_the_timer_sweeps_an_expiring_folder_without_any_request(tmp_path):
    fresh = _entry(tmp_path, "req-fresh", 1000, 0)
    old = _entry(tmp_path, "req-old", 1000, 3600)
    # expires about a second after the sweeper starts: only a later tick of the timer can remove it
    expiring = _entry(tmp_path, "req-expiring", 1000, 9)
    sweeper = Sweeper([SweptFolder(tmp_path, lifetime_seconds=10)], cap_bytes=2**30, interval_seconds=0.2).start()
    try:
        assert _wait_for(lambda: not old.exists(), 2)
        assert expiring.exists(), "swept before its lifetime was over"
        assert _wait_for(lambda: not expiring.exists(), 4)
        assert fresh.exists()
    finally:
        sweeper.stop()


def test_the_cap_holds_oldest_and_lowest_rank_first(tmp_path):
    requests, sessions = tmp_path / "requests", tmp_path / "sessions"
    made = [_entry(requests, f"req-{n}", 100_000, age_seconds=100 - n) for n in range(10)]
    session = _entry(sessions, "session-a", 100_000, age_seconds=500)     # older than any request, ranked last
    folders = [SweptFolder(requests, 3600, rank=0), SweptFolder(sessions, 3600, rank=1)]
    sizes = sum(map(allocated_bytes, [*made, session]))
    cap = sizes // 2

    swept = sweep(folders, cap)

    left = [path for path in made if path.exists()]
    assert swept.kept_bytes <= cap * LOW_WATER, "no room left for the turns before the next sweep"
    assert sum(map(allocated_bytes, [*left, session])) == swept.kept_bytes
    assert session.exists(), "a session's avatars went before requests' files"
    assert left == made[-len(left):], "a newer request folder went before an older one"
    assert swept.evicted == len(made) - len(left) > 0


def test_empty_folders_go_after_their_grace(tmp_path):
    stale = tmp_path / "stale"
    stale.mkdir()
    changed = time.time() - EMPTY_FOLDER_GRACE_SECONDS - 5
    os.utime(stale, (changed, changed))
    just_made = tmp_path / "just-made"
    just_made.mkdir()

    sweep([SweptFolder(tmp_path, lifetime_seconds=3600, empty_folders_go=True)], cap_bytes=2**30)

    assert not stale.exists()
    assert just_made.exists()


def test_an_empty_request_folder_of_a_slow_turn_is_not_swept(tmp_path):
    """A turn's folder stays empty until its speech is written, which on a busy server takes over a minute."""
    waiting = tmp_path / "req-slow-turn"
    waiting.mkdir()
    changed = time.time() - EMPTY_FOLDER_GRACE_SECONDS - 5
    os.utime(waiting, (changed, changed))

    sweep([SweptFolder(tmp_path, lifetime_seconds=3600)], cap_bytes=2**30)

    assert waiting.exists()


def test_kept_entries_stay_whatever_their_age_and_the_cap(tmp_path):
    page_file = _entry(tmp_path, "page-portrait", 100_000, age_seconds=10_000)
    output = _entry(tmp_path, "reply-output", 100_000, age_seconds=10)

    sweep([SweptFolder(tmp_path, lifetime_seconds=60, keep=lambda: {"page-portrait"})], cap_bytes=1)

    assert page_file.exists()
    assert not output.exists()
