"""Every repository the full tier reads, as tiny random models in the official files and layouts.

Each writer puts one repository's files into a folder, under the official names and in the official formats:
safetensors shards with their model.safetensors.index.json, torch.save'd dicts for the .pt/.pth files (the
zip format unless noted), the official config files with their sizes shrunk (the tiny sizes of tiny.py), and
Qwen2.5 tokenizers cut from a shipped BPE (qwen_tokenizer.py). Weights are random; their key names are the
ones the full-size key manifests in shared/golden list (the tests compare them, layer numbers aside). Only the
sizes differ, except Ola's OryxViT: its size is hard-wired in Ola's code (and the loader), not in config.json, so
the fake Ola-7b has the official config.json keys and a full-size OryxViT beside its tiny LLM.

Where a detail of an official file is not known, the choice made is said where it is made.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

from e3rg_core.generation.dicetalk.checkpoints import DICETALK_REPO, SVD_REPO, WHISPER_REPO
from e3rg_core.generation.openvoice.checkpoints import V1_REPO
from e3rg_core.understanding.ola.loading import OLA_REPO, SPEECH_REPO
from e3rg_core.understanding.qwen_omni_voter import QWEN_OMNI_REPO
from .qwen_tokenizer import QWEN2_5_ADDED, QWEN2_5_OMNI_ADDED, small_bpe, write_qwen_tokenizer
from .tiny import (LLM_WIDTH, OPENVOICE_DECODER, TINY_BEATS_CFG, TINY_OLA_LLM, TINY_WHISPER_DIMS,
                   tiny_openvoice_configs)

# Tiny vocabularies are padded past the tokenizer, as Qwen2.5's 152064 rows are past its 151665 tokens.
TINY_VOCAB = 512
TINY_MERGES = TINY_VOCAB - 64 - len(QWEN2_5_ADDED) - 256
# The SVD UNet's cross-attention width, which DICE-Talk's audio and emotion tokens are written in.
TINY_CROSS_ATTENTION = 32


@dataclass(frozen=True)
class FakeRepo:
    repo_id: str
    write: Callable[[Path, int], None]      # (folder, seed): writes the repository's files into folder


def write_json(path: Path, content: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, indent=2, ensure_ascii=False), encoding="utf-8")


def save_torch(path: Path, content: object, legacy: bool = False) -> None:
    """torch.save as upstream did; legacy=True writes the pre-1.6 (non-zip) pickle format."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(content, path, _use_new_zipfile_serialization=not legacy)


