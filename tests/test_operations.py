"""The server as a Space runs it for weeks (`python app.py`, lite tier, offline): the sweeper clears old files
without waiting for a request, and a busy Space turns visitors (gradio's full queue) and API clients (the API's
turn gate) away with a clear message, and lets them in again once the load has passed."""
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from e3rg_core import settings

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
QUEUE_SIZE = 1
GRADIO_CACHE = "gradio"     # gradio's cache in the temporary folder, where GRADIO_TEMP_DIR does not move it
# More turns than CONCURRENT_TURNS can serve and QUEUE_SIZE can hold: the rest find the Space busy.
FLOOD = settings.CONCURRENT_TURNS + QUEUE_SIZE + 3
PAGE_BUSY = "This application is currently busy"    # gradio's page, for a full queue
# gradio_client's QueueError for a full queue (it joins gradio's queue even for /respond), and /respond's own error
# where a caller skips the queue (MCP, the JavaScript client: admission.TurnGate)
API_BUSY = ("QueueError: Queue is full! Please try again.", "The Space is busy")


def _age(path: Path, seconds: float) -> None:
    changed = time.time() - seconds
    os.utime(path, (changed, changed))


@pytest.fixture(scope="module")
def space(tmp_path_factory):
    """app.py in a subprocess with a small queue and a private temporary folder, with files left behind by an
    earlier run planted in it (old ones, and one still within its lifetime)."""
    from e3rg_dev.hub_rehearsal.app_run import RunningApp
    from e3rg_core.request_files import REQUEST_ROOT_NAME, SESSION_ROOT_NAME
    temp = tmp_path_factory.mktemp("space-tmp")
    planted = {}
    for name, root, lifetime in ((REQUEST_ROOT_NAME, "req-", settings.REQUEST_FILES_TTL_SECONDS),
                                 (SESSION_ROOT_NAME, "session-", settings.SESSION_FILES_TTL_SECONDS),
                                 (GRADIO_CACHE, "", settings.GRADIO_CACHE_TTL_SECONDS)):
        for when, age in (("old", lifetime + 60), ("recent", 10)):
            folder = temp / name / f"{root}{when}"
            folder.mkdir(parents=True)
            (folder / "reply.wav").write_bytes(b"\0" * 4096)
            _age(folder, age)
            planted[name, when] = folder
    environment = {**os.environ, settings.TIER_VARIABLE: "lite", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                   "GRADIO_ANALYTICS_ENABLED": "False", "TMPDIR": str(temp),
                   settings.QUEUE_SIZE_VARIABLE: str(QUEUE_SIZE)}
    environment.pop("GRADIO_TEMP_DIR", None)
    with RunningApp.start(environment, tmp_path_factory.mktemp("log") / "app.log") as app:
        yield app, planted


def test_old_files_are_swept_at_start_without_any_request(space):
    app, planted = space
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(folder.exists() for (_, when), folder in planted.items()
                                              if when == "old"):
        time.sleep(0.5)
    for (root, when), folder in planted.items():
        assert folder.exists() == (when == "recent"), f"{root}: the {when} folder was " + (
            "kept" if when == "old" else "swept")


def _video_turn(url: str) -> str:
    """One slow turn (a video) through /respond: '' when answered, else the error's text."""
    from gradio_client import Client, handle_file
    client = Client(url, verbose=False, analytics_enabled=False)
    try:
        client.predict("", None, handle_file(str(EXAMPLES / "turn_video.mp4")), "[]", "", "listener",
                       api_name="/respond")
        return ""
    except Exception as error:     # what a caller sees is the point of the test
        return f"{type(error).__name__}: {error}"
    finally:
        client.close()


def test_a_busy_space_is_a_clear_api_error_and_the_server_recovers(space):
    app, _ = space
    with ThreadPoolExecutor(FLOOD) as pool:
        outcomes = list(pool.map(_video_turn, [app.url] * FLOOD))
    refused = [outcome for outcome in outcomes if outcome]
    assert refused, "no caller found the Space busy"
    assert all(any(busy in outcome for busy in API_BUSY) for outcome in refused), refused
    assert len(refused) < FLOOD, "nobody was served"
    # the load has passed: a caller is served again, without a restart
    assert _video_turn(app.url) == ""


def _outcomes(pages, timeout_s: float) -> tuple[list, list]:
    """(turned away, served): each page once it shows gradio's busy notice (a toast that goes after a while, so it is
    looked for while it shows) or its reply's bundle, until every page shows one or the other."""
    turned_away, served, deadline = [], [], time.monotonic() + timeout_s
    while len(turned_away) + len(served) < len(pages) and time.monotonic() < deadline:
        for page in pages:
            if page in turned_away or page in served:
                continue
            if page.get_by_text(PAGE_BUSY).count():
                turned_away.append(page)
            elif page.locator("#bundle a[download]").count():
                served.append(page)
        time.sleep(0.25)
    return turned_away, served


@pytest.mark.browser
def test_a_visitor_sees_the_busy_message_and_gets_in_once_the_load_passes(space):
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed (scripts/install.sh --test installs it)")
    from playwright.sync_api import sync_playwright
    from e3rg_dev.hub_rehearsal.app_run import log_tail
    app, _ = space
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        pages = []
        for n in range(FLOOD):
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.goto(app.url, wait_until="domcontentloaded")
            page.get_by_role("button", name="Respond", exact=True).wait_for(timeout=60_000)
            page.locator("#turn-text textarea").fill(f"My brother called me back after {n + 2} years of silence.")
            page.locator("#turn-video input[type=file]").set_input_files(str(EXAMPLES / "turn_video.mp4"))
            page.locator("#turn-video video").wait_for(timeout=60_000)
            pages.append(page)
        # Every visitor clicks at the same moment (one browser, one clock), so the Space cannot serve the first before
        # the last arrive, however fast or slow the machine: it fills and the rest find it busy. Clicks a second
        # apart let a fast turn end first, and one CI run turned nobody away.
        at = pages[0].evaluate("Date.now()") + 3_000 + 500 * FLOOD
        for page in pages:
            page.get_by_role("button", name="Respond", exact=True).element_handle().evaluate(
                "(button, at) => setTimeout(() => button.click(), at - Date.now())", at)
        turned_away, served = _outcomes(pages, timeout_s=300)
        assert turned_away, "no visitor was told the Space is busy\n" + log_tail(app.log)
        assert served, "nobody was served\n" + log_tail(app.log)
        assert len(turned_away) + len(served) == FLOOD, "a visitor was neither served nor told the Space is busy"
        assert not any(page.get_by_text(PAGE_BUSY).count() for page in served), \
            "a visitor being served was told the Space is busy"
        # the load has passed: a visitor turned away is answered on the same page
        again = turned_away[0]
        again.get_by_role("button", name="Respond", exact=True).click()
        again.locator("#bundle a[download]").wait_for(timeout=240_000)
        browser.close()
