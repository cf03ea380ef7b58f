"""The OpenVoice speech engine end to end, from tiny random weights saved in the official hub file layout.

The weights are meaningless, so these tests check what holds for any weights: the strict loading path, the
file layout, styles and intensity, determinism, caching of the avatar's voice, length caps and clear errors.
"""
import json

import numpy as np
import pytest
import torch

from e3rg_core.contracts import GenerationSettings
from e3rg_core.errors import CheckpointMismatchError, EngineUnavailableError, InputError
from e3rg_core.generation.openvoice import (BaseSpeakerTTS, OpenVoiceSpeechEngine, preload_from_hub,
                                            required_hub_files)
from e3rg_core.generation.openvoice import voice as voice_memory
from e3rg_core.generation.openvoice.checkpoints import CONVERTER_FILES, EN_BASE_SPEAKER_FILES
from e3rg_core.generation.openvoice.config import BaseSpeakerConfig, ConverterConfig
from e3rg_core.generation.openvoice.converter import ToneColorConverterNet
from e3rg_core.generation.openvoice.synthesizer import BaseSpeakerNet
from e3rg_core.generation.openvoice.text import SYMBOLS
from e3rg_core.settings import MIN_REFERENCE_SPEECH_SECONDS
from e3rg_core.media import write_wav
from e3rg_core.memory.avatars import AvatarStore

pytestmark = pytest.mark.usefixtures("one_torch_thread")

RATE = 22_050
TEXT = "I am so sorry to hear that. Tell me what happened, I am listening."
DECODER = {"resblock": "1", "resblock_kernel_sizes": [3, 7, 11], "resblock_dilation_sizes": [[1, 3, 5]] * 3,
           "upsample_rates": [4, 2, 2, 2], "upsample_initial_channel": 16, "upsample_kernel_sizes": [8, 4, 4, 4],
           "gin_channels": 16}
SPECTROGRAM = {"sampling_rate": RATE, "filter_length": 128, "hop_length": 32, "win_length": 128}
# Speaker ids of the styles in the official EN config (row 0 is a speaker the demos never use).
SPEAKERS = {"default": 1, "whispering": 2, "shouting": 3, "excited": 4, "cheerful": 5, "terrified": 6,
            "angry": 7, "sad": 8, "friendly": 9}
BASE_CONFIG = {
    "data": {"text_cleaners": ["cjke_cleaners2"], "add_blank": True, "n_speakers": 10, **SPECTROGRAM},
    "model": {"inter_channels": 8, "hidden_channels": 16, "filter_channels": 32, "n_heads": 2, "n_layers": 2,
              "kernel_size": 3, "p_dropout": 0.1, **DECODER},
    "symbols": list(SYMBOLS), "speakers": SPEAKERS,
}
CONVERTER_CONFIGS = {
    "v1": {"data": {"n_speakers": 0, **SPECTROGRAM},
           "model": {"inter_channels": 8, "hidden_channels": 8, "filter_channels": 16, **DECODER}},
    "v2": {"_version_": "v2", "data": {"n_speakers": 0, **SPECTROGRAM},
           "model": {"zero_g": True, "inter_channels": 8, "hidden_channels": 8, "filter_channels": 16, **DECODER}},
}



def _save(weights_dir, file, payload):
    path = weights_dir / file.repo_id / file.filename
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".json":
        path.write_text(json.dumps(payload), encoding="utf-8")
    else:
        torch.save(payload, path)
    return path


