"""Ola-Omni port against the upstream reference outputs in shared/golden/ola (see its README).

Tolerances are the README's (atol 1e-5, rtol 1e-4 for float32 features and logits; exact for shapes, sizes,
ids and pixels), except where Ola rounds the speech encoders' output to bfloat16: there a float32 difference
of 1e-6 can flip a value by one bfloat16 step, so that step is the tolerance at that point.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file

from e3rg_core.contracts import AudioClip
from e3rg_core.understanding.ola import cost
from e3rg_core.understanding.ola.beats import Beats, beats_fbank
from e3rg_core.understanding.ola.config import BeatsConfig, OryxViTConfig, WhisperEncoderConfig, build_config
from e3rg_core.understanding.ola.loading import expected_shapes
from e3rg_core.understanding.ola.model import OlaForCausalLM
from e3rg_core.understanding.ola.processor import (audio_chunks, chat_chunks, frame_tokens, image_pixels,
                                                   image_view_sizes, placeholder_ids, uniform_frame_indices,
                                                   video_frame_size)
from e3rg_core.understanding.ola.projectors import OlaVisionProjector, SpeechProjector
from e3rg_core.understanding.ola.vision import OryxViT

pytestmark = pytest.mark.usefixtures("one_torch_thread")

GOLDEN = Path(__file__).resolve().parents[2] / ".." / "shared" / "golden" / "ola"
if not GOLDEN.is_dir():
    pytest.skip(f"Ola golden data not found at {GOLDEN}", allow_module_level=True)

ATOL, RTOL = 1e-5, 1e-4


def close(actual: torch.Tensor, expected: torch.Tensor, atol: float = ATOL, rtol: float = RTOL) -> None:
    assert actual.shape == expected.shape
    torch.testing.assert_close(actual.float(), expected.float(), atol=atol, rtol=rtol)


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text())


def tensors(name: str) -> dict[str, torch.Tensor]:
    return load_file(str(GOLDEN / f"{name}.safetensors"))


def tiny_vit_config() -> OryxViTConfig:
    recorded = golden("oryx_vit_tiny")["config"]["VisionTransformer_kwargs"]
    return OryxViTConfig(width=recorded["embed_dim"], depth=recorded["depth"], heads=recorded["num_heads"],
                         patch_size=recorded["patch_size"], mlp_hidden=recorded["mlp_hidden"],
                         position_grid=recorded["pos_embed_grid"])


# OryxViT --------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def vit() -> OryxViT:
    model = OryxViT(tiny_vit_config()).eval()
    model.load_state_dict(tensors("oryx_vit_tiny.weights"), strict=True)
    return model


@torch.no_grad()
def test_vision_tower_matches_both_upstream_attention_paths(vit):
    io, recorded = tensors("oryx_vit_tiny.io"), golden("oryx_vit_tiny")["config"]["images"]
    for index, image in enumerate("AB"):
        for view in ("lowres", "highres"):
            grid = tuple(recorded[f"list_mode_{view}_grid_hw"][index])
            features, found_grid = vit(io[f"image{image}.{view}_pixels"])
            assert found_grid == grid
            close(features, io[f"list_mode.{view}.feat{image}"])
        assert found_grid == tuple(recorded[f"batched_mode_highres_grid_hw_{image}"])
        close(features, io[f"batched_mode.highres.feat{image}"])
        close(vit.position_embedding(*found_grid), io[f"pos_embed_rescaled.highres{image}"])


@torch.no_grad()
def test_images_in_one_batch_do_not_attend_to_each_other(vit):
    frames = torch.randn(3, 3, 64, 96)
    together, _ = vit(frames)
    alone, _ = vit(frames[1:2])
    changed, _ = vit(torch.cat([frames[:1], -frames[1:2], frames[2:]]))
    close(together[1:2], alone)
    close(changed[0], together[0])


def test_image_views_reproduce_upstream_pixels():
    io, images = tensors("oryx_vit_tiny.io"), golden("oryx_vit_tiny")["config"]["images"]
    for name in "AB":
        lowres, highres = image_pixels(io[f"image{name}.native_uint8_HWC"].numpy())
        assert list(lowres.shape) == images[name]["lowres_CHW"] and list(highres.shape) == images[name]["highres_CHW"]
        assert torch.equal(lowres[None], io[f"image{name}.lowres_pixels"])
        assert torch.equal(highres[None], io[f"image{name}.highres_pixels"])


# Projectors -----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def projectors() -> tuple[OlaVisionProjector, SpeechProjector]:
    weights, recorded = tensors("projectors_tiny.weights"), golden("projectors_tiny")["speech_projector"]
    out_width, in_width = weights["mm_projector.proj1.weight"].shape
    vision = OlaVisionProjector(in_width, out_width)
    speech = SpeechProjector(recorded["speech_encoder_hidden_size"], recorded["hidden_size"],
                             frames_per_token=recorded["k(speech_encoder_ds_rate)"])
    for module, prefix in ((vision, "mm_projector."), (speech, "speech_projector.")):
        module.load_state_dict({k.removeprefix(prefix): v for k, v in weights.items() if k.startswith(prefix)},
                               strict=True)
    return vision.eval(), speech.eval()


@torch.no_grad()
def test_projectors_match_every_recorded_call(projectors):
    vision, speech = projectors
    io = tensors("projectors_tiny.io")
    close(vision.image(io["img.x_lowres"], (6, 8), io["img.x_highres"], (4, 6)), io["img.out_twoview"])
    close(vision.image(io["img.x_highres"], (4, 6)), io["img.out_single"])
    close(vision.video(io["vid.x_frames"], (4, 6))[None], io["vid.out"])
    close(vision.pooler(io["pool.in"]), io["pool.out"])
    close(speech(io["speech.in"]), io["speech.out"])


# BEATs and the audio front end ----------------------------------------------------------------------------

@torch.no_grad()
def test_beats_matches_on_the_raw_and_the_padded_clip():
    config = BeatsConfig.from_checkpoint_cfg(golden("beats_tiny")["config_tiny"])
    beats = Beats(config).eval()
    beats.load_state_dict(tensors("beats_tiny.weights"), strict=True)
    io = tensors("beats_tiny.io")
    padded = torch.nn.functional.pad(io["wav_1p5s"], (0, 480_000 - 24_000))
    for wave, suffix in ((io["wav_1p5s"], "1p5s"), (padded, "30s_padded")):
        close(beats_fbank(wave[None]), io[f"fbank_norm_{suffix}"])
        close(beats(wave[None]), io[f"features_{suffix}"])


def test_whisper_log_mel_of_the_padded_clip():
    wave = tensors("beats_tiny.io")["wav_1p5s"]
    mels, waveforms = audio_chunks(AudioClip(wave.numpy(), 16_000))
    close(mels, tensors("merge_tiny.io")["speech_mel"])
    assert torch.equal(waveforms[0, :24_000], wave) and not waveforms[0, 24_000:].any()


# The whole model ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def merge_model() -> OlaForCausalLM:
    recorded = golden("merge_tiny")
    config = build_config(recorded["config"], WhisperEncoderConfig.from_dims(recorded["whisper_tiny_dims"]),
                          BeatsConfig.from_checkpoint_cfg(golden("beats_tiny")["config_tiny"]), tiny_vit_config())
    model = OlaForCausalLM(config).eval()
    state = dict(tensors("merge_tiny.weights"))
    state.update({"model.vision_tower.vision_tower." + k: v for k, v in tensors("oryx_vit_tiny.weights").items()})
    state.update({"model.speech_encoder.beats_model." + k: v for k, v in tensors("beats_tiny.weights").items()})
    state.update({"model." + k: v for k, v in tensors("projectors_tiny.weights").items()})
    assert {k: list(v.shape) for k, v in model.state_dict().items()} == recorded["full_state_dict_keys"]
    model.load_state_dict(state, strict=True)
    return model


@pytest.fixture(scope="module")
def merge_io() -> dict[str, torch.Tensor]:
    return tensors("merge_tiny.io")


def _frames(io: dict[str, torch.Tensor]) -> torch.Tensor:
    return io["video_pixels_infer_style"][:, 0]      # stored as (N, 1, 3, H, W), the script's stacking


@torch.no_grad()
def test_speech_encoders_match_up_to_the_bfloat16_rounding(merge_model, merge_io):
    wave = torch.nn.functional.pad(tensors("beats_tiny.io")["wav_1p5s"], (0, 480_000 - 24_000))[None]
    encoded = merge_model.model.speech_encoder(merge_io["speech_mel"], wave).float()
    expected = merge_io["speech_encoder_out_bf16_as_fp32"]
    one_step = expected.abs() * 2 ** -7     # bfloat16 keeps 8 significant bits
    assert ((encoded - expected).abs() <= one_step).all()
    assert (encoded != expected).float().mean() < 1e-3
    close(merge_model.model.speech_projector(expected), merge_io["speech_features"])


@torch.no_grad()
def test_video_features_use_every_frame(merge_model, merge_io):
    features, grid = merge_model.model.vision_tower(_frames(merge_io))
    assert grid == tuple(golden("merge_tiny")["info"]["vit_frame_grid_hw"])
    close(features, merge_io["vit_highres_features_frames"])
    close(merge_model.encode_video(_frames(merge_io)), merge_io["video_features_all_frames"])


@torch.no_grad()
def test_merge_and_logits_follow_training_frames_and_placeholder_order(merge_model, merge_io):
    """All frames reach the LLM (the collator's list call); the first placeholder (<speech>, -200) takes the
    video and the second (<image>, -300) the audio, as Ola was trained."""
    ids = merge_io["input_ids"][0]
    assert ids[6:8].tolist() == [-200, -300]
    video = merge_model.encode_video(_frames(merge_io))
    speech = merge_model.model.speech_projector(merge_io["speech_encoder_out_bf16_as_fp32"])
    embeds = merge_model.merge_inputs(ids, video, speech)
    close(embeds, merge_io["list_style.inputs_embeds"])
    close(embeds[0, 6:6 + len(video)], video)
    close(embeds[0, 6 + len(video):6 + len(video) + len(speech)], speech)
    close(merge_model(inputs_embeds=embeds).logits, merge_io["list_style.logits"])


@torch.no_grad()
def test_first_frame_only_reproduces_the_inference_script(merge_model, merge_io):
    """The script's video call passes on only the first frame; fed that frame alone, the port agrees."""
    speech = merge_model.model.speech_projector(merge_io["speech_encoder_out_bf16_as_fp32"])
    embeds = merge_model.merge_inputs(merge_io["input_ids"][0], merge_model.encode_video(_frames(merge_io)[:1]), speech)
    assert embeds.shape[1] == golden("merge_tiny")["info"]["infer_style"]["inputs_embeds_shape"][1]
    close(embeds, merge_io["infer_style.inputs_embeds"])
    close(merge_model(inputs_embeds=embeds).logits, merge_io["infer_style.logits"])


@torch.no_grad()
def test_end_to_end_from_waveform_and_pixels(merge_model, merge_io):
    """Mel, both encoders, projectors, merge and LLM in one go; the looser bound is the bf16 rounding above."""
    mels, waves = audio_chunks(AudioClip(tensors("beats_tiny.io")["wav_1p5s"].numpy(), 16_000))
    embeds = merge_model.merge_inputs(merge_io["input_ids"][0], merge_model.encode_video(_frames(merge_io)),
                                      merge_model.encode_speech(mels, waves))
    close(merge_model(inputs_embeds=embeds).logits, merge_io["list_style.logits"], atol=1e-4, rtol=1e-3)


# Full-size manifest ---------------------------------------------------------------------------------------

def test_full_size_state_dict_equals_the_manifest_by_component():
    manifest = golden("ola7b_keys")
    config = build_config(manifest["config_used"], WhisperEncoderConfig.from_dims(manifest["whisper_large_v3_dims"]),
                          BeatsConfig.from_checkpoint_cfg(manifest["beats_cfg_inferred"]))
    shapes = expected_shapes(config)
    with torch.device("meta"):
        buffers = {name for name, _ in OlaForCausalLM(config).named_buffers() if "rotary" not in name}
    assert len(shapes) == manifest["n_keys"]
    for group in manifest["group_totals"]:
        wanted = {k: tuple(v["shape"]) for k, v in manifest["keys"].items() if v["group"] == group}
        found = {k: v for k, v in shapes.items() if k in wanted or _group(k) == group}
        assert found == wanted, group
        assert sum(int(np.prod(s)) for s in found.values()) == manifest["group_totals"][group]["n_elements"]
    assert buffers == {k for k, v in manifest["keys"].items() if v["kind"] == "buffer"}


def _group(key: str) -> str:
    for prefix, group in (("model.vision_tower.", "vision_tower"), ("model.mm_projector.", "mm_projector"),
                          ("model.speech_projector.", "speech_projector"),
                          ("model.speech_encoder.whisper_model.", "speech_encoder.whisper"),
                          ("model.speech_encoder.beats_model.", "speech_encoder.beats")):
        if key.startswith(prefix):
            return group
    return "llm"


def test_cost_model_counts_the_manifest_parameters():
    keys = golden("ola7b_keys")["keys"]
    decoder = sum(int(np.prod(v["shape"])) for k, v in keys.items()
                  if k.startswith("model.layers.") and k.endswith("_proj.weight"))
    assert decoder == cost.DECODER_LINEAR_PARAMS
    assert int(np.prod(keys["lm_head.weight"]["shape"])) == cost.EMBEDDING_PARAMS
    totals = {g: t["n_elements"] for g, t in golden("ola7b_keys")["group_totals"].items()}
    assert sum(totals.values()) == (cost.DECODER_LINEAR_PARAMS + 2 * cost.EMBEDDING_PARAMS + cost.OTHER_LLM_PARAMS
                                    + cost.VISION_PARAMS + cost.PROJECTOR_PARAMS + cost.WHISPER_PARAMS
                                    + cost.BEATS_PARAMS)
    assert 7.5e9 < cost.weight_bytes(quantized=True) < 9e9 < 17e9 < cost.weight_bytes(quantized=False)


# Preprocessing --------------------------------------------------------------------------------------------

def test_video_frames_get_the_recorded_sizes_and_token_counts():
    for size, expected in golden("preprocess")["video_frame_resize"].items():
        width, height = map(int, size.split("x"))
        new_width, new_height, scaled = video_frame_size(width, height)
        assert [new_width, new_height] == expected["resized_WxH"], size
        assert [new_height // 16, new_width // 16] == expected["patch_grid_hw"]
        assert (new_height // 16) * (new_width // 16) == expected["vit_tokens"]
        per_frame = frame_tokens(new_height, new_width)
        assert per_frame == expected["llm_tokens_per_frame(incl. newline per row + 1 sep)"]
        assert per_frame + 2 == expected["llm_tokens_video_projector_1frame(incl. begin+end)"]
        assert scaled == expected["resize_kind"].startswith("scaled")
        if "llm_tokens_64_frames_all_used" in expected:
            assert 64 * per_frame + 2 == expected["llm_tokens_64_frames_all_used"]


def test_images_get_the_recorded_two_views():
    for size, expected in golden("preprocess")["image_resize"].items():
        lowres, highres = image_view_sizes(*map(int, size.split("x")))
        assert [lowres[0], lowres[1]] == expected["lowres_WxH"], size
        assert [highres[0], highres[1]] == expected["highres_WxH"], size


def test_frame_sampling_keeps_every_uniformly_sampled_frame():
    for total, expected in golden("preprocess")["frame_sampling"].items():
        indices = uniform_frame_indices(int(total), 64)
        assert indices.tolist() == expected["uniform_sampled_frame_indices(np.linspace(0,T-1,64,dtype=int))"]
        assert len(indices) == expected["n_intended"] >= expected["n_kept_upstream"]


def test_chat_prompt_matches_the_recorded_template():
    recorded = golden("preprocess")["chat_template"]
    question = recorded["question"]
    head, tail = chat_chunks("You are a helpful assistant.", question, placeholders=True)
    assert [head, tail] == recorded["text_chunks"]
    assert list(placeholder_ids(video=True, audio=True)) == recorded["inserted_ids_between_chunks"]
    assert head + recorded["split_on"] + tail == recorded["prompt"]
