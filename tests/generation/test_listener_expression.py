"""Every speech and video engine renders the expression it is given (emotions.expression_for), and a bare emotion
label exactly as before (mirrored). The lite engines run for real; OpenVoice and DICE-Talk on tiny random weights."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from e3rg_core.contracts import GenerationSettings, Speech
from e3rg_core.emotions import COARSE_LABELS, expression_for
from e3rg_core.generation.dicetalk import DiceTalkVideoEngine
from e3rg_core.generation.dicetalk.tiny import TINY_SHORT_SIDE, tiny_pipeline
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.generation.lite_video import LiteTalkingPortrait
from e3rg_core.generation.openvoice import OpenVoiceSpeechEngine
from e3rg_dev.hub_rehearsal.tiny import write_tiny_openvoice
from e3rg_core.media import write_wav
from e3rg_core.memory.avatars import AvatarStore

pytestmark = pytest.mark.usefixtures("one_torch_thread")

REPLY = "That sounds frightening. You are safe now, and I am right here with you."


@pytest.fixture(scope="module")
def portrait_png(tmp_path_factory) -> Path:
    from PIL import Image
    from skimage import data
    path = tmp_path_factory.mktemp("portrait") / "astronaut.png"
    Image.fromarray(data.astronaut()).save(path)
    return path


@pytest.fixture(scope="module")
def avatar(tmp_path_factory, portrait_png):
    from hibari import Hibari
    voice = Hibari()("Hello, this is my own voice. I speak like this every single day.", seed=7)
    store = AvatarStore(data_dir=tmp_path_factory.mktemp("data"))
    return store.create("listener", portrait_png, write_wav(store.data_dir / "voice.wav", voice, 24_000))


def tone(seconds: float = 1.2, sample_rate: int = 24_000) -> Speech:
    times = np.arange(int(seconds * sample_rate)) / sample_rate
    samples = 0.3 * np.sin(2 * np.pi * 220 * times) * (1 + np.sin(2 * np.pi * 3 * times)) / 2
    return Speech(samples=samples.astype(np.float32), sample_rate=sample_rate, engine="test")


def test_lite_speech_speaks_the_listeners_voice(avatar):
    engine, settings = LiteSpeechEngine(), GenerationSettings(seed=0)

    def seconds(emotion) -> float:
        return engine.synthesize(REPLY, emotion, avatar, settings).seconds

    assert seconds(expression_for("fear", "mirror")) == seconds("fear")
    # A frightened speaker is answered slowly and softly, not in fear's hurried voice.
    assert seconds(expression_for("fear")) > seconds(expression_for("neutral")) > seconds("fear")


def test_lite_portrait_shows_the_listeners_face(portrait_png):
    from PIL import Image
    portrait = np.asarray(Image.open(portrait_png).convert("RGB"))
    engine, settings = LiteTalkingPortrait(), GenerationSettings(seed=0)

    def last_frame(emotion) -> np.ndarray:
        return list(engine.animate(portrait, tone(), emotion, settings).frames)[-1].astype(np.int16)

    frightened = last_frame("fear")
    assert np.array_equal(last_frame(expression_for("fear", "mirror")), frightened)
    calm = last_frame(expression_for("fear"))
    neutral, sad = last_frame("neutral"), last_frame("sad")
    assert not np.array_equal(calm, frightened)
    # A concerned face: between neutral and the full sad look.
    assert 0 < np.abs(calm - neutral).mean() < np.abs(sad - neutral).mean()


def test_openvoice_takes_the_expressions_style_and_intensity(tmp_path_factory, avatar, monkeypatch):
    weights = write_tiny_openvoice(tmp_path_factory.mktemp("openvoice"))
    engine = OpenVoiceSpeechEngine.from_pretrained(device="cpu", weights_dir=weights)
    asked = []
    synthesize = engine.base.synthesize

    def recording(text, style, intensity, *args, **kwargs):
        asked.append((style, intensity))
        return synthesize(text, style, intensity, *args, **kwargs)

    monkeypatch.setattr(engine.base, "synthesize", recording)
    settings = GenerationSettings(seed=0, emotion_intensity=1.0)
    for emotion in ("fear", expression_for("fear", "mirror"), expression_for("fear")):
        engine.synthesize(REPLY, emotion, avatar, settings)
    gentle = expression_for("fear")
    assert asked == [("terrified", 1.0), ("terrified", 1.0), ("whispering", gentle.intensity)]


def test_dicetalk_takes_the_expressions_emotion_prior(portrait_png):
    from PIL import Image
    rng = np.random.default_rng(0)
    engine = DiceTalkVideoEngine(tiny_pipeline(seed=0), {name: rng.standard_normal(256) for name in COARSE_LABELS},
                                 short_side=TINY_SHORT_SIDE)
    portrait = np.asarray(Image.open(portrait_png).convert("RGB"))
    settings = GenerationSettings(seed=0, video_steps=1)

    def frames(emotion) -> np.ndarray:
        return np.stack(list(engine.animate(portrait, tone(0.5), emotion, settings).frames))

    def frames_of_prior(name: str) -> np.ndarray:
        return np.stack(list(engine.animate_prior(portrait, tone(0.5), engine.priors[name], settings).frames))

    frightened = frames("fear")
    assert np.array_equal(frightened, frames_of_prior("fear"))
    assert np.array_equal(frames(expression_for("fear", "mirror")), frightened)
    calm = frames(expression_for("fear"))
    assert np.array_equal(calm, frames_of_prior(expression_for("fear").dicetalk_emotion))
    assert not np.array_equal(calm, frightened)