@pytest.fixture(scope="module")
def weights_dir(tmp_path_factory):
    """Random tiny weights as the official repositories lay them out (checkpoint.pth = {'model': ...})."""
    root = tmp_path_factory.mktemp("hub")
    torch.manual_seed(0)
    base = BaseSpeakerNet(BaseSpeakerConfig.from_dict(BASE_CONFIG))
    with torch.no_grad():
        base.dp.proj.bias.fill_(1.5)    # a few frames per symbol, so that speed visibly changes durations
    files = EN_BASE_SPEAKER_FILES
    _save(root, files.config, BASE_CONFIG)
    _save(root, files.checkpoint, {"model": base.state_dict(), "iteration": 1})
    _save(root, files.default_se, torch.randn(1, 16, 1))
    _save(root, files.style_se, torch.randn(1, 16, 1))
    for version, config in CONVERTER_CONFIGS.items():
        converter = ToneColorConverterNet(ConverterConfig.from_dict(config))
        _save(root, CONVERTER_FILES[version].config, config)
        _save(root, CONVERTER_FILES[version].checkpoint, {"model": converter.state_dict(), "iteration": 1})
    return root


@pytest.fixture(scope="module")
def engine(weights_dir):
    return OpenVoiceSpeechEngine.from_pretrained(device="cpu", converter_version="v1", weights_dir=weights_dir)


def _voice(seconds_of_speech, seconds_of_silence=0.0, f0=140.0):
    """Voiced syllables: a gliding harmonic tone with a 4 Hz syllable envelope, then optional silence."""
    t = np.arange(int(seconds_of_speech * RATE)) / RATE
    pitch = f0 * (1 + 0.15 * np.sin(2 * np.pi * 0.7 * t))
    phase = 2 * np.pi * np.cumsum(pitch) / RATE
    tone = sum(np.sin(k * phase) / k for k in range(1, 6))
    envelope = 0.2 + 0.8 * np.abs(np.sin(2 * np.pi * 2 * t))
    speech = 0.25 * tone * envelope
    return np.concatenate([speech, np.zeros(int(seconds_of_silence * RATE))]).astype(np.float32)


@pytest.fixture(scope="module")
def portrait(tmp_path_factory):
    from PIL import Image
    from skimage import data
    path = tmp_path_factory.mktemp("portrait") / "face.png"
    Image.fromarray(data.astronaut()).save(path)
    return path


def _avatar(tmp_path, portrait, samples, name="tester"):
    wav = write_wav(tmp_path / f"{name}.wav", samples, RATE)
    return AvatarStore(data_dir=tmp_path / "data").create(name, portrait, wav)


def test_engine_speaks_in_the_avatar_voice_through_the_strict_load_path(engine, tmp_path, portrait):
    avatar = _avatar(tmp_path, portrait, _voice(5.0))
    speech = engine.synthesize(TEXT, "sad", avatar, GenerationSettings(seed=3))
    assert speech.sample_rate == RATE and speech.samples.dtype == np.float32 and speech.samples.ndim == 1
    assert speech.seconds > 0.3 and np.isfinite(speech.samples).all() and np.abs(speech.samples).max() <= 1.0
    assert speech.engine == engine.name and "v1" in engine.name
    # Loading folded every weight-normalised layer into a plain weight.
    assert not any(key.endswith("weight_g") for key in engine.converter.net.state_dict())
    assert not any(key.endswith("weight_g") for key in engine.base.net.state_dict())


def test_settings_are_listed_and_honoured(engine, tmp_path, portrait):
    assert engine.supported_settings == {"emotion_intensity", "speech_speed", "seed"}
    avatar = _avatar(tmp_path, portrait, _voice(5.0))

    def say(emotion="angry", **settings):
        return engine.synthesize(TEXT, emotion, avatar, GenerationSettings(**{"seed": 11, **settings})).samples

    assert np.array_equal(say(), say())
    assert not np.array_equal(say(), say(seed=12))
    assert len(say(speech_speed=2.0)) < 0.75 * len(say(speech_speed=1.0))
    # At zero intensity every style is the default voice; at full intensity styles differ.
    assert np.array_equal(say("angry", emotion_intensity=0.0), say("sad", emotion_intensity=0.0))
    assert not np.array_equal(say("angry", emotion_intensity=1.0), say("sad", emotion_intensity=1.0))
    assert not np.array_equal(say("angry", emotion_intensity=0.5), say("angry", emotion_intensity=1.0))


