"""The app as a Space runs it, in a subprocess: `python app.py` from the repository root (for the rehearsal, the full
tier placed on the CPU, its models read from the rehearsal's hub cache offline); one turn sent through
gradio_client's /respond.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from . import rehearsal_environment

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = REPO_ROOT / "examples"
# One turn with all three inputs: a project-written sentence, the example voice clip and a short cut of the example
# video clip.
TURN_TEXT = "I finally passed my driving test after failing it twice, and I still can't believe it!"
TURN_AUDIO = EXAMPLES / "turn_audio.wav"
EXAMPLE_VIDEO = EXAMPLES / "turn_video.mp4"
# Ola's OryxViT runs at its official size here, on one CPU thread: seconds per frame, so the turn's clip is a few
# small frames rather than the 48 that the whole example clip gives.
TURN_VIDEO_FRAMES = 2
TURN_VIDEO_SIDE = 256
BOOT_TIMEOUT_SECONDS = 900      # imports, the lite engines and every full engine, on a slow 2-core runner
TURN_TIMEOUT_SECONDS = 900
STOP_TIMEOUT_SECONDS = 30
LOG_TAIL_CHARS = 6_000


class RehearsalError(RuntimeError):
    """The app did not start, or did not answer the turn; log is the end of the app's output."""

    def __init__(self, message: str, log: str):
        super().__init__(message)
        self.log = log


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def app_environment(root: Path) -> dict[str, str]:
    """The rehearsal app's environment: the rehearsal's hub cache and data folder, the full tier on the CPU."""
    from e3rg_core import settings
    # a real Space's variables would change what the app does at start (ZeroGPU's emulation, Space set-up)
    environment = {key: value for key, value in os.environ.items()
                   if key not in (settings.ZERO_GPU_VARIABLE, settings.SPACE_VARIABLE)}
    return {**environment, **rehearsal_environment(root), settings.TIER_VARIABLE: "full",
            settings.FULL_DEVICE_VARIABLE: "cpu", "GRADIO_ANALYTICS_ENABLED": "False"}


def log_tail(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
    return text[-LOG_TAIL_CHARS:]


@dataclass
class RunningApp:
    """app.py in a subprocess with a given environment, listening on a free localhost port, its output in log:
    start() returns once it serves, stop() ends it."""
    process: subprocess.Popen
    url: str
    log: Path
    boot_seconds: float = 0.0

    @classmethod
    def start(cls, environment: dict[str, str], log: Path) -> RunningApp:
        from e3rg_core.settings import SERVER_NAME_VARIABLE, SERVER_PORT_VARIABLE
        port = free_port()
        environment = {**environment, SERVER_NAME_VARIABLE: "127.0.0.1", SERVER_PORT_VARIABLE: str(port)}
        started = time.perf_counter()
        with open(log, "wb") as output:
            process = subprocess.Popen([sys.executable, "app.py"], cwd=REPO_ROOT, env=environment,
                                       stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        app = cls(process, f"http://127.0.0.1:{port}/", log)
        try:
            app._wait_until_serving(started)
        except BaseException:
            app.stop()
            raise
        return app

    def _wait_until_serving(self, started: float) -> None:
        while time.perf_counter() - started < BOOT_TIMEOUT_SECONDS:
            if self.process.poll() is not None:
                raise RehearsalError(f"app.py exited with status {self.process.returncode} before serving",
                                     log_tail(self.log))
            try:
                with urllib.request.urlopen(self.url + "config", timeout=5) as answer:
                    if answer.status == 200:
                        self.boot_seconds = time.perf_counter() - started
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(1)
        raise RehearsalError(f"app.py did not serve within {BOOT_TIMEOUT_SECONDS} s", log_tail(self.log))

    def page_text(self) -> str:
        """The page's Markdown as a visitor's browser receives it (the engines line, with any missing engine)."""
        with urllib.request.urlopen(self.url + "config", timeout=30) as answer:
            config = json.load(answer)
        return "\n".join(str(component.get("props", {}).get("value") or "") for component in config["components"]
                         if component.get("type") == "markdown")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> RunningApp:
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()


@dataclass(frozen=True)
class TurnResult:
    """What /respond returned for the turn (its details as emotion_json), the seconds the client waited for it, and
    the page's text."""
    emotion_json: dict
    text: str
    wav: Path
    mp4: Path
    bundle: Path
    seconds: float
    page: str = ""

    def voters(self) -> list[str]:
        return [vote["voter"] for vote in self.emotion_json["emotion"]["votes"]]

    def speech_seconds(self) -> float:
        import soundfile
        return round(soundfile.info(str(self.wav)).duration, 2) if self.wav.is_file() else 0.0


def write_turn_video(path: Path) -> Path:
    """TURN_VIDEO_FRAMES frames spread over the example clip, scaled to TURN_VIDEO_SIDE px, as a silent clip of
    two frames a second."""
    import numpy as np
    from PIL import Image
    from e3rg_core.media import load_video, write_mp4
    clip, _ = load_video(EXAMPLE_VIDEO, frame_count=TURN_VIDEO_FRAMES)
    side = (TURN_VIDEO_SIDE, TURN_VIDEO_SIDE)
    frames = [np.asarray(Image.fromarray(frame).resize(side, Image.Resampling.BICUBIC)) for frame in clip.frames]
    return write_mp4(frames, 2.0, None, path)


def send_turn(app: RunningApp, downloads: Path, video: Path) -> TurnResult:
    """The rehearsal's one turn (text, voice clip, video clip) through gradio_client's /respond, as an API caller
    sends it."""
    from gradio_client import Client, handle_file
    client = Client(app.url, verbose=False, download_files=str(downloads), analytics_enabled=False)
    started = time.perf_counter()
    try:
        job = client.submit(text=TURN_TEXT, audio=handle_file(str(TURN_AUDIO)), video=handle_file(str(video)),
                            api_name="/respond")
        _, text, wav, mp4, bundle, details = job.result(timeout=TURN_TIMEOUT_SECONDS)
    except Exception as error:      # whatever the client raised, the app's log says why
        raise RehearsalError(f"/respond failed ({type(error).__name__}: {error})", log_tail(app.log)) from error
    finally:
        client.close()
    if isinstance(mp4, dict):       # a Video output may come back as {"video": path, "subtitles": ...}
        mp4 = mp4["video"]
    seconds = time.perf_counter() - started
    return TurnResult(json.loads(details), text, Path(wav), Path(mp4), Path(bundle), seconds, app.page_text())
