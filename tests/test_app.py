"""The Space as users and API clients meet it: launched on localhost, driven by gradio_client and Chromium."""
import concurrent.futures
import json
import shutil
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest
import soundfile

from e3rg_core.emotions import FINE_LABELS
from support.api_turn import check_turn

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def client(server):
    from gradio_client import Client
    return Client(server, verbose=False)


def _check(result, heard=None) -> dict:
    """The details of a turn gradio_client fetched (its files downloaded to local paths)."""
    return check_turn(*result, heard=heard)


def test_text_example_over_the_api(client):
    history = json.dumps([{"role": "speaker", "utterance": "Guess what happened today?"},
                          {"role": "listener", "utterance": "Tell me!"}])
    text = "I finally got accepted into the nursing program!"
    details = _check(client.predict(text=text, history_json=history, api_name="/respond"), text)
    assert details["emotion"]["coarse"] == "happy"


def test_audio_example_over_the_api(client):
    from gradio_client import handle_file
    details = _check(client.predict(audio=handle_file(str(EXAMPLES / "turn_audio.wav")), avatar="ava",
                                    api_name="/respond"))
    assert "exam" in details["heard_text"].lower()


def test_video_example_over_the_api(client):
    from gradio_client import handle_file
    details = _check(client.predict(video=handle_file(str(EXAMPLES / "turn_video.mp4")), api_name="/respond"))
    assert "face" in {v["modality"] for v in details["emotion"]["votes"]}


def test_bad_input_is_a_clear_api_error(client):
    from gradio_client.exceptions import AppError
    with pytest.raises(AppError, match="Give your latest turn"):
        client.predict(api_name="/respond")
    with pytest.raises(AppError, match="history_json is not valid JSON"):
        client.predict(text="hello", history_json="{oops", api_name="/respond")
    with pytest.raises(AppError, match="limit is 2000"):
        client.predict(text="x" * 20_000, api_name="/respond")


def test_four_concurrent_requests_get_their_own_outputs(server):
    from gradio_client import Client
    texts = ["I won the lottery this morning!", "My grandmother died last week.",
             "Someone stole my bike again, I'm so angry.", "There is a strange man following me home."]

    def ask(text):
        return Client(server, verbose=False).predict(text, api_name="/respond")

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(ask, texts))
    for text, result in zip(texts, results):
        _check(result, text)
    assert len({Path(r[3]).parent for r in results}) == 4       # one folder per request
    assert len({r[1] for r in results}) == 4                     # four different replies


@pytest.mark.browser
def test_browser_upload_audio_fills_all_four_tabs(server, tmp_path):
    if not shutil.which("chromium") and not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed (scripts/install.sh --test installs it)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server, wait_until="domcontentloaded")
        page.get_by_role("button", name="Respond", exact=True).wait_for(timeout=60_000)
        page.locator("#turn-audio input[type=file]").set_input_files(str(EXAMPLES / "turn_audio.wav"))
        page.locator("#turn-audio a[download]").wait_for(timeout=30_000)
        page.get_by_role("button", name="Respond", exact=True).click()
        page.locator("#bundle a[download]").wait_for(timeout=240_000)     # the bundle comes last
        page.get_by_role("tab", name="Emotion & votes").click()
        headline = page.locator("#emotion-headline").inner_text()
        assert any(label in headline for label in FINE_LABELS)
        assert page.locator('#votes [role=gridcell][data-col="0"]').count() >= 2    # text + voice votes
        page.get_by_role("tab", name="Text").click()
        assert len(page.locator("#reply-text textarea").input_value().split()) >= 3
        page.get_by_role("tab", name="Speech").click()
        assert "reply" in page.locator("#reply-audio a[download]").get_attribute("href")
        page.get_by_role("tab", name="Video").click()
        page.locator("#reply-video video").wait_for(timeout=10_000)
        video_src = page.locator("#reply-video video").get_attribute("src")
        assert video_src and "reply" in video_src
        shot = tmp_path / "after_reply.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 20_000
        browser.close()