def test_style_rows_and_source_tone_colours_follow_the_style_family(engine):
    base = engine.base
    default = base.style_vector("default", 1.0)
    sad = base.style_vector("sad", 1.0)
    rows = base.net.emb_g.weight
    assert torch.equal(default[0, :, 0], rows[SPEAKERS["default"]])
    assert torch.equal(sad[0, :, 0], rows[SPEAKERS["sad"]])
    torch.testing.assert_close(base.style_vector("sad", 0.25), default + 0.25 * (sad - default))
    assert torch.equal(base.style_vector("sad", 0.0), default)
    assert torch.equal(base.source_tone_color("default", 1.0), base.default_se)
    assert torch.equal(base.source_tone_color("sad", 1.0), base.style_se)
    assert torch.equal(base.source_tone_color("whispering", 0.0), base.default_se)


def test_target_voice_is_measured_once_and_cached_with_the_avatar(engine, tmp_path, portrait, monkeypatch):
    avatar = _avatar(tmp_path, portrait, _voice(6.0))
    first = engine.synthesize(TEXT, "happy", avatar, GenerationSettings(seed=5)).samples
    cached = list(avatar.cache_dir.glob("openvoice.tone_color.v1.*.npy"))
    assert len(cached) == 1 and np.load(cached[0]).shape == (16,)

    def must_not_run(*_args):
        raise AssertionError("the tone colour was measured again")

    monkeypatch.setattr(voice_memory, "measure_tone_color", must_not_run)
    assert np.array_equal(engine.synthesize(TEXT, "happy", avatar, GenerationSettings(seed=5)).samples, first)


def test_another_reference_voice_changes_the_result(engine, tmp_path, portrait):
    low = _avatar(tmp_path, portrait, _voice(5.0, f0=100.0), name="low")
    high = _avatar(tmp_path, portrait, _voice(5.0, f0=260.0), name="high")
    settings = GenerationSettings(seed=1)
    assert not np.array_equal(engine.synthesize(TEXT, "neutral", low, settings).samples,
                              engine.synthesize(TEXT, "neutral", high, settings).samples)


def test_reference_with_too_little_speech_gets_a_clear_error(engine, tmp_path, portrait):
    short = MIN_REFERENCE_SPEECH_SECONDS / 2
    avatar = _avatar(tmp_path, portrait, _voice(short, seconds_of_silence=4.0))
    with pytest.raises(InputError, match=r"only \d\.\d s of speech.*at least 3 s"):
        engine.synthesize(TEXT, "neutral", avatar, GenerationSettings(seed=0))
    assert not list(avatar.cache_dir.glob("*.npy")), "a failed measurement must not be cached"


def test_silence_is_trimmed_from_the_reference():
    from e3rg_core.contracts import AudioClip
    clip = AudioClip(np.concatenate([np.zeros(RATE), _voice(4.0, seconds_of_silence=3.0)]), RATE)
    assert voice_memory.speech_only(clip).size / RATE == pytest.approx(4.0, abs=0.1)
    assert [len(chunk) for chunk in voice_memory.reference_chunks(np.zeros(25 * RATE), RATE)] == [int(12.5 * RATE)] * 2


def test_empty_reply_is_refused(engine, tmp_path, portrait):
    avatar = _avatar(tmp_path, portrait, _voice(5.0))
    with pytest.raises(InputError):
        engine.synthesize("   ", "neutral", avatar, GenerationSettings())


def test_v2_converter_measures_the_base_voice_itself(weights_dir, tmp_path, portrait):
    engine = OpenVoiceSpeechEngine.from_pretrained(converter_version="v2", weights_dir=weights_dir)
    assert engine.converter.config.zero_g and engine.converter.version == "v2"
    avatar = _avatar(tmp_path, portrait, _voice(5.0))
    speech = engine.synthesize(TEXT, "fear", avatar, GenerationSettings(seed=2))
    assert speech.sample_rate == RATE and speech.seconds > 0.3 and np.isfinite(speech.samples).all()


