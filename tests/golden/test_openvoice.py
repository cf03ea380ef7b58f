"""The OpenVoice port against vectors recorded from upstream OpenVoice (shared/golden/openvoice/README.md).

Tiny random-weight models are loaded strictly from the stored state dicts and must reproduce upstream's
spectrograms, tone colours, conversions, durations and audio within the README's tolerances; the full-size
modules must have exactly the key/shape manifests of the official checkpoints; the English front end must
reproduce every recorded sentence.
"""
import dataclasses
import json
from pathlib import Path

import pytest
import torch

GOLDEN = Path(__file__).resolve().parents[2] / ".." / "shared" / "golden" / "openvoice"
if not GOLDEN.is_dir():
    pytest.skip(f"OpenVoice golden data not found at {GOLDEN}", allow_module_level=True)

from safetensors.torch import load_file  # noqa: E402

from e3rg_core.errors import CheckpointMismatchError  # noqa: E402
from e3rg_core.generation.openvoice import text  # noqa: E402
from e3rg_core.generation.openvoice.checkpoints import load_strict  # noqa: E402
from e3rg_core.generation.openvoice.config import AudioConfig, BaseSpeakerConfig, ConverterConfig  # noqa: E402
from e3rg_core.generation.openvoice.converter import ToneColorConverter, ToneColorConverterNet  # noqa: E402
from e3rg_core.generation.openvoice.modules import fold_weight_norm  # noqa: E402
from e3rg_core.generation.openvoice.spectrogram import linear_spectrogram  # noqa: E402
from e3rg_core.generation.openvoice.synthesizer import BaseSpeakerNet  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")

SPEC_TOL = dict(rtol=1e-4, atol=1e-4)
LATENT_TOL = dict(rtol=1e-4, atol=1e-5)
WAVE_TOL = dict(rtol=0.0, atol=1e-5)
FRONT_END = json.loads((GOLDEN / "text_frontend.json").read_text(encoding="utf-8"))


def _json(name):
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


def _split(tensors):
    """(upstream state dict, golden tensors) from one of the stored safetensors files."""
    state = {key[len("model."):]: value for key, value in tensors.items() if key.startswith("model.")}
    return state, {key[len("golden."):]: value for key, value in tensors.items() if key.startswith("golden.")}


def _assert_close(actual, expected, tol, what):
    assert actual.shape == expected.shape, f"{what}: shape {tuple(actual.shape)} vs {tuple(expected.shape)}"
    torch.testing.assert_close(actual, expected, **tol, msg=lambda m: f"{what}: {m}")



# ---------------------------------------------------------------------------------------------------------
# Text front end


def test_symbol_table_is_upstreams():
    assert list(text.SYMBOLS) == FRONT_END["symbols"]
    assert len(text.SYMBOLS) == FRONT_END["n_symbols"] and text.BLANK_ID == FRONT_END["blank_id"]


@pytest.mark.parametrize("case", FRONT_END["cases"], ids=lambda case: case["input"][:30])
def test_front_end_reproduces_recorded_sentence(case):
    assert text.split_sentences(case["input"]) == case["split_sentences"]
    for piece in case["pieces"]:
        wrapped = text.separate_camel_case(piece["piece"])
        assert f"[EN]{wrapped}[EN]" == piece["wrapped"]
        cleaned = text.clean_english(wrapped)
        assert cleaned == piece["cleaned"]
        ids = text.symbol_ids(cleaned)
        assert ids == piece["ids_no_blank"]
        assert text.intersperse_blank(ids) == piece["ids"]
        assert sorted(set(cleaned) - set(text.SYMBOLS)) == sorted(set(piece["dropped_chars"]))
    expected = [piece["ids"] for piece in case["pieces"]
                if piece["piece"] in case["split_sentences"] and piece["ids_no_blank"]]
    assert text.text_to_pieces(case["input"]) == expected


# ---------------------------------------------------------------------------------------------------------
# Tone colour converter


@pytest.fixture(scope="module")
def converter_golden():
    state, golden = _split(load_file(GOLDEN / "converter_tiny.safetensors"))
    return state, golden, _json("converter_tiny.json")


def _converter_net(state, raw_config, zero_g):
    config = dataclasses.replace(ConverterConfig.from_dict(raw_config, "tiny converter"), zero_g=zero_g)
    with torch.device("meta"):
        net = ToneColorConverterNet(config)
    load_strict(net, state, "tiny converter")
    return fold_weight_norm(net).eval(), config