def test_session_avatar_upload_is_used_and_private(server, tmp_path):
    from gradio_client import Client, handle_file
    from gradio_client.exceptions import AppError
    from PIL import Image
    portrait = ROOT / "assets" / "avatars" / "ava" / "portrait.jpg"
    mirrored = tmp_path / "mirrored.png"
    Image.open(portrait).transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(mirrored)
    mine, other = Client(server, verbose=False), Client(server, verbose=False)
    choice = mine.predict("Noor", handle_file(str(mirrored)), handle_file(str(EXAMPLES / "turn_audio.wav")),
                          "young", "female", "high", api_name="/add_avatar")
    assert choice["value"] == "Noor (yours)" and ["Noor (yours)", "Noor (yours)"] in choice["choices"]
    choice = choice["value"]
    outputs = mine.predict("I passed my driving test!", None, None, choice, 0, "listener", 1.0, 1.0, 25, 3.0, 6.0, 0,
                           True, api_name="/respond_stream")
    assert outputs[4] and outputs[8]
    # another browser session cannot pick that avatar
    with pytest.raises(AppError, match="not in the list of choices"):
        other.predict("Hello there", None, None, choice, 0, "listener", 1.0, 1.0, 25, 3.0, 6.0, 0, True,
                      api_name="/respond_stream")
    wall = tmp_path / "wall.png"
    Image.new("RGB", (300, 300), (200, 180, 160)).save(wall)
    with pytest.raises(AppError, match="no face"):
        mine.predict("Wall", handle_file(str(wall)), handle_file(str(EXAMPLES / "turn_audio.wav")), "", "", "",
                     api_name="/add_avatar")


@pytest.mark.browser
def test_browser_example_click_fills_the_tabs_without_page_errors(server):
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed (scripts/install.sh --test installs it)")
    from playwright.sync_api import sync_playwright
    errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server, wait_until="domcontentloaded")
        page.get_by_role("button", name="Respond", exact=True).wait_for(timeout=60_000)
        for attempt in range(2):        # the first click computes and caches the example, the second replays it
            page.get_by_text("Text: good news").click()
            page.locator("#bundle a[download]").wait_for(timeout=240_000)
            # the stage's status tracker hides when the event finishes (a broken replay leaves it spinning)
            page.locator("#emotion-headline [data-testid=status-tracker].hide").wait_for(state="attached",
                                                                                         timeout=30_000)
            headline = page.locator("#emotion-headline").inner_text()
            fine = headline.splitlines()[0].strip()
            assert fine in FINE_LABELS
            # the vote chart follows the votes table, on the first run and on the cached replay alike
            page.locator("#votes-plot").get_by_text(fine, exact=True).wait_for(timeout=10_000)
            if attempt == 0:
                page.get_by_role("button", name="Clear").click()
                page.locator("#bundle a[download]").wait_for(state="detached", timeout=30_000)
        browser.close()
    assert not errors, errors


def test_the_bundle_carries_subtitles_and_a_self_check(client):
    import zipfile
    emotion, text, wav, mp4, bundle, details = client.predict(
        text="My sister just had her first baby, I'm an aunt now!", expression="mirror", api_name="/respond")
    with zipfile.ZipFile(bundle) as archive:
        names = set(archive.namelist())
        assert {"reply.json", "reply.wav", "reply.mp4", "reply.vtt", "reply.srt"} <= names
        record = json.loads(archive.read("reply.json"))
        vtt = archive.read("reply.vtt").decode()
    check = record["self_check"]
    assert check == json.loads(details)["self_check"] and check["chosen"] == emotion
    assert check["voice"] in FINE_LABELS and check["face"] in FINE_LABELS     # both read the generated media
    # The cues cover the reply's words and end with the speech.
    assert vtt.startswith("WEBVTT")
    cues = [block.split("\n", 1)[1] for block in vtt.strip().split("\n\n")[1:]]
    assert " ".join(" ".join(cues).split()) == " ".join(text.split())
    last_end = vtt.strip().split("\n\n")[-1].split(" --> ")[1].split("\n")[0]
    h, m, s = last_end.split(":")
    samples, rate = soundfile.read(wav)
    assert float(h) * 3600 + float(m) * 60 + float(s) == pytest.approx(len(samples) / rate, abs=0.01)


def test_bad_expression_choice_is_a_clear_api_error(client):
    from gradio_client.exceptions import AppError
    with pytest.raises(AppError, match="expression must be one of listener, mirror"):
        client.predict(text="Hello", expression="angry", api_name="/respond")


def test_the_same_turn_and_seed_give_the_same_reply(server):
    from gradio_client import Client
    args = ("I missed my bus and was late for the interview.", None, None, "ava", 0, "listener", 1.0, 1.0, 25,
            3.0, 6.0, 7, True)
    # Two sessions (a session's dialogue grows with each turn, so the second turn of one session differs).
    first, second = (Client(server, verbose=False).predict(*args, api_name="/respond_stream") for _ in range(2))
    assert first[3] and first[3] == second[3]


