"""What the server keeps per visitor and per file it served is forgotten once idle or gone: a real gradio server
and real gradio_client callers."""
from __future__ import annotations

import datetime
from pathlib import Path

import gradio as gr
import pytest
from gradio_client import Client

from e3rg_core import request_files, sessions, settings


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    deleted = []
    folder = tmp_path_factory.mktemp("served")

    def count(total):
        return total + 1, str(total + 1)

    def echo(text):
        path = folder / f"{text}.txt"
        path.write_text(text)
        return str(path)

    with gr.Blocks() as demo:
        total = gr.State(0, delete_callback=deleted.append)
        text, shown, served = gr.Textbox(), gr.Textbox(), gr.File()
        gr.Button().click(count, total, [total, shown], api_name="count")
        gr.Button().click(echo, text, served, api_name="echo")
    demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", quiet=True)
    try:
        yield demo, deleted
    finally:
        demo.close()


def test_idle_sessions_are_forgotten_stateless_first(server):
    demo, deleted = server
    api_caller, page_like = Client(demo.local_url, verbose=False), Client(demo.local_url, verbose=False)
    api_caller.predict("hello", api_name="/echo")
    assert page_like.predict(api_name="/count") == "1"
    holder = demo.state_holder
    assert {api_caller.session_hash, page_like.session_hash} <= set(holder.session_data)
    now = datetime.datetime.now()

    assert sessions.forget_idle_sessions(demo, now) == 0
    later = now + datetime.timedelta(seconds=settings.STATELESS_SESSION_IDLE_SECONDS + 1)
    assert sessions.forget_idle_sessions(demo, later) >= 1
    assert api_caller.session_hash not in holder.session_data
    assert page_like.session_hash in holder.session_data, "a session with state is kept longer"
    assert deleted == []

    much_later = now + datetime.timedelta(seconds=settings.SESSION_IDLE_SECONDS + 1)
    sessions.forget_idle_sessions(demo, much_later)
    assert page_like.session_hash not in holder.session_data
    assert page_like.session_hash not in holder.time_last_used
    assert deleted == [1], "its state's delete callback ran (a session's avatar folder goes with it)"

    assert page_like.predict(api_name="/count") == "1", "a forgotten session that comes back starts afresh"


def test_files_deleted_by_the_sweeper_leave_gradios_lists(server):
    demo, _ = server
    served = Path(Client(demo.local_url, verbose=False).predict("listed", api_name="/echo"))
    listed = [path for files in demo.temp_file_sets for path in files if Path(path).name == "listed.txt"]
    assert listed, "gradio lists the copy it serves"

    assert request_files.forget_deleted_cache_files(demo) == 0
    for path in listed:
        Path(path).unlink()
    assert request_files.forget_deleted_cache_files(demo) == len(listed)
    assert not any(Path(path).name == "listed.txt" for files in demo.temp_file_sets for path in files)
    assert served.name == "listed.txt"