@pytest.mark.parametrize("case", ["1s", "2p3s"])
def test_linear_spectrogram_matches_at_tiny_and_official_size(converter_golden, case):
    _, golden, meta = converter_golden
    wave = golden[f"{case}.wav"][None]
    tiny = ConverterConfig.from_dict(meta["config"]).audio
    _assert_close(linear_spectrogram(wave, tiny), golden[f"{case}.spec"], SPEC_TOL, "tiny spectrogram")
    official = AudioConfig(sampling_rate=22050, filter_length=1024, hop_length=256, win_length=1024)
    _assert_close(linear_spectrogram(wave, official), golden[f"{case}.spec_n1024_h256"], SPEC_TOL,
                  "official-size spectrogram")


@pytest.mark.parametrize("zero_g", [False, True], ids=["zero_g_false", "zero_g_true"])
@pytest.mark.parametrize("case", ["1s", "2p3s"])
def test_voice_conversion_matches(converter_golden, case, zero_g):
    state, golden, meta = converter_golden
    net, _ = _converter_net(state, meta["config"], zero_g)
    spec = golden[f"{case}.spec"]
    with torch.inference_mode():
        _assert_close(net.tone_color(spec), golden[f"{case}.ref_enc_se"], LATENT_TOL, "reference encoder")
        result = net.voice_conversion(spec, torch.tensor([spec.size(2)]), golden["src_se"], golden["tgt_se"],
                                      tau=0.0)
    tag = f"{case}.vc_zero_g_{str(zero_g).lower()}"
    for name in ("z", "z_p", "z_hat"):
        _assert_close(getattr(result, name), golden[f"{tag}.{name}"], LATENT_TOL, name)
    _assert_close(result.audio, golden[f"{tag}.wav"], WAVE_TOL, "converted audio")


def test_converter_files_load_strictly_and_convert(converter_golden, tmp_path):
    """The public path: config.json + checkpoint.pth on disk -> extract_se / convert with numpy audio."""
    state, golden, meta = converter_golden
    (tmp_path / "config.json").write_text(json.dumps(meta["config"]), encoding="utf-8")
    torch.save({"model": state, "iteration": 1}, tmp_path / "checkpoint.pth")
    converter = ToneColorConverter.from_files(tmp_path / "config.json", tmp_path / "checkpoint.pth")
    assert converter.version == "tiny-test" and not converter.config.zero_g
    assert not any(name.endswith(("weight_g", "weight_v")) for name in converter.net.state_dict())
    wave = golden["1s.wav"].numpy()
    _assert_close(converter.extract_se([wave]), golden["1s.ref_enc_se"], LATENT_TOL, "extract_se")
    audio = converter.convert(wave, golden["src_se"], golden["tgt_se"], tau=0.0)
    _assert_close(torch.from_numpy(audio), golden["1s.vc_zero_g_false.wav"][0, 0], WAVE_TOL, "convert")
    noisy = [converter.convert(wave, golden["src_se"], golden["tgt_se"], tau=0.3, seed=7) for _ in range(2)]
    assert (noisy[0] == noisy[1]).all() and not (noisy[0] == audio).all()


def test_converter_checkpoint_that_does_not_fit_is_refused(converter_golden):
    state, _, meta = converter_golden
    wider = json.loads(json.dumps(meta["config"]))
    wider["model"]["inter_channels"] = 16
    config = ConverterConfig.from_dict(wider)
    with torch.device("meta"):
        net = ToneColorConverterNet(config)
    with pytest.raises(CheckpointMismatchError, match="shape mismatch"):
        load_strict(net, state, "tiny converter")
    with torch.device("meta"):
        net = ToneColorConverterNet(ConverterConfig.from_dict(meta["config"]))
    with pytest.raises(CheckpointMismatchError, match="missing"):
        load_strict(net, {k: v for k, v in state.items() if not k.startswith("ref_enc.gru")}, "tiny converter")


# ---------------------------------------------------------------------------------------------------------
# Base speaker


@pytest.fixture(scope="module")
def base_golden():
    state, golden = _split(load_file(GOLDEN / "base_tts_tiny.safetensors"))
    meta = _json("base_tts_tiny.json")
    config = BaseSpeakerConfig.from_dict(meta["config"], "tiny base speaker")
    with torch.device("meta"):
        net = BaseSpeakerNet(config)
    load_strict(net, state, "tiny base speaker")
    return fold_weight_norm(net).eval(), golden, meta