def test_compare_and_the_captioned_video_of_the_sessions_latest_reply(server):
    from gradio_client import Client
    from e3rg_core.generation.lite_video import LiteTalkingPortrait
    from e3rg_core.media import read_frames
    session = Client(server, verbose=False)
    session.predict("My grandmother died last week.", None, None, "ava", 0, "listener", 1.0, 1.0, 25, 3.0, 6.0, 0, True,
                    api_name="/respond_stream")
    emotional, neutral, emotional_lite, note = session.predict(api_name="/compare")
    # The lite tier rendered the reply, so the pair differs only in the emotion, and there is no tier pair.
    assert Path(neutral).read_bytes() != Path(emotional).read_bytes()
    assert note.count(LiteTalkingPortrait.name) == 1 and "differ only in the emotion" in note
    assert emotional_lite["visible"] is False and emotional_lite["value"] is None
    captioned = session.predict(api_name="/caption")
    meta = next(imageio_ffmpeg.read_frames(captioned))
    (_, reply_frames), (_, captioned_frames) = read_frames(emotional), read_frames(captioned)
    reply_frames, captioned_frames = np.stack(list(reply_frames)), np.stack(list(captioned_frames))
    assert captioned_frames.shape == reply_frames.shape and meta["audio_codec"]
    # The words are drawn at the bottom of the frames: there the captioned copy has strokes that the reply's video
    # lacks (pixels far from the original in some frame), above them only the re-encoding's small differences.
    stroke = (np.abs(captioned_frames.astype(np.float32) - reply_frames).max(axis=3) > 64).any(axis=0)
    bottom = int(0.8 * stroke.shape[0])
    print(f"\nstroke share: bottom {stroke[bottom:].mean():.4f}, above {stroke[:bottom].mean():.4f}")
    assert stroke[bottom:].mean() > 0.02 and stroke[:bottom].mean() < 0.002


def _browser(playwright):
    return playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=[
        "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"])


SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
# Counts the loads of the player's video (a player that restarts its video loads it again).
COUNT_PLAYER_LOADS = """() => { window.playerLoads = 0; document.addEventListener("loadstart", (event) => {
    if (event.target.closest && event.target.closest("#player-video")) window.playerLoads += 1; }, true); }"""
# The player's caption track, once loaded: its kind, source and cues' text.
PLAYER_CAPTIONS = """async (video) => {
    const track = video.querySelector("track");
    if (!track) return null;
    if (track.readyState !== 2) await new Promise((done) => track.addEventListener("load", done, {once: true}));
    return {kind: track.kind, src: track.src, cues: Array.from(track.track.cues, (cue) => cue.text)};
}"""


@pytest.mark.browser
def test_browser_conversation_enter_sends_self_check_and_compare(server, tmp_path):
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed (scripts/install.sh --test installs it)")
    from playwright.sync_api import sync_playwright
    SCREENSHOTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = _browser(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.goto(server, wait_until="domcontentloaded")
        page.get_by_role("button", name="Respond", exact=True).wait_for(timeout=60_000)
        # An empty turn: one clear message, and no output marked as failed.
        page.get_by_role("button", name="Respond", exact=True).click()
        page.get_by_text("Give your latest turn as text, audio or video.").first.wait_for(timeout=30_000)
        assert page.locator(".error").count() == 0
        # Enter sends; the box empties; the chat shows the turn and the reply; the video plays beside it.
        page.evaluate(COUNT_PLAYER_LOADS)
        box = page.locator("#turn-text textarea")
        box.fill("My best friend forgot my birthday again this year.")
        box.press("Enter")
        page.locator("#self-check").get_by_text("voice reads").wait_for(timeout=240_000)
        assert box.input_value() == ""
        page.get_by_role("tab", name="Text").click()
        reply = page.locator("#reply-text textarea").input_value()
        chat = " ".join(page.locator("#chat").inner_text().split())
        assert "forgot my birthday" in chat and " ".join(reply.split()) in chat
        player = page.locator("#player-video video")
        assert player.get_attribute("src")
        # The captions reach the player: a caption track of the reply's WebVTT, whose cues carry the reply's words.
        captions = player.evaluate(PLAYER_CAPTIONS)
        assert captions["kind"] == "captions" and captions["src"].endswith(".vtt")
        assert " ".join(" ".join(captions["cues"]).split()) == " ".join(reply.split())
        # The updates after the video (the self-check's) leave the playing video alone.
        page.wait_for_timeout(1000)
        assert page.evaluate("window.playerLoads") == 1
        line = page.locator("#self-check").inner_text()
        assert "chosen:" in line and "face reads:" in line
        page.locator("#self-check").screenshot(path=str(SCREENSHOTS / "self_check.png"))
        page.get_by_role("tab", name="Emotion & votes").click()
        page.screenshot(path=str(SCREENSHOTS / "chat_view.png"), full_page=True)
        # The votes tab: weights and top-3 per voter; the chart's axis is the vote weight.
        headers = page.locator("#votes thead").inner_text().lower()
        assert "weight" in headers and "top 3" in headers
        assert "weight" in page.locator("#votes-plot").inner_text().lower()
        # Compare: the same reply neutral beside the emotional one, on the same (lite) engines; no tier pair here.
        page.get_by_text("Compare: the same reply without emotion").click()
        page.locator("#compare-button").click()
        page.locator("#compare-neutral video").wait_for(timeout=120_000)
        assert page.locator("#compare-emotional video").get_attribute("src")
        note = page.locator("#compare-note").inner_text()
        assert "neutral" in note and "differ only in the emotion" in note
        assert page.locator("#compare-emotional-lite video").count() == 0
        page.locator("#compare-neutral").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "compare_view.png"), full_page=True)
        browser.close()