def test_speech_stops_at_the_length_cap_on_a_piece_boundary(engine):
    base = engine.base
    pause = int(RATE * 0.05)
    first_piece = base.synthesize("I am so sorry to hear that, it must have been hard for you.", "cheerful", seed=0)
    long_text = " ".join(["I am so sorry to hear that, it must have been hard for you."] * 6)
    cap = 1.5 * len(first_piece) / RATE
    speech = base.synthesize(long_text, "cheerful", max_seconds=cap, seed=0)
    assert len(speech) == len(first_piece) and np.array_equal(speech, first_piece)
    assert not speech[-pause:].any(), "speech must end with the piece's pause, not mid-word"
    cut = base.synthesize(long_text, "cheerful", max_seconds=0.25 * len(first_piece) / RATE, seed=0)
    assert 0 < len(cut) <= int(0.25 * len(first_piece))


def test_checkpoint_that_does_not_fit_is_refused(weights_dir, tmp_path):
    broken = tmp_path / "hub"
    for file in required_hub_files("v1"):
        target = broken / file.repo_id / file.filename
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((weights_dir / file.repo_id / file.filename).read_bytes())
    checkpoint = broken / EN_BASE_SPEAKER_FILES.checkpoint.repo_id / EN_BASE_SPEAKER_FILES.checkpoint.filename
    state = torch.load(checkpoint, weights_only=True)["model"]
    del state["emb_g.weight"]
    torch.save({"model": state}, checkpoint)
    with pytest.raises(CheckpointMismatchError, match="emb_g.weight"):
        OpenVoiceSpeechEngine.from_pretrained(weights_dir=broken)

    config = broken / EN_BASE_SPEAKER_FILES.config.repo_id / EN_BASE_SPEAKER_FILES.config.filename
    config.write_text(json.dumps({**BASE_CONFIG, "speakers": {"default": 1}}), encoding="utf-8")
    with pytest.raises(CheckpointMismatchError, match="no speaker id"):
        BaseSpeakerTTS.from_pretrained(resolve=lambda file: broken / file.repo_id / file.filename)


def test_missing_weights_make_the_engine_unavailable(tmp_path, monkeypatch):
    with pytest.raises(EngineUnavailableError):
        OpenVoiceSpeechEngine.from_pretrained(weights_dir=tmp_path)
    import huggingface_hub.constants
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    with pytest.raises(EngineUnavailableError, match="local cache"):
        OpenVoiceSpeechEngine.from_pretrained(local_files_only=True)


def test_hub_file_list_is_exact():
    assert [(file.repo_id, file.filename) for file in required_hub_files("v1")] == [
        ("myshell-ai/OpenVoice", "checkpoints/base_speakers/EN/config.json"),
        ("myshell-ai/OpenVoice", "checkpoints/base_speakers/EN/checkpoint.pth"),
        ("myshell-ai/OpenVoice", "checkpoints/base_speakers/EN/en_default_se.pth"),
        ("myshell-ai/OpenVoice", "checkpoints/base_speakers/EN/en_style_se.pth"),
        ("myshell-ai/OpenVoice", "checkpoints/converter/config.json"),
        ("myshell-ai/OpenVoice", "checkpoints/converter/checkpoint.pth"),
    ]
    assert [(file.repo_id, file.filename) for file in required_hub_files("v2")][-2:] == [
        ("myshell-ai/OpenVoiceV2", "converter/config.json"), ("myshell-ai/OpenVoiceV2", "converter/checkpoint.pth")]
    assert preload_from_hub("v2") == [
        "myshell-ai/OpenVoice checkpoints/base_speakers/EN/config.json,checkpoints/base_speakers/EN/checkpoint.pth,"
        "checkpoints/base_speakers/EN/en_default_se.pth,checkpoints/base_speakers/EN/en_style_se.pth",
        "myshell-ai/OpenVoiceV2 converter/config.json,converter/checkpoint.pth"]
