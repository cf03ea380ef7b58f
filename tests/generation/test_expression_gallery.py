"""The same reply rendered sad, happy, angry and afraid, side by side for each built-in avatar, as a browser shows
the lite engines' real videos (hibari-tts, the portrait rig, ffmpeg through imageio-ffmpeg, Chromium). The pictures
are saved in docs/lite_expression/ for a reader to judge; the test checks that the four renderings of each face
differ where the face is, and that each one plays in the browser."""
from __future__ import annotations

import html
from pathlib import Path

import numpy as np
import pytest

from e3rg_core.contracts import GenerationSettings
from e3rg_core.emotions import expression_for
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.generation.lite_video import LiteTalkingPortrait
from e3rg_core.media import render_video
from e3rg_core.memory.avatars import AvatarStore

REPLY = "Oh no. I really did not expect that, and I am here with you."
EMOTIONS = ("sad", "happy", "angry", "fear")
GALLERY = Path(__file__).resolve().parents[2] / "docs" / "lite_expression"
SEEK_SECONDS = 2.0      # a moment well after the look has set in (0.6 s), mid-reply
TILE = 240
SEEKED = """async (videos) => Promise.all(videos.map((video) => new Promise((done) => {
    const ready = () => { video.pause(); video.currentTime = %s; video.addEventListener("seeked", () => done(
        [video.videoWidth, video.duration]), {once: true}); };
    if (video.readyState >= 2) ready(); else video.addEventListener("loadeddata", ready, {once: true});
})))""" % SEEK_SECONDS


@pytest.mark.browser
@pytest.mark.parametrize("name", AvatarStore().names())
def test_same_reply_rendered_in_four_emotions_side_by_side(name, tmp_path):
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed (scripts/install.sh --test installs it)")
    from PIL import Image
    from playwright.sync_api import sync_playwright
    avatar = AvatarStore().get(name)
    speech_engine, video_engine = LiteSpeechEngine(), LiteTalkingPortrait()
    portrait = avatar.portrait()
    tiles = []
    for emotion in EMOTIONS:
        expression = expression_for(emotion, "mirror")
        speech = speech_engine.synthesize(REPLY, expression, avatar, GenerationSettings(seed=0))
        video = render_video(video_engine, portrait, speech, expression, GenerationSettings(seed=0),
                             tmp_path / f"{emotion}.mp4")
        tiles.append((emotion, video.path))
    cells = "".join(f'<figure><video muted preload="auto" src="{html.escape(path.as_uri())}"></video>'
                    f"<figcaption>{emotion}</figcaption></figure>" for emotion, path in tiles)
    page_file = tmp_path / "gallery.html"
    page_file.write_text(
        "<!doctype html><style>body{margin:0;display:flex;background:#fff;font:16px sans-serif}"
        f"figure{{margin:4px;text-align:center}}video{{width:{TILE}px;height:{TILE}px;display:block}}</style>"
        f"<body>{cells}</body>", encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--allow-file-access-from-files"])
        page = browser.new_page(viewport={"width": 4 * (TILE + 8), "height": TILE + 40})
        page.goto(page_file.as_uri(), wait_until="load")
        played = page.locator("video").evaluate_all(SEEKED)
        GALLERY.mkdir(parents=True, exist_ok=True)
        shot = GALLERY / f"{name}.png"
        page.screenshot(path=str(shot))
        boxes = [page.locator("video").nth(i).bounding_box() for i in range(len(EMOTIONS))]
        browser.close()
    print(f"\n{name}: videos {played}, saved {shot}")
    assert all(width > 0 and duration > SEEK_SECONDS for width, duration in played)
    picture = np.asarray(Image.open(shot).convert("L"), np.float32)
    crops = [picture[int(b["y"]):int(b["y"] + b["height"]), int(b["x"]):int(b["x"] + b["width"])] for b in boxes]
    assert all(crop.std() > 20 for crop in crops)       # a picture in every tile, not a blank player
    # The face is in the middle of each tile; the four looks must differ there.
    middle = np.s_[TILE // 4:3 * TILE // 4, TILE // 4:3 * TILE // 4]
    differences = [float(np.abs(crops[i][middle] - crops[j][middle]).mean())
                   for i in range(len(crops)) for j in range(i + 1, len(crops))]
    print(f"{name}: mean differences between looks {np.round(differences, 1)}")
    assert min(differences) > 2.0
