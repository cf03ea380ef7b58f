"""The DICE-Talk port against vectors recorded from upstream DICE-Talk (shared/golden/dicetalk/README.md).

Tiny random-weight modules are loaded strictly from the stored upstream state dicts and must reproduce the
recorded outputs (1e-5; 1e-4 for the whole UNet); the audio windows, the sampler's window schedule and its
guidance/Euler step must match the recorded loop; the full-size modules must have exactly the key/shape
manifests of the official checkpoints.
"""
import json
from pathlib import Path

import numpy as np
import pytest
import torch

GOLDEN = Path(__file__).resolve().parents[2] / ".." / "shared" / "golden" / "dicetalk"
if not GOLDEN.is_dir():
    pytest.skip(f"DICE-Talk golden data not found at {GOLDEN}", allow_module_level=True)

from safetensors.torch import load_file  # noqa: E402

from e3rg_core.errors import CheckpointMismatchError  # noqa: E402
from e3rg_core.generation.dicetalk.audio_projection import AudioProjection, AudioProjectionConfig  # noqa: E402
from e3rg_core.generation.dicetalk.checkpoints import load_strict  # noqa: E402
from e3rg_core.generation.dicetalk.emotion_model import EmotionModel, EmotionModelConfig  # noqa: E402
from e3rg_core.generation.dicetalk.pose_guider import PoseGuider, PoseGuiderConfig  # noqa: E402
from e3rg_core.generation.dicetalk.sampler import (Conditioning, SamplerSettings, combine_guidance,  # noqa: E402
                                                   euler_step, model_input, noise_levels, sample_latents,
                                                   window_frames)
from e3rg_core.generation.dicetalk.speech_features import (SpeechEncoder, frame_count,  # noqa: E402
                                                           frame_windows, window_token_index)
from e3rg_core.generation.dicetalk.unet import AdapterContext, DiceTalkUNet  # noqa: E402

pytestmark = pytest.mark.usefixtures("one_torch_thread")

MODULE_TOL = dict(rtol=0.0, atol=1e-5)
UNET_TOL = dict(rtol=0.0, atol=1e-4)
INFERENCE = json.loads((GOLDEN / "inference_config.json").read_text(encoding="utf-8"))
SVD_UNET_CONFIG = {key: value for key, value in INFERENCE["svd_xt_unet_config"].items() if not key.startswith("_")}
SCHEDULER_CONFIG = INFERENCE["svd_xt_scheduler_config"]


def _json(name):
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


def _assert_close(actual, expected, tol, what):
    assert actual.shape == expected.shape, f"{what}: shape {tuple(actual.shape)} vs {tuple(expected.shape)}"
    torch.testing.assert_close(actual, expected, **tol, msg=lambda m: f"{what}: {m}")


def _tiny(module, name):
    return load_strict(module, load_file(GOLDEN / f"{name}.safetensors"), name).eval()



# ---------------------------------------------------------------------------------------------------------
# Small modules


def test_audio_projection_matches_upstream():
    config = AudioProjectionConfig(**_json("audio_proj_tiny.json")["config"])
    model = _tiny(AudioProjection(config), "audio_proj_tiny")
    io = load_file(GOLDEN / "audio_proj_tiny_io.safetensors")
    with torch.no_grad():
        _assert_close(model(io["input"]), io["output"], MODULE_TOL, "audio tokens")
        _assert_close(model(io["input_zeros"]), io["output_zeros"], MODULE_TOL, "silent audio tokens")


def _tiny_emotion_model():
    config = _json("emotion_tiny.json")["config"]
    return _tiny(EmotionModel(EmotionModelConfig(
        prior_dim=config["prior_dim"], width=config["width_D"], intermediate_dim=config["intermediate_dim"],
        context_tokens=config["context_tokens"], codebook_size=config["codebook_size"],
        num_heads=config["num_heads"], classifier_input_dim=config["classifier_input_dim"],
        classifier_hidden=tuple(config["classifier_hidden"]), num_classes=config["num_classes"])), "emotion_tiny")


@pytest.mark.parametrize("retrieval", [False, True])
def test_emotion_model_matches_upstream(retrieval):
    model = _tiny_emotion_model()
    io = load_file(GOLDEN / "emotion_tiny_io.safetensors")
    prior = io["mu"].reshape(1, -1)
    with torch.no_grad():
        for case, value in (("cond", prior), ("uncond", torch.zeros_like(prior))):
            expected = io[f"out_{case}_retrieval_{retrieval}"][0]
            _assert_close(model(value, retrieval=retrieval), expected, MODULE_TOL, f"{case} emotion tokens")
            _, index = model.codebook.nearest(value)
            assert index.tolist() == io[f"codebook_index_{case}"].flatten().tolist()


