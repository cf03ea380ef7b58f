"""Who deletes the files a turn leaves: a request's arrival sweeps expired request folders; the sweeper never deletes
the files in gradio's cache that the page itself shows."""
import os
import shutil
import time

from e3rg_core import request_files, settings
from e3rg_core.sweeper import sweep


def test_a_request_arriving_sweeps_expired_request_folders():
    request_files.REQUEST_ROOT.mkdir(parents=True, exist_ok=True)
    expired = request_files.REQUEST_ROOT / f"req-test-expired-{os.getpid()}"
    expired.mkdir()
    changed = time.time() - settings.REQUEST_FILES_TTL_SECONDS - 60
    os.utime(expired, (changed, changed))

    fresh = request_files.new_request_dir()
    try:
        assert not expired.exists()
        assert fresh.is_dir() and fresh.parent == request_files.REQUEST_ROOT
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.rmtree(expired, ignore_errors=True)


def test_session_folders_live_under_their_own_swept_root():
    folder = request_files.new_session_dir()
    try:
        assert folder.parent == request_files.SESSION_ROOT
        assert any(swept.root == request_files.SESSION_ROOT and swept.rank > 0
                   for swept in request_files.swept_folders())
    finally:
        request_files.forget_session_dir(str(folder))
    assert not folder.exists()


def test_the_pages_own_files_in_gradios_cache_are_never_swept(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    page_file, output = tmp_path / "page-hash" / "portrait.png", tmp_path / "output-hash" / "reply.mp4"
    for path in (page_file, output):
        path.parent.mkdir()
        path.write_bytes(b"\0" * 8192)
        old = time.time() - settings.GRADIO_CACHE_TTL_SECONDS - 60
        os.utime(path.parent, (old, old))
    cache = [folder for folder in request_files.swept_folders(lambda: {str(page_file)}) if folder.root == tmp_path]

    sweep(cache, cap_bytes=1)

    assert page_file.exists()
    assert not output.exists()


def test_a_reply_whose_files_were_swept_is_a_clear_message_not_an_error(tmp_path):
    import gradio as gr
    import pytest

    from e3rg_core import views
    from e3rg_core.runner import Reply
    workdir = tmp_path / "req-swept"
    workdir.mkdir()
    paths = [workdir / name for name in ("reply.wav", "reply.mp4", "reply.vtt", "reply.srt")]
    for path in paths:
        path.write_bytes(b"\0")
    last_turn = views.LastTurn(Reply(text="That sounds hard.", wav_path=paths[0], mp4_path=paths[1],
                                     subtitles=tuple(paths[2:])), "ava", views.DEFAULT_SETTINGS)
    assert not views.files_expired(last_turn)
    shutil.rmtree(workdir)      # what the sweeper does once REQUEST_FILES_TTL_SECONDS have passed

    assert views.files_expired(last_turn)
    with pytest.warns(UserWarning, match="deleted"):
        assert views.caption(last_turn) == gr.skip()
    with pytest.warns(UserWarning, match="deleted"):
        assert all(value == gr.skip() for value in views.compare(last_turn))
