"""Checking what the app's `respond` API returned for a turn, whichever client fetched it."""
import json
import urllib.request
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest
import soundfile

from e3rg_core.emotions import COARSE_LABELS, FINE_LABELS

OUTPUTS = ("emotion", "reply", "speech", "video", "bundle", "details")


def download(url: str, folder: Path) -> Path:
    """A file the app serves, saved under folder."""
    path = folder / url.rsplit("/", 1)[-1]
    with urllib.request.urlopen(url, timeout=60) as response:
        path.write_bytes(response.read())
    return path


def check_turn(emotion: str, reply: str, wav: Path, mp4: Path, bundle: Path, details: str,
               heard: str | None = None) -> dict:
    """The outputs of one turn (files as local paths) are what the API documents; returns the details."""
    record = json.loads(details)
    assert emotion in FINE_LABELS and emotion == record["emotion"]["fine"]
    assert record["emotion"]["coarse"] in COARSE_LABELS and record["emotion"]["votes"] and record["engines"]["video"]
    assert len(reply.split()) >= 3
    samples, rate = soundfile.read(wav)
    assert 1.0 < len(samples) / rate < 30
    reader = imageio_ffmpeg.read_frames(str(mp4))
    meta = next(reader)
    frames = [np.frombuffer(frame, np.uint8) for frame in reader]
    assert len(frames) == pytest.approx(len(samples) / rate * 25, abs=2) and meta["audio_codec"]
    assert Path(bundle).suffix == ".zip" and Path(bundle).stat().st_size > 1000
    if heard is not None:
        assert record["heard_text"] == heard
    return record