def test_emotion_retrieval_changes_the_tokens():
    model = _tiny_emotion_model()
    prior = load_file(GOLDEN / "emotion_tiny_io.safetensors")["mu"].reshape(1, -1)
    with torch.no_grad():
        assert (model(prior, retrieval=True) - model(prior, retrieval=False)).abs().max() > 1e-6


def test_pose_guider_matches_upstream():
    model = _tiny(PoseGuider(PoseGuiderConfig(**{key: tuple(value) if isinstance(value, list) else value
                                                 for key, value in _json("pose_guider_tiny.json")["config"].items()})),
                  "pose_guider_tiny")
    io = load_file(GOLDEN / "pose_guider_tiny_io.safetensors")
    with torch.no_grad():
        for case in ("mask", "random"):
            frames = io[f"input_{case}"].permute(0, 2, 1, 3, 4).flatten(0, 1)       # (b c f h w) -> (bf c h w)
            expected = io[f"output_{case}"].permute(0, 2, 1, 3, 4).flatten(0, 1)
            _assert_close(model(frames), expected, MODULE_TOL, f"pose features of the {case} input")


# ---------------------------------------------------------------------------------------------------------
# UNet


@pytest.fixture(scope="module")
def tiny_unet():
    return _tiny(DiceTalkUNet(**_json("unet_tiny.json")["config"]), "unet_tiny")


@pytest.fixture(scope="module")
def unet_io():
    return load_file(GOLDEN / "unet_tiny_io.safetensors")


@pytest.mark.parametrize("case, scales, masked, posed", [
    ("out_main", (1.0, 1.0), True, True),
    ("out_ip_scales_0.5_1.5", (0.5, 1.5), True, True),
    ("out_no_mask", (1.0, 1.0), False, True),
    ("out_no_spatial_condition", (1.0, 1.0), True, False),
])
def test_unet_matches_upstream(tiny_unet, unet_io, case, scales, masked, posed):
    io = unet_io
    context = AdapterContext(io["clip_embeds"], (io["audio_tokens"], io["emo_tokens"]), scales,
                             io["face_mask"] if masked else None)
    with torch.no_grad():
        out = tiny_unet(io["sample"], io["timestep"], context, io["added_time_ids"],
                        io["spatial_condition"] if posed else None)
    _assert_close(out, io[case], UNET_TOL, case)


def _attention(unet, path):
    module = unet
    for part in path.split("."):
        module = module[int(part)] if part.isdigit() else getattr(module, part)
    return module


@pytest.mark.parametrize("name", ["spatial_attn2", "mid_spatial_attn2"])
def test_masked_spatial_cross_attention_matches_upstream(tiny_unet, name):
    io = load_file(GOLDEN / "unet_tiny_attn_io.safetensors")
    attention = _attention(tiny_unet, _json("unet_tiny.json")["attn_io"][name])
    # Upstream hands later processors its stream tensors unsqueezed to 4-D; the values are the same.
    streams = tuple(io[f"{name}.{key}"].flatten(0, -3) for key in ("ip0_audio", "ip1_emo"))
    context = AdapterContext(io[f"{name}.clip"], streams, (1.0, 1.0), io[f"{name}.mask"])
    with torch.no_grad():
        out = attention(io[f"{name}.hidden_states"], encoder_hidden_states=context)
    _assert_close(out, io[f"{name}.output"], MODULE_TOL, name)