# Turns the lite vote reads as three different coarse classes (checked on the lite runner), in one conversation.
THREE_EMOTIONS = {"happy": "I finally got accepted into the nursing program!",
                  "sad": "My grandmother died last week.",
                  "angry": "Someone stole my bike again, I'm so angry."}
PAUSE_FRACTIONS = (0.2, 0.35, 0.5, 0.65, 0.8)
# Pauses the player at a fraction of its video, captions off (their words would differ whatever the face does).
PAUSE_AT = """async (video, fraction) => {
    video.pause();
    for (const track of video.textTracks) track.mode = "disabled";
    if (video.readyState < 2) await new Promise((done) => video.addEventListener("loadeddata", done, {once: true}));
    const seeked = new Promise((done) => video.addEventListener("seeked", done, {once: true}));
    video.currentTime = video.duration * fraction;
    await seeked;
}"""


@pytest.mark.browser
def test_browser_avatar_in_three_emotions(server):
    """The avatar mirroring three emotions, as the page's player shows it: the three looks differ more than a
    moment of one reply differs from its own look, and the page names each emotion."""
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed (scripts/install.sh --test installs it)")
    import io
    from PIL import Image
    from playwright.sync_api import sync_playwright
    SCREENSHOTS.mkdir(exist_ok=True)
    stills = {}
    with sync_playwright() as p:
        browser = _browser(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.goto(server, wait_until="domcontentloaded")
        page.get_by_role("button", name="Respond", exact=True).wait_for(timeout=60_000)
        page.get_by_role("radio", name="mirror").check()
        box = page.locator("#turn-text textarea")
        for coarse, text in THREE_EMOTIONS.items():
            box.fill(text)
            box.press("Enter")
            page.locator("#self-check").get_by_text(f"expressed as: {coarse}").wait_for(timeout=120_000)
            assert f"coarse class: {coarse}" in page.locator("#emotion-headline").inner_text()
            player = page.locator("#player-video video")
            for fraction in PAUSE_FRACTIONS:
                player.evaluate(PAUSE_AT, fraction)
                stills[coarse, fraction] = np.asarray(Image.open(io.BytesIO(player.screenshot())).convert("RGB"),
                                                      np.float32)
        browser.close()
    # Each emotion's look: the per-pixel median of its moments, which a blink or a syllable's mouth does not move.
    looks = {coarse: np.median([stills[coarse, fraction] for fraction in PAUSE_FRACTIONS], axis=0)
             for coarse in THREE_EMOTIONS}
    Image.fromarray(np.concatenate([stills[coarse, 0.5] for coarse in THREE_EMOTIONS], axis=1).astype(np.uint8)).save(
        SCREENSHOTS / "browser_avatar_three_emotions.png")
    within = float(np.median([np.abs(stills[coarse, fraction] - looks[coarse]).mean()
                              for coarse in THREE_EMOTIONS for fraction in PAUSE_FRACTIONS]))
    between = [float(np.abs(looks[a] - looks[b]).mean()) for a, b in (("happy", "sad"), ("happy", "angry"),
                                                                      ("sad", "angry"))]
    print(f"\na moment from its look {within:.2f}; between the looks {', '.join(f'{d:.2f}' for d in between)}")
    assert min(between) > 1.5 * within