def write_shards(state: dict[str, torch.Tensor], folder: Path, count: int) -> None:
    """model-0000i-of-0000n.safetensors and model.safetensors.index.json, as save_pretrained shards them."""
    from safetensors.torch import save_file
    keys = list(state)
    names = [f"model-{index:05d}-of-{count:05d}.safetensors" for index in range(1, count + 1)]
    weight_map = {key: names[position * count // len(keys)] for position, key in enumerate(keys)}
    for name in names:
        save_file({key: state[key].contiguous() for key in keys if weight_map[key] == name}, str(folder / name),
                  metadata={"format": "pt"})
    total = sum(tensor.numel() * tensor.element_size() for tensor in state.values())
    write_json(folder / "model.safetensors.index.json", {"metadata": {"total_size": total}, "weight_map": weight_map})


def generation_config(bpe, **sampling) -> dict:
    return {"bos_token_id": bpe.id("<|endoftext|>"), "eos_token_id": [bpe.id("<|im_end|>"), bpe.id("<|endoftext|>")],
            "pad_token_id": bpe.id("<|endoftext|>"), **sampling}


# -- THUdyh/Ola-7b and THUdyh/Ola_speech_encoders -------------------------------------------------------------
def ola_llm_settings() -> dict:
    """tiny.py's Ola settings as the official config.json holds them: no vision_config, and the width of the
    OryxViT that Ola's code builds."""
    from e3rg_core.understanding.ola.config import OryxViTConfig
    settings = {key: value for key, value in TINY_OLA_LLM.items() if key != "vision_config"}
    return {**settings, "mm_hidden_size": OryxViTConfig().width, "vocab_size": TINY_VOCAB}


def ola_config_json(bpe) -> dict:
    """Ola-7b's config.json: the Qwen2.5-7B fields and Ola's multimodal ones, at tiny sizes, with the leftovers
    of the authors' training set-up that the official file carries (encoder paths on their machine, LLaVA
    switches)."""
    return {**ola_llm_settings(),
            "_name_or_path": "/mnt/lzy/ola-model/Ola-7b", "speech_encoder": "/mnt/lzy/ola-model/large-v3.pt",
            "music_encoder": "/mnt/lzy/ola-model/BEATs_iter3_plus_AS2M_finetuned_on_AS2M_cpt2.pt",
            "attention_dropout": 0.0, "bos_token_id": bpe.id("<|endoftext|>"), "eos_token_id": bpe.id("<|im_end|>"),
            "hidden_act": "silu", "image_aspect_ratio": "pad", "initializer_range": 0.02, "max_window_layers": 28,
            "mm_patch_merge_type": "spatial_unpad", "mm_projector_lr": None, "mm_use_im_patch_token": False,
            "mm_use_im_start_end": False, "mm_vision_select_feature": "patch", "mm_vision_select_layer": -1,
            "rope_scaling": None, "sliding_window": 131072, "tokenizer_padding_side": "right",
            "transformers_version": "4.43.4", "tune_mm_mlp_adapter": False, "use_cache": True,
            "use_mm_proj": True, "use_sliding_window": False}


def tiny_ola_state(seed: int) -> dict[str, torch.Tensor]:
    """The state dict of a random tiny Ola-Omni (OryxViT tiny too): the fake repositories' LLM and speech
    encoders."""
    from e3rg_core.understanding.ola.config import BeatsConfig, OryxViTConfig, WhisperEncoderConfig, build_config
    from e3rg_core.understanding.ola.model import OlaForCausalLM
    settings = {key: value for key, value in TINY_OLA_LLM.items() if key != "vision_config"}
    config = build_config({**settings, "vocab_size": TINY_VOCAB}, WhisperEncoderConfig.from_dims(TINY_WHISPER_DIMS),
                          BeatsConfig.from_checkpoint_cfg(TINY_BEATS_CFG),
                          OryxViTConfig(**TINY_OLA_LLM["vision_config"]))
    torch.manual_seed(seed)
    return OlaForCausalLM(config).state_dict()


# Noise values the full-size OryxViT's tensors are cut from: drawing 431 M fresh ones would cost more than
# writing them, in every build.
NOISE_POOL = 1 << 22
VISION_PREFIX, PROJECTOR_PREFIX = "model.vision_tower.", "model.mm_projector."


def full_size_vision_state(seed: int) -> dict[str, torch.Tensor]:
    """OryxViT at the size Ola's code builds, random, in bf16: LayerNorms at one and zero, every other tensor a
    slice of a random pool at its own random offset."""
    from e3rg_core.understanding.ola.config import OryxViTConfig
    from e3rg_core.understanding.ola.vision import OryxVisionTower
    generator = torch.Generator().manual_seed(seed)
    pool = (torch.randn(NOISE_POOL, generator=generator) * 0.02).to(torch.bfloat16)
    with torch.device("meta"):
        tower = OryxVisionTower(OryxViTConfig())
    state = {}
    for key, tensor in tower.state_dict().items():
        if ".norm" in key:
            state[key] = (torch.ones if key.endswith(".weight") else torch.zeros)(tensor.shape, dtype=torch.bfloat16)
            continue
        start = int(torch.randint(NOISE_POOL, (1,), generator=generator))
        noise = pool.roll(-start).repeat(-(-tensor.numel() // NOISE_POOL))
        state[key] = noise[:tensor.numel()].reshape(tensor.shape).clone()
    return state


def ola_7b_state(seed: int) -> dict[str, torch.Tensor]:
    """The state dict of the fake Ola-7b: tiny_ola_state's LLM and speech encoders, the full-size OryxViT (bf16)
    and a vision projector that reads its width, in the order of the model that ola_llm_settings() describes."""
    from e3rg_core.understanding.ola.config import BeatsConfig, OryxViTConfig, WhisperEncoderConfig, build_config
    from e3rg_core.understanding.ola.loading import expected_shapes
    from e3rg_core.understanding.ola.projectors import OlaVisionProjector
    state = {key: value for key, value in tiny_ola_state(seed).items()
             if not key.startswith((VISION_PREFIX, PROJECTOR_PREFIX))}
    torch.manual_seed(seed)
    projector = OlaVisionProjector(OryxViTConfig().width, TINY_OLA_LLM["hidden_size"])
    state.update({PROJECTOR_PREFIX + key: value for key, value in projector.state_dict().items()})
    state.update({VISION_PREFIX + key: value for key, value in full_size_vision_state(seed).items()})
    config = build_config(ola_llm_settings(), WhisperEncoderConfig.from_dims(TINY_WHISPER_DIMS),
                          BeatsConfig.from_checkpoint_cfg(TINY_BEATS_CFG))
    shapes = expected_shapes(config)
    if {key: tuple(value.shape) for key, value in state.items()} != shapes:
        raise AssertionError("the fake Ola-7b's tensors do not match the model its config.json describes")
    return {key: state[key] for key in shapes}


def write_ola_7b(folder: Path, seed: int) -> None:
    """Four bf16 shards (the speech encoders' weights included, as the official 17.9 GB imply), config.json,
    generation_config.json and the Qwen2.5 tokenizer files (the official repository has no tokenizer.json)."""
    bpe = small_bpe(TINY_MERGES, QWEN2_5_ADDED)
    write_shards({key: value.to(torch.bfloat16) for key, value in ola_7b_state(seed).items()}, folder, 4)
    write_json(folder / "config.json", ola_config_json(bpe))
    write_json(folder / "generation_config.json", generation_config(
        bpe, do_sample=True, repetition_penalty=1.05, temperature=0.7, top_k=20, top_p=0.8))
    write_qwen_tokenizer(folder, bpe, model_max_length=16384, tokenizer_json=False)


def whisper_decoder_state(dims: dict, generator: torch.Generator) -> dict[str, torch.Tensor]:
    """The text-decoder half of an OpenAI Whisper checkpoint (Ola reads only the encoder)."""
    width, hidden = dims["n_text_state"], 4 * dims["n_text_state"]

    def random(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=generator) * 0.02

    state = {"decoder.token_embedding.weight": random(dims["n_vocab"], width),
             "decoder.positional_embedding": random(dims["n_text_ctx"], width)}
    for layer in range(dims["n_text_layer"]):
        block = f"decoder.blocks.{layer}"
        for attention in ("attn", "cross_attn"):
            for projection in ("query", "key", "value", "out"):
                state[f"{block}.{attention}.{projection}.weight"] = random(width, width)
                if projection != "key":         # Whisper's key projections have no bias
                    state[f"{block}.{attention}.{projection}.bias"] = random(width)
            state[f"{block}.{attention}_ln.weight"], state[f"{block}.{attention}_ln.bias"] = (
                torch.ones(width), torch.zeros(width))
        state.update({f"{block}.mlp.0.weight": random(hidden, width), f"{block}.mlp.0.bias": random(hidden),
                      f"{block}.mlp.2.weight": random(width, hidden), f"{block}.mlp.2.bias": random(width),
                      f"{block}.mlp_ln.weight": torch.ones(width), f"{block}.mlp_ln.bias": torch.zeros(width)})
    state["decoder.ln.weight"], state["decoder.ln.bias"] = torch.ones(width), torch.zeros(width)
    return state


def write_ola_speech_encoders(folder: Path, seed: int) -> None:
    """large-v3.pt as OpenAI publishes Whisper ({'dims', 'model_state_dict'}, fp16, encoder and decoder) and the
    fine-tuned BEATs checkpoint ({'cfg', 'model', 'label_dict'}, fp32), both in the zip format."""
    from e3rg_core.understanding.ola.loading import BEATS_FILE, BEATS_PREFIX, WHISPER_FILE, WHISPER_PREFIX
    state = tiny_ola_state(seed)
    generator = torch.Generator().manual_seed(seed)
    whisper = {"encoder." + key.removeprefix(WHISPER_PREFIX): value.half()
               for key, value in state.items() if key.startswith(WHISPER_PREFIX)}
    whisper.update({key: value.half() for key, value in whisper_decoder_state(TINY_WHISPER_DIMS, generator).items()})
    save_torch(folder / WHISPER_FILE, {"dims": dict(TINY_WHISPER_DIMS), "model_state_dict": whisper})
    beats = {key.removeprefix(BEATS_PREFIX): value.float() for key, value in state.items()
             if key.startswith(BEATS_PREFIX)}
    labels = {index: f"/m/{index:05x}" for index in range(TINY_BEATS_CFG["predictor_class"])}   # AudioSet ids
    save_torch(folder / BEATS_FILE, {"cfg": {**TINY_BEATS_CFG, "layer_wise_gradient_decay_ratio": 0.6,
                                             "dropout": 0.0, "attention_dropout": 0.0, "activation_dropout": 0.0,
                                             "encoder_layerdrop": 0.05, "dropout_input": 0.0,
                                             "predictor_dropout": 0.0},
                                     "model": beats, "label_dict": labels})


# -- Qwen/Qwen2.5-Omni-7B -----------------------------------------------------------------------------------
def tiny_omni_full_config(bpe):
    """Qwen2_5OmniConfig of a tiny thinker + talker + token2wav (the official config.json is the whole model's)."""
    from transformers import Qwen2_5OmniConfig
    rope = {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [2, 3, 3]}
    media = dict(audio_token_index=bpe.id("<|AUDIO|>"), image_token_index=bpe.id("<|IMAGE|>"),
                 video_token_index=bpe.id("<|VIDEO|>"), audio_start_token_id=bpe.id("<|audio_bos|>"),
                 audio_end_token_id=bpe.id("<|audio_eos|>"), vision_start_token_id=bpe.id("<|vision_bos|>"),
                 vision_end_token_id=bpe.id("<|vision_eos|>"))
    thinker = dict(
        text_config=dict(vocab_size=TINY_VOCAB, hidden_size=LLM_WIDTH, intermediate_size=2 * LLM_WIDTH,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=32768, tie_word_embeddings=False, rope_parameters=rope),
        vision_config=dict(depth=2, hidden_size=32, intermediate_size=64, num_heads=2, patch_size=14,
                           spatial_merge_size=2, temporal_patch_size=2, window_size=112, out_hidden_size=LLM_WIDTH,
                           fullatt_block_indexes=[1]),
        audio_config=dict(d_model=32, encoder_layers=2, encoder_attention_heads=2, encoder_ffn_dim=64,
                          num_mel_bins=128, max_source_positions=1500, n_window=100, output_dim=LLM_WIDTH),
        user_token_id=bpe.id("<|im_start|>"), **media)
    # The talker's own codec vocabulary (8448, codec ids from 8292) keeps its size: token2wav embeds every code.
    talker = dict(vocab_size=8448, embedding_size=LLM_WIDTH, hidden_size=32, intermediate_size=64,
                  num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1, head_dim=16,
                  rope_parameters=rope, tts_text_start_token_id=bpe.id("<|box_end|>"),
                  tts_text_end_token_id=bpe.id("<|quad_start|>"), tts_text_pad_token_id=bpe.id("<|quad_end|>"),
                  **media)
    token2wav = dict(
        dit_config=dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, head_dim=8, emb_dim=16,
                        mel_dim=80, enc_emb_dim=16, enc_dim=16, enc_channels=[32, 32, 32, 32, 96],
                        enc_attention_channels=16, enc_se_channels=16, look_ahead_layers=[1],
                        look_backward_layers=[0], num_embeds=8448),
        bigvgan_config=dict(mel_dim=80, upsample_initial_channel=32, upsample_rates=[4, 4],
                            upsample_kernel_sizes=[8, 8], resblock_kernel_sizes=[3],
                            resblock_dilation_sizes=[[1, 3, 5]]))
    return Qwen2_5OmniConfig(thinker_config=thinker, talker_config=talker, token2wav_config=token2wav,
                             enable_audio_output=True)


def write_qwen_omni(folder: Path, seed: int) -> None:
    """The whole tiny model (thinker, talker, token2wav) in bf16, saved by save_pretrained (which writes the
    official key names: thinker.model.*, thinker.audio_tower.*, talker.*, token2wav.*), split into five shards;
    the processor's preprocessor_config.json; the tokenizer files with tokenizer.json; chat_template.json and
    spk_dict.pt are left out (not read)."""
    import tempfile

    from safetensors.torch import load_file
    from transformers import Qwen2_5OmniForConditionalGeneration, WhisperFeatureExtractor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    bpe = small_bpe(TINY_MERGES, QWEN2_5_OMNI_ADDED)
    torch.manual_seed(seed)
    model = Qwen2_5OmniForConditionalGeneration(tiny_omni_full_config(bpe)).to(torch.bfloat16)
    with tempfile.TemporaryDirectory() as saved:
        model.save_pretrained(saved)
        state = load_file(str(Path(saved) / "model.safetensors"))
        config = json.loads((Path(saved) / "config.json").read_text())
    write_shards(state, folder, 5)
    write_json(folder / "config.json", {**config, "architectures": ["Qwen2_5OmniModel"]})
    write_json(folder / "generation_config.json", generation_config(bpe, do_sample=False))
    features = WhisperFeatureExtractor(feature_size=128, sampling_rate=16_000)
    images = Qwen2VLImageProcessorPil(min_pixels=3136, max_pixels=12845056, patch_size=14, merge_size=2,
                                      temporal_patch_size=2)
    write_json(folder / "preprocessor_config.json",
               {**features.to_dict(), **images.to_dict(), "processor_class": "Qwen2_5OmniProcessor"})
    write_qwen_tokenizer(folder, bpe, model_max_length=32768, tokenizer_json=True)


# -- myshell-ai/OpenVoice -----------------------------------------------------------------------------------
# The official V1 files' signal settings: 22,050 Hz, 1024-point spectrograms, a 256-sample hop that the decoder's
# upsampling makes up (8x8x2x2). tiny.py's 32-sample hop makes speech 8 times shorter than the same text takes
# from a trained model; with these, a reply becomes seconds of speech, as it does on the Space.
OPENVOICE_SIGNAL = {"filter_length": 1024, "hop_length": 256, "win_length": 1024}
OPENVOICE_UPSAMPLING = {"upsample_rates": [8, 8, 2, 2], "upsample_kernel_sizes": [16, 16, 4, 4]}


def openvoice_configs() -> tuple[dict, dict]:
    """tiny.py's OpenVoice V1 widths with the official signal settings, and the training sections the official
    files carry (ignored by loaders)."""
    base, converter = tiny_openvoice_configs()
    train = {"log_interval": 200, "eval_interval": 1000, "seed": 52, "epochs": 10000, "learning_rate": 0.0002,
             "betas": [0.8, 0.99], "eps": 1e-09, "batch_size": 32, "fp16_run": False, "lr_decay": 0.999875,
             "segment_size": 8192, "init_lr_ratio": 1, "warmup_epochs": 0, "c_mel": 45, "c_kl": 1.0}
    data = {"max_wav_value": 32768.0, "n_mel_channels": 80, "mel_fmin": 0.0, "mel_fmax": None}
    base = {"train": train, **base, "data": {**base["data"], **data, **OPENVOICE_SIGNAL, "cleaned_text": True,
                                             "training_files": "filelists/train.txt",
                                             "validation_files": "filelists/val.txt"},
            "model": {**base["model"], **OPENVOICE_UPSAMPLING}}
    converter = {"train": train, **converter, "data": {**converter["data"], **data, **OPENVOICE_SIGNAL},
                 "model": {**converter["model"], **OPENVOICE_UPSAMPLING}}
    return base, converter


def write_openvoice(folder: Path, seed: int) -> None:
    """V1: the EN base speaker and the converter (config.json + checkpoint.pth {'model': state dict}) and the
    base speaker's two tone colours (plain [1, gin, 1] tensors)."""
    from e3rg_core.generation.openvoice.checkpoints import CONVERTER_FILES, EN_BASE_SPEAKER_FILES
    from e3rg_core.generation.openvoice.config import BaseSpeakerConfig, ConverterConfig
    from e3rg_core.generation.openvoice.converter import ToneColorConverterNet
    from e3rg_core.generation.openvoice.synthesizer import BaseSpeakerNet
    torch.manual_seed(seed)
    base_config, converter_config = openvoice_configs()
    base = BaseSpeakerNet(BaseSpeakerConfig.from_dict(base_config)).state_dict()
    converter = ToneColorConverterNet(ConverterConfig.from_dict(converter_config)).state_dict()
    gin = OPENVOICE_DECODER["gin_channels"]
    files, converter_files = EN_BASE_SPEAKER_FILES, CONVERTER_FILES["v1"]
    write_json(folder / files.config.filename, base_config)
    save_torch(folder / files.checkpoint.filename, {"model": base})
    save_torch(folder / files.default_se.filename, torch.randn(1, gin, 1))
    save_torch(folder / files.style_se.filename, torch.randn(1, gin, 1))
    write_json(folder / converter_files.config.filename, converter_config)
    save_torch(folder / converter_files.checkpoint.filename, {"model": converter})


# -- stabilityai/stable-video-diffusion-img2vid-xt, EEEELY/DICE-Talk, openai/whisper-tiny --------------------
def svd_unet_config() -> dict:
    """SVD-xt's unet/config.json with the widths shrunk to the least its GroupNorms take (32 groups) and one head
    per attention; the block types, the frame count, and a widening between blocks (which gives resnets their
    shortcut convolutions) kept. One call of this UNet on a 64 px window takes about 0.14 CPU-seconds."""
    return {"_class_name": "UNetSpatioTemporalConditionModel", "_diffusers_version": "0.24.0.dev0",
            "_name_or_path": "/home/user/.cache/huggingface/hub/models--diffusers--svd-xt/snapshots/x/unet",
            "addition_time_embed_dim": 8, "block_out_channels": [32, 32, 64, 64],
            "cross_attention_dim": TINY_CROSS_ATTENTION,
            "down_block_types": ["CrossAttnDownBlockSpatioTemporal"] * 3 + ["DownBlockSpatioTemporal"],
            "in_channels": 8, "layers_per_block": 1, "num_attention_heads": [1, 1, 1, 1], "num_frames": 25,
            "out_channels": 4, "projection_class_embeddings_input_dim": 24, "sample_size": 96,
            "transformer_layers_per_block": 1,
            "up_block_types": ["UpBlockSpatioTemporal"] + ["CrossAttnUpBlockSpatioTemporal"] * 3}


SVD_SCHEDULER_CONFIG = {"_class_name": "EulerDiscreteScheduler", "_diffusers_version": "0.24.0.dev0"}


def write_svd(folder: Path, seed: int) -> None:
    """The SVD-xt files DICE-Talk reads: unet/config.json, scheduler config, and the fp16 VAE and CLIP image
    encoder (diffusers' and transformers' save_pretrained with variant fp16, as the official repository)."""
    from diffusers import AutoencoderKLTemporalDecoder
    from transformers import CLIPVisionConfig, CLIPVisionModelWithProjection

    from e3rg_core.generation.dicetalk.tiny import SVD_XT_SCHEDULER_CONFIG
    torch.manual_seed(seed)
    write_json(folder / "unet" / "config.json", svd_unet_config())
    write_json(folder / "scheduler" / "scheduler_config.json", {**SVD_SCHEDULER_CONFIG, **SVD_XT_SCHEDULER_CONFIG})
    vae = AutoencoderKLTemporalDecoder(block_out_channels=(32, 32, 32, 32), layers_per_block=1,
                                       down_block_types=("DownEncoderBlock2D",) * 4)
    vae.half().save_pretrained(folder / "vae", variant="fp16")
    clip = CLIPVisionModelWithProjection(CLIPVisionConfig(
        hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2, image_size=224,
        patch_size=14, projection_dim=TINY_CROSS_ATTENTION))
    clip.half().save_pretrained(folder / "image_encoder", variant="fp16")


def tiny_whisper_config():
    """openai/whisper-tiny's config at tiny widths (80 mel bins and the vocabulary kept)."""
    from transformers import WhisperConfig
    return WhisperConfig(d_model=16, encoder_layers=2, decoder_layers=1, encoder_attention_heads=2,
                         decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32, num_mel_bins=80)


def write_whisper_tiny(folder: Path, seed: int) -> None:
    from transformers import WhisperFeatureExtractor, WhisperForConditionalGeneration
    torch.manual_seed(seed)
    WhisperForConditionalGeneration(tiny_whisper_config()).save_pretrained(folder)
    WhisperFeatureExtractor(feature_size=80).save_pretrained(folder)


def write_dicetalk(folder: Path, seed: int) -> None:
    """DICE-Talk's four module checkpoints (plain state dicts) and RIFE's flownet.pkl (its state dict under the
    DataParallel 'module.' prefix, in the pre-zip format, which the loader must also read), sized as the loader
    sizes them from the SVD and whisper-tiny configs above."""
    from e3rg_core.generation.dicetalk.checkpoints import (AUDIO_PROJECTION_WEIGHTS, EMOTION_MODEL_WEIGHTS,
                                                   INTERPOLATOR_WEIGHTS, POSE_GUIDER_WEIGHTS, UNET_WEIGHTS,
                                                   module_configs)
    from e3rg_core.generation.dicetalk.audio_projection import AudioProjection
    from e3rg_core.generation.dicetalk.emotion_model import EmotionModel
    from e3rg_core.generation.dicetalk.interpolation import FrameInterpolator
    from e3rg_core.generation.dicetalk.pose_guider import PoseGuider
    from e3rg_core.generation.dicetalk.unet import DiceTalkUNet
    torch.manual_seed(seed)
    unet_config = svd_unet_config()
    configs = module_configs(unet_config, tiny_whisper_config())
    unet = DiceTalkUNet(**{key: value for key, value in unet_config.items() if not key.startswith("_")})
    for name, module in ((UNET_WEIGHTS, unet), (POSE_GUIDER_WEIGHTS, PoseGuider(configs.pose_guider)),
                         (AUDIO_PROJECTION_WEIGHTS, AudioProjection(configs.audio_projection)),
                         (EMOTION_MODEL_WEIGHTS, EmotionModel(configs.emotion_model))):
        save_torch(folder / name, module.state_dict())
    save_torch(folder / INTERPOLATOR_WEIGHTS,
               {"module." + key: value for key, value in FrameInterpolator().state_dict().items()}, legacy=True)


FAKE_REPOS = (FakeRepo(OLA_REPO, write_ola_7b), FakeRepo(SPEECH_REPO, write_ola_speech_encoders),
              FakeRepo(QWEN_OMNI_REPO, write_qwen_omni), FakeRepo(V1_REPO, write_openvoice),
              FakeRepo(SVD_REPO, write_svd), FakeRepo(DICETALK_REPO, write_dicetalk),
              FakeRepo(WHISPER_REPO, write_whisper_tiny))