def test_temporal_cross_attention_matches_upstream_with_shared_contexts(tiny_unet, unet_io):
    io = load_file(GOLDEN / "unet_tiny_attn_io.safetensors")
    attention = _attention(tiny_unet, _json("unet_tiny.json")["attn_io"]["temporal_attn2"])
    hidden = io["temporal_attn2.hidden_states"]
    batch = unet_io["sample"].shape[0]
    positions = hidden.shape[0] // batch
    recorded = tuple(io[f"temporal_attn2.{key}"] for key in ("clip", "ip0_audio", "ip1_emo"))
    # Upstream's contexts are each video's frame mean, repeated for every position.
    means = AdapterContext(unet_io["clip_embeds"], (unet_io["audio_tokens"], unet_io["emo_tokens"]),
                           (1.0, 1.0)).frame_mean(batch)
    for mean, repeated in zip((means.image, *means.streams), recorded):
        _assert_close(mean.repeat_interleave(positions, dim=0), repeated, MODULE_TOL, "frame-mean context")
    with torch.no_grad():
        full = attention(hidden, encoder_hidden_states=AdapterContext(recorded[0], recorded[1:], (1.0, 1.0)))
        shared = attention(hidden, encoder_hidden_states=AdapterContext(
            means.image, means.streams, (1.0, 1.0), repeats=positions))
    _assert_close(full, io["temporal_attn2.output"], MODULE_TOL, "temporal attention")
    _assert_close(shared, io["temporal_attn2.output"], MODULE_TOL, "temporal attention with shared contexts")


# ---------------------------------------------------------------------------------------------------------
# Audio windows


def test_audio_windows_match_upstream():
    facts = _json("audio_windows.json")
    tensors = load_file(GOLDEN / "audio_windows.safetensors")
    samples = facts["n_samples"]
    assert frame_count(samples) == facts["num_video_frames"]
    index = window_token_index(samples)
    assert index.tolist() == tensors["window_token_index"].tolist()
    stack = tensors["whisper_hidden_stack_first176"][0]
    assert torch.equal(frame_windows(stack, samples), tensors["windows"])
    long_clip = facts["long_clip_35s"]
    assert frame_count(long_clip["n_samples"]) == long_clip["num_video_frames"]
    assert window_token_index(long_clip["n_samples"]).tolist() == long_clip["window_token_index"]


def test_speech_goes_through_whisper_in_30_second_pieces():
    from transformers import WhisperFeatureExtractor

    class RecordingEncoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.width = torch.nn.Parameter(torch.zeros(3))
            self.calls = []

        def forward(self, features, output_hidden_states):
            self.calls.append(list(features.shape))
            states = tuple(torch.full((1, 1500, 3), float(layer)) for layer in range(5))
            return type("Output", (), {"hidden_states": states})

    long_clip = _json("audio_windows.json")["long_clip_35s"]
    encoder = RecordingEncoder()
    stack = SpeechEncoder(WhisperFeatureExtractor(), encoder).hidden_stack(
        np.zeros(long_clip["n_samples"], np.float32))
    assert encoder.calls == long_clip["encoder_calls_input_shapes"]
    assert stack.shape == (3000, 5, 3) and stack[0, :, 0].tolist() == [0, 1, 2, 3, 4]


# ---------------------------------------------------------------------------------------------------------
# Sampler


def test_noise_levels_match_upstream_scheduler():
    recorded = _json("windows.json")["scheduler"]
    sigmas, timesteps = noise_levels(SCHEDULER_CONFIG, 25)
    _assert_close(sigmas, torch.tensor(recorded["sigmas"]), dict(rtol=1e-6, atol=0), "sigmas")
    _assert_close(timesteps, torch.tensor(recorded["timesteps"]), dict(rtol=1e-6, atol=1e-6), "timesteps")


@pytest.mark.parametrize("case", ["N=40", "N=63"])
def test_window_schedule_matches_upstream(case):
    recorded = _json("windows.json")["cases"][case]
    for step, record in recorded["steps"].items():
        windows = window_frames(recorded["N_total"], int(step))
        assert windows == [window["frames"] for window in record["windows"]], f"{case} step {step}"
        assert [window[0] for window in windows] == [window["index_start"] % recorded["N_total"]
                                                     for window in record["windows"]]


class _RecordingUNet(torch.nn.Module):
    """Stands in for the UNet: records which frames and timestep each call saw, predicts zero."""

    def __init__(self):
        super().__init__()
        self.anchor = torch.nn.Parameter(torch.zeros(1))
        self.calls = []

    @property
    def dtype(self):
        return torch.float32

    def forward(self, sample, timestep, context, added_time_ids, pose_features):
        frame_ids = context.streams[0][2 * sample.shape[1]:, 0, 0]     # the full branch's audio tokens
        self.calls.append((float(timestep), frame_ids.round().long().tolist(), added_time_ids[0].tolist()))
        return torch.zeros(sample.shape[0], sample.shape[1], 4, *sample.shape[3:])