@pytest.mark.parametrize("sequence", [0, 1, 2])
def test_text_encoder_matches(base_golden, sequence):
    net, golden, _ = base_golden
    ids = golden[f"seq{sequence}.ids"][None]
    with torch.inference_mode():
        hidden, mean, log_std, _ = net.enc_p(ids, torch.tensor([ids.size(1)]))
    for value, name in ((hidden, "x"), (mean, "m_p"), (log_std, "logs_p")):
        _assert_close(value, golden[f"seq{sequence}.enc_p.{name}"], LATENT_TOL, f"enc_p.{name}")


def test_golden_ids_are_the_front_end_output(base_golden):
    _, golden, meta = base_golden
    for sequence in range(3):
        case = next(case for case in meta["cases"] if case["tag"].startswith(f"seq{sequence}."))
        piece = text.separate_camel_case(case["text"])
        assert text.intersperse_blank(text.symbol_ids(text.clean_english(piece))) == \
            golden[f"seq{sequence}.ids"].tolist()


@pytest.mark.parametrize("case", _json("base_tts_tiny.json")["cases"], ids=lambda case: case["tag"])
def test_base_speaker_inference_matches(base_golden, case):
    net, golden, _ = base_golden
    tag = case["tag"]
    ids = golden[f"{tag.split('.')[0]}.ids"][None]
    with torch.inference_mode():
        result = net.infer(ids, torch.tensor([ids.size(1)]), net.speaker_vector(torch.tensor([case["speaker_id"]])),
                           noise_scale=0.0, length_scale=case["length_scale"], noise_scale_w=0.0, sdp_ratio=0.2)
    _assert_close(result.log_durations, golden[f"{tag}.logw"], LATENT_TOL, "log durations")
    assert torch.equal(result.durations, golden[f"{tag}.w_ceil"]), "frames per symbol differ"
    assert result.z_p.size(2) == case["y_length_frames"]
    _assert_close(result.z_p, golden[f"{tag}.z_p"], LATENT_TOL, "prior sample")
    assert list(result.audio.shape) == case["wav_shape"]
    _assert_close(result.audio, golden[f"{tag}.wav"], WAVE_TOL, "audio")


# ---------------------------------------------------------------------------------------------------------
# Full-size manifests


def _manifest_matches(net, manifest):
    actual = {key: list(value.shape) for key, value in net.state_dict().items()}
    expected = {entry["key"]: entry["shape"] for entry in manifest["keys"]}
    assert sorted(actual.keys() - expected.keys()) == [], "keys the official checkpoint lacks"
    assert sorted(expected.keys() - actual.keys()) == [], "official keys this port lacks"
    assert {key: shape for key, shape in actual.items() if expected[key] != shape} == {}
    assert len(actual) == manifest["n_tensors"]
    assert sum(value.numel() for value in net.state_dict().values()) == manifest["n_elements"]
    assert all(entry["dtype"] == "float32" for entry in manifest["keys"])
    assert {str(value.dtype) for value in net.state_dict().values()} == {"torch.float32"}


@pytest.mark.parametrize("manifest,config", [("converter_v2_keys.json", "converter_v2_config.json"),
                                             ("converter_v1_keys.json", "converter_v1_config.assumed.json")])
def test_full_size_converter_has_the_official_keys(manifest, config):
    parsed = ConverterConfig.from_dict(_json(config), config)
    assert parsed.zero_g == (config == "converter_v2_config.json")
    assert parsed.version == ("v2" if parsed.zero_g else "v1")
    with torch.device("meta"):
        net = ToneColorConverterNet(parsed)
    _manifest_matches(net, _json(manifest))


def test_full_size_base_speaker_has_the_official_keys():
    config = BaseSpeakerConfig.from_dict(_json("base_speaker_en_config.assumed.json"))
    with torch.device("meta"):
        net = BaseSpeakerNet(config)
    _manifest_matches(net, _json("base_speaker_en_keys.json"))


def test_base_speaker_config_that_disagrees_with_the_front_end_is_refused():
    raw = _json("base_speaker_en_config.assumed.json")
    raw["symbols"] = raw["symbols"][:-1]
    with pytest.raises(CheckpointMismatchError, match="symbol table"):
        BaseSpeakerConfig.from_dict(raw)
    raw = _json("base_speaker_en_config.assumed.json")
    raw["speakers"] = {"default": 1, "sad": 10}
    with pytest.raises(CheckpointMismatchError, match="outside"):
        BaseSpeakerConfig.from_dict(raw)
    raw = _json("converter_v2_config.json")
    raw["data"]["n_speakers"] = 10
    with pytest.raises(CheckpointMismatchError, match="n_speakers"):
        ConverterConfig.from_dict(raw)