@pytest.mark.parametrize("case", ["N=40", "N=63"])
def test_sampler_loop_follows_the_recorded_windows(case):
    recorded = _json("windows.json")["cases"][case]
    frames = recorded["N"]
    # Each spoken frame's audio token carries its index; the padding frames' silent token is -1.
    conditioning = Conditioning(
        reference_latents=torch.zeros(4, 2, 2), image_embedding=torch.ones(1, 3),
        audio_tokens=torch.arange(frames, dtype=torch.float32)[:, None, None].expand(frames, 1, 3),
        silent_audio_tokens=-torch.ones(1, 3), emotion_tokens=torch.ones(1, 3),
        neutral_emotion_tokens=torch.zeros(1, 3), pose_features=torch.zeros(1, 2, 2),
        face_mask=torch.ones(1, 1, 16, 16))
    unet = _RecordingUNet()
    latents = sample_latents(unet, conditioning, SamplerSettings(steps=25), SCHEDULER_CONFIG,
                             torch.Generator().manual_seed(0))
    assert latents.shape == (recorded["N_total"], 4, 2, 2)
    expected = [(record["t"], [frame if frame < frames else -1 for frame in window["frames"]])
                for record in recorded["steps"].values() for window in record["windows"]]
    assert len(unet.calls) == recorded["unet_calls"] == len(expected)
    for (timestep, frame_ids, time_ids), (recorded_t, recorded_ids) in zip(unet.calls, expected):
        assert timestep == pytest.approx(recorded_t, abs=1e-6)
        assert frame_ids == recorded_ids
        assert time_ids == [12.5, 8, 16]


def test_guidance_and_euler_step_match_upstream():
    facts = _json("windows.json")["cfg"]
    tensors = load_file(GOLDEN / "windows_cfg_step.safetensors")
    guided = combine_guidance(tensors["unet_out_uncond"], tensors["unet_out_drop_audio"], tensors["unet_out_cond"],
                              facts["g1_ref_scale"], facts["g2_emo_scale"])
    _assert_close(guided, tensors["cfg_combined"], dict(rtol=0, atol=1e-6), "guided prediction")
    sigmas, timesteps = noise_levels(SCHEDULER_CONFIG, 25)
    assert float(timesteps[0]) == pytest.approx(float(tensors["timestep"][0]), abs=1e-6)
    stepped = euler_step(tensors["euler_sample_in"], tensors["cfg_combined"], float(sigmas[0]), float(sigmas[1]))
    _assert_close(stepped, tensors["euler_prev_sample"], dict(rtol=1e-6, atol=1e-4), "Euler step")


def test_guidance_batch_layout_matches_upstream():
    tensors = load_file(GOLDEN / "windows_cfg_step.safetensors")
    recorded = tensors["unet_in_sample"]
    built = model_input(recorded[2, :, :4], recorded[2, 0, 4:])
    assert torch.equal(built, recorded)


# ---------------------------------------------------------------------------------------------------------
# Full-size key manifests


def _shapes(module):
    return {key: list(value.shape) for key, value in module.state_dict().items()}


def _manifest(name):
    return {key: entry["shape"] for key, entry in _json(name)["keys"].items()}


@pytest.mark.parametrize("name, build", [
    ("unet_keys.json", lambda: DiceTalkUNet(**SVD_UNET_CONFIG)),
    ("audio_proj_keys.json", lambda: AudioProjection()),
    ("emotion_keys.json", lambda: EmotionModel()),
    ("pose_guider_keys.json", lambda: PoseGuider()),
])
def test_full_size_modules_match_the_checkpoint_manifests(name, build):
    with torch.device("meta"):
        module = build()
    assert _shapes(module) == _manifest(name)


def test_audio_projection_and_pose_guider_defaults_are_the_checkpoint_configs():
    assert AudioProjectionConfig().__dict__ == _json("audio_proj_keys.json")["config"]
    assert {key: list(value) if isinstance(value, tuple) else value
            for key, value in PoseGuiderConfig().__dict__.items()} == _json("pose_guider_keys.json")["config"]


def test_strict_loading_rejects_missing_extra_and_reshaped_tensors():
    state = load_file(GOLDEN / "audio_proj_tiny.safetensors")
    config = AudioProjectionConfig(**_json("audio_proj_tiny.json")["config"])
    for broken in ({key: value for key, value in state.items() if key != "norm.bias"},
                   {**state, "extra.weight": torch.zeros(1)},
                   {**state, "norm.bias": torch.zeros(13)}):
        with pytest.raises(CheckpointMismatchError):
            load_strict(AudioProjection(config), broken, "audio projection")
