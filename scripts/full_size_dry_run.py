"""Full-size dry run of the full tier on the CPU: every GPU engine at its official size, with random weights.

    .venv/bin/python scripts/full_size_dry_run.py [--engines ola,qwen,openvoice,dicetalk] [--out PATH]

Each engine's random weights are written in the official files and layouts (safetensors shards with their index,
the .pt/.pth pickles, config files) and loaded through the project's own loader, placed and typed as the Space
places them: Ola-Omni-7B and the Qwen2.5-Omni thinker with their LLM in 4-bit NF4 (bitsandbytes' CPU kernels),
OpenVoice and DICE-Talk in float32 (a CPU has no fast float16). Then one step of each runs:
- Ola-Omni: the emotion vote on a short text + 3 s of speech + 8 frames (encoders, prefill, 8 sampled tokens);
- Qwen2.5-Omni: the same vote through the thinker;
- OpenVoice: one short sentence, base speaker then tone colour conversion to an avatar's voice;
- DICE-Talk: the conditioning of a portrait and 2 s of speech at 512 px, one UNet call (one 25-frame window,
  three guidance branches: one window of one denoising step) and the VAE decode of one frame.

Engines run one at a time, each in its own process (so memory is given back between them), and the script records
for each: seconds to write the random files, seconds to load them (build), peak resident and peak anonymous memory,
seconds of the step, the parameter count against the full-size key manifest (shared/golden, copied below), and the
GPU memory of the weights in the Space's dtype. It prints a table and writes JSON. Exits 1 if any engine failed.

Where an official file could not be read here (no hub access), its content is derived as said where it is written:
Ola's config.json from the golden key manifest's config (Qwen2.5-7B-Instruct's values + Ola's), OpenVoice's V1
config.json files from the golden reconstructions (whose parameter counts fit the official checkpoint sizes).
Tokenizers are small byte-level BPEs in the official file layout; special-token ids follow them (they shape nothing).
--miniature runs the same code paths at toy sizes in seconds (tests/scripts/test_full_size_dry_run.py).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "full_size_dry_run.json"
ENGINES = ("ola", "qwen", "openvoice", "dicetalk")
GIB = 2 ** 30
SEED = 0
BPE_MERGES = 40_000         # enough merges that English prompts take about as many tokens as with Qwen2.5's BPE

# Parameter counts of the full-size key manifests in shared/golden (elements of every state-dict tensor):
# openvoice/base_speaker_en_keys.json, openvoice/converter_v1_keys.json; dicetalk/unet_keys.json,
# pose_guider_keys.json, audio_proj_keys.json, emotion_keys.json. Ola's are in ola/cost.py (ola7b_keys.json).
MANIFEST_OPENVOICE = {"base speaker": 40_048_945, "converter": 32_792_226}
MANIFEST_DICETALK = {"unet": 1_626_859_242, "pose_guider": 1_086_480, "audio_projection": 54_300_672,
                     "emotion_model": 74_860_822}


# -- measuring ---------------------------------------------------------------------------------------------
class PeakMemory:
    """Peak resident (VmRSS) and anonymous (RssAnon: not file pages, which a memory-mapped checkpoint adds to
    VmRSS and the kernel can drop) memory of this process, sampled every 50 ms; reset() starts a new phase."""

    def __init__(self) -> None:
        self.rss = self.anon = 0
        self._stop = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    @staticmethod
    def now() -> tuple[int, int]:
        fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
                      if line.startswith(("VmRSS", "RssAnon")))
        return tuple(int(fields.get(name, "0 kB").split()[0]) * 1024 for name in ("VmRSS", "RssAnon"))

    def _watch(self) -> None:
        while not self._stop.wait(0.05):
            self.sample()

    def sample(self) -> None:
        rss, anon = self.now()
        self.rss, self.anon = max(self.rss, rss), max(self.anon, anon)

    def reset(self) -> None:
        self.rss, self.anon = self.now()

    def peaks(self) -> dict:
        self.sample()
        return {"peak_rss_gib": round(self.rss / GIB, 2), "peak_anon_gib": round(self.anon / GIB, 2)}


def timed(action: Callable[[], object]) -> tuple[object, float]:
    started = time.perf_counter()
    result = action()
    return result, round(time.perf_counter() - started, 2)


# -- writing random weights in the official layouts ----------------------------------------------------------
def random_tensor(key: str, shape: tuple[int, ...], dtype, generator):
    """N(0, 0.02), and ones for 1-D norm scales, so activations stay finite through dozens of random layers."""
    import torch
    if len(shape) == 1 and key.endswith("weight") and ("norm" in key or "ln" in key.rsplit(".", 2)[-2]):
        return torch.ones(shape, dtype=dtype)
    return torch.empty(shape, dtype=dtype).normal_(0.0, 0.02, generator=generator)


def random_state(shapes: dict[str, tuple[int, ...]], dtype, seed: int = SEED) -> dict:
    import torch
    generator = torch.Generator().manual_seed(seed)
    return {key: random_tensor(key, shape, dtype, generator) for key, shape in shapes.items()}


def write_random_shards(shapes: dict[str, tuple[int, ...]], folder: Path, count: int, dtype,
                        seed: int = SEED) -> None:
    """model-0000i-of-0000n.safetensors of about equal size and model.safetensors.index.json, as save_pretrained
    writes them; one shard is held in memory at a time."""
    import torch
    from safetensors.torch import save_file
    generator = torch.Generator().manual_seed(seed)
    itemsize = torch.empty((), dtype=dtype).element_size()
    sizes = {key: itemsize * int(torch.Size(shape).numel()) for key, shape in shapes.items()}
    total, done, weight_map = sum(sizes.values()), 0, {}
    names = [f"model-{index:05d}-of-{count:05d}.safetensors" for index in range(1, count + 1)]
    pending: dict = {}
    for key, shape in shapes.items():
        shard = min(count - 1, done * count // total)
        if pending and weight_map[next(iter(pending))] != names[shard]:
            save_file(pending, str(folder / weight_map[next(iter(pending))]), metadata={"format": "pt"})
            pending = {}
        weight_map[key] = names[shard]
        pending[key] = random_tensor(key, shape, dtype, generator)
        done += sizes[key]
    save_file(pending, str(folder / weight_map[next(iter(pending))]), metadata={"format": "pt"})
    (folder / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map}, indent=2))


def meta_shapes(build: Callable[[], object]) -> dict[str, tuple[int, ...]]:
    """Every state-dict key and shape of a module built on the meta device."""
    import torch
    with torch.device("meta"):
        module = build()
    return {key: tuple(tensor.shape) for key, tensor in module.state_dict().items()}


def elements(shapes: dict[str, tuple[int, ...]]) -> int:
    import math
    return sum(math.prod(shape) for shape in shapes.values())


def bytes_by_dtype(modules: Iterable) -> dict[str, int]:
    """Bytes of every parameter and buffer as stored, by dtype (4-bit weights are uint8 pairs of codes, their
    quantisation statistics counted with them)."""
    seen, totals = set(), {}
    for module in modules:
        for tensor in (*module.parameters(), *module.buffers()):
            if id(tensor) in seen:
                continue
            seen.add(id(tensor))
            name = str(tensor.dtype).removeprefix("torch.")
            size = tensor.numel() * tensor.element_size()
            state = getattr(tensor, "quant_state", None)
            if state is not None:
                name = "nf4"
                size += state.absmax.numel() * state.absmax.element_size()
                if getattr(state, "nested", False):
                    size += state.state2.absmax.numel() * state.state2.absmax.element_size()
            totals[name] = totals.get(name, 0) + size
    return totals


def weight_bytes(modules: Iterable) -> int:
    return sum(bytes_by_dtype(modules).values())


def gib_by_dtype(modules: Iterable) -> dict[str, float]:
    return {name: round(size / GIB, 3) for name, size in bytes_by_dtype(modules).items()}


def write_qwen_tokenizer_files(folder: Path, omni: bool, miniature: bool):
    from e3rg_dev.hub_rehearsal.qwen_tokenizer import (QWEN2_5_ADDED, QWEN2_5_OMNI_ADDED, small_bpe,
                                                        write_qwen_tokenizer)
    bpe = small_bpe(200 if miniature else BPE_MERGES, QWEN2_5_OMNI_ADDED if omni else QWEN2_5_ADDED)
    write_qwen_tokenizer(folder, bpe, model_max_length=32768 if omni else 16384, tokenizer_json=omni)
    generation = {"bos_token_id": bpe.id("<|endoftext|>"), "pad_token_id": bpe.id("<|endoftext|>"),
                  "eos_token_id": [bpe.id("<|im_end|>"), bpe.id("<|endoftext|>")]}
    (folder / "generation_config.json").write_text(json.dumps(generation, indent=2))
    return bpe


# -- inputs --------------------------------------------------------------------------------------------------
def sample_request(seconds: float = 3.0, frames: int = 8, size: tuple[int, int] = (320, 240)):
    """Text + speech-like audio + video frames, the synthetic turn every understanding engine reads."""
    import numpy as np
    from e3rg_core.contracts import AudioClip, UnderstandingRequest, Utterance, VideoClip
    rng = np.random.default_rng(SEED)
    t = np.arange(int(seconds * 16_000)) / 16_000
    voice = 0.3 * np.sin(2 * np.pi * 180 * t) * (0.6 + 0.4 * np.sin(2 * np.pi * 3 * t))
    width, height = size
    video = VideoClip(rng.integers(0, 256, (frames, height, width, 3), dtype=np.uint8),
                      np.arange(frames) / frames * seconds, seconds, frames / seconds)
    return UnderstandingRequest(history=(Utterance(0, "speaker", "I finally got the job I wanted after a year!"),),
                                audio=AudioClip(voice.astype(np.float32), 16_000), video=video)


# -- Ola-Omni ------------------------------------------------------------------------------------------------
def ola_official(miniature: bool) -> tuple[dict, dict, dict]:
    """config.json, Whisper large-v3's dims and BEATs' cfg. Ola-7b's config.json could not be read here: its
    LLM fields are the golden manifest's (Qwen2.5-7B-Instruct, which Ola-7b is fine-tuned from), its multimodal
    fields Ola's training script's, and the leftovers of the authors' set-up (encoder paths on their machine)
    are kept as the research notes report them. OryxViT's shape is not in the file: Ola's code fixes it."""
    llm = dict(vocab_size=152064, hidden_size=3584, intermediate_size=18944, num_hidden_layers=28,
               num_attention_heads=28, num_key_value_heads=4, max_position_embeddings=32768)
    whisper = dict(n_mels=128, n_audio_ctx=1500, n_audio_state=1280, n_audio_head=20, n_audio_layer=32,
                   n_vocab=51866, n_text_ctx=448, n_text_state=1280, n_text_head=20, n_text_layer=32)
    beats = dict(input_patch_size=16, embed_dim=512, conv_bias=False, encoder_layers=12, encoder_embed_dim=768,
                 encoder_ffn_embed_dim=3072, encoder_attention_heads=12, activation_fn="gelu",
                 layer_wise_gradient_decay_ratio=0.6, layer_norm_first=False, deep_norm=True, dropout=0.0,
                 attention_dropout=0.0, activation_dropout=0.0, encoder_layerdrop=0.05, dropout_input=0.0,
                 conv_pos=128, conv_pos_groups=16, relative_position_embedding=True, num_buckets=320,
                 max_distance=800, gru_rel_pos=True, finetuned_model=True, predictor_dropout=0.0,
                 predictor_class=527)
    mm_hidden = 1152
    extra = {}
    if miniature:
        llm = dict(vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                   num_key_value_heads=2, max_position_embeddings=32768)
        whisper = {**whisper, "n_audio_state": 32, "n_audio_head": 2, "n_audio_layer": 1}
        beats = {**beats, "embed_dim": 24, "encoder_layers": 2, "encoder_embed_dim": 16, "encoder_ffn_embed_dim": 32,
                 "encoder_attention_heads": 2}
        mm_hidden = 32
        extra = {"vision_config": dict(width=32, depth=1, heads=2, mlp_hidden=64)}   # a miniature OryxViT
    config = {
        "_name_or_path": "/mnt/lzy/ola-model/Ola-7b", "architectures": ["OlaQwenForCausalLM"],
        "model_type": "ola_qwen", **llm, "hidden_act": "silu", "initializer_range": 0.02, "rms_norm_eps": 1e-06,
        "rope_theta": 1000000.0, "rope_scaling": None, "tie_word_embeddings": False, "use_cache": True,
        "use_sliding_window": False, "sliding_window": 131072, "max_window_layers": 28, "attention_dropout": 0.0,
        "bos_token_id": 151643, "eos_token_id": 151645, "torch_dtype": "bfloat16", "transformers_version": "4.43.4",
        "mm_vision_tower": "OryxViT", "mm_projector_type": "ola_mlp", "mm_hidden_size": mm_hidden,
        "mm_vision_select_layer": -1, "mm_vision_select_feature": "patch", "mm_use_im_start_end": False,
        "mm_use_im_patch_token": False, "mm_patch_merge_type": "spatial_unpad", "image_aspect_ratio": "pad",
        "speech_encoder": "/mnt/lzy/ola-model/large-v3.pt",
        "music_encoder": "/mnt/lzy/ola-model/BEATs_iter3_plus_AS2M_finetuned_on_AS2M_cpt2.pt",
        "speech_encoder_type": "dual", "speech_projector_type": "linear", "speech_encoder_ds_rate": 10,
        "speech_encoder_hidden_size": whisper["n_audio_state"] + beats["encoder_embed_dim"],
        "tokenizer_model_max_length": 16384, "tokenizer_padding_side": "right", **extra}
    return config, whisper, beats


def ola_model_config(config: dict, whisper: dict, beats: dict):
    from e3rg_core.understanding.ola.config import BeatsConfig, OryxViTConfig, WhisperEncoderConfig, build_config
    settings = {key: value for key, value in config.items() if key != "vision_config"}
    return build_config(settings, WhisperEncoderConfig.from_dims(whisper), BeatsConfig.from_checkpoint_cfg(beats),
                        OryxViTConfig(**config.get("vision_config", {})))


def write_ola(folder: Path, miniature: bool):
    """THUdyh/Ola-7b (config.json, four bf16 shards holding the speech encoders too, as the official 17.9 GB
    imply, tokenizer files) and THUdyh/Ola_speech_encoders (large-v3.pt as {'dims', 'model_state_dict'} in fp16,
    its encoder half only, which is all Ola reads; BEATs as {'cfg', 'model'} in fp32)."""
    import torch
    from e3rg_core.understanding.ola.loading import (BEATS_FILE, BEATS_PREFIX, WHISPER_FILE, WHISPER_PREFIX,
                                                     OlaFiles, expected_shapes)
    config, whisper, beats = ola_official(miniature)
    shapes = expected_shapes(ola_model_config(config, whisper, beats))
    write_random_shards(shapes, folder, 4, torch.bfloat16)
    (folder / "config.json").write_text(json.dumps(config, indent=2))
    write_qwen_tokenizer_files(folder, omni=False, miniature=miniature)
    encoder = {"encoder." + key.removeprefix(WHISPER_PREFIX): shape for key, shape in shapes.items()
               if key.startswith(WHISPER_PREFIX)}
    torch.save({"dims": whisper, "model_state_dict": random_state(encoder, torch.float16, SEED + 1)},
               folder / WHISPER_FILE)
    beats_state = {key.removeprefix(BEATS_PREFIX): shape for key, shape in shapes.items()
                   if key.startswith(BEATS_PREFIX)}
    torch.save({"cfg": beats, "model": random_state(beats_state, torch.float32, SEED + 2)}, folder / BEATS_FILE)
    return OlaFiles(folder, folder / WHISPER_FILE, folder / BEATS_FILE)


def run_ola(folder: Path, miniature: bool, memory: PeakMemory) -> dict:
    from e3rg_core.settings import MAX_EMOTION_TOKENS
    from e3rg_core.understanding.ola import cost
    from e3rg_core.understanding.ola.engine import OlaEmotionVoter, OlaRuntime
    from e3rg_core.understanding.ola.loading import expected_shapes
    from e3rg_core.understanding.prompts import emotion_prompt
    files, write_seconds = timed(lambda: write_ola(folder, miniature))
    memory.reset()
    runtime, build_seconds = timed(lambda: OlaRuntime.from_pretrained(files, device="cpu", quantize=True))
    built = memory.peaks()
    request = sample_request()
    plan = runtime.processor.plan(request, emotion_prompt(request))
    memory.reset()
    vote, step_seconds = timed(lambda: OlaEmotionVoter(runtime).vote(request))
    config, whisper, beats = ola_official(miniature)
    parameters = elements(expected_shapes(ola_model_config(config, whisper, beats)))
    manifest = (cost.DECODER_LINEAR_PARAMS + 2 * cost.EMBEDDING_PARAMS + cost.OTHER_LLM_PARAMS + cost.VISION_PARAMS
                + cost.PROJECTOR_PARAMS + cost.WHISPER_PARAMS + cost.BEATS_PARAMS)
    projected = cost.estimate_generation(plan.frames, plan.vit_tokens, plan.sequence_tokens, plan.speech_chunks,
                                         MAX_EMOTION_TOKENS, quantized=True)
    return {"engine": "Ola-Omni-7B", "dtype": "LLM NF4 (bf16 compute), towers bf16, BEATs fp32",
            "write_seconds": write_seconds, "build_seconds": build_seconds, "build_memory": built,
            "step": f"emotion vote: {plan.sequence_tokens} tokens in ({plan.frames} frames, {plan.vit_tokens} ViT "
                    f"patches, {plan.speech_chunks} speech chunk), {MAX_EMOTION_TOKENS} tokens out",
            "step_seconds": step_seconds, "step_memory": memory.peaks(), "answer": vote.raw,
            "parameters": parameters, "manifest_parameters": None if miniature else manifest,
            "weights_gib": round(weight_bytes([runtime.model]) / GIB, 2),
            "weights_by_dtype_gib": gib_by_dtype([runtime.model]),
            "projected_weights_gib": round(cost.weight_bytes(True) / GIB, 2),
            "projected_gpu_gib": round(projected.gpu_bytes / GIB, 2)}


# -- Qwen2.5-Omni thinker ------------------------------------------------------------------------------------
# The checkpoint's key prefixes (as Qwen/Qwen2.5-Omni-7B's shards and transformers' save_pretrained name them) for
# the thinker module's own prefixes.
THINKER_CHECKPOINT_PREFIXES = (("model.language_model.", "thinker.model."),
                               ("model.audio_tower.", "thinker.audio_tower."), ("model.visual.", "thinker.visual."),
                               ("lm_head.", "thinker.lm_head."))


def checkpoint_key(key: str) -> str:
    for module_prefix, file_prefix in THINKER_CHECKPOINT_PREFIXES:
        if key.startswith(module_prefix):
            return file_prefix + key.removeprefix(module_prefix)
    raise ValueError(f"No checkpoint prefix for the thinker key {key}.")


def omni_config(bpe, miniature: bool) -> dict:
    """Qwen/Qwen2.5-Omni-7B's config.json (the whole model's; the thinker reads thinker_config). Thinker sizes
    as published: Qwen2.5-7B LLM (untied lm_head), a 32-layer 1280-wide window-attention ViT (full attention in
    layers 7, 15, 23, 31) and a Whisper-large-v3-sized audio encoder; token ids follow the small tokenizer."""
    from transformers import Qwen2_5OmniConfig
    text = dict(vocab_size=152064, hidden_size=3584, intermediate_size=18944, num_hidden_layers=28,
                num_attention_heads=28, num_key_value_heads=4, max_position_embeddings=32768, rms_norm_eps=1e-6,
                tie_word_embeddings=False, sliding_window=32768, use_sliding_window=False,
                rope_parameters={"rope_type": "default", "rope_theta": 1e6, "mrope_section": [16, 24, 24]})
    vision = dict(depth=32, embed_dim=1280, hidden_size=1280, intermediate_size=3420, num_heads=16, patch_size=14,
                  spatial_merge_size=2, temporal_patch_size=2, window_size=112, out_hidden_size=3584,
                  fullatt_block_indexes=[7, 15, 23, 31], hidden_act="silu", in_channels=3, tokens_per_second=2)
    audio = dict(d_model=1280, encoder_layers=32, encoder_attention_heads=20, encoder_ffn_dim=5120,
                 num_mel_bins=128, max_source_positions=1500, n_window=100, output_dim=3584)
    if miniature:
        text.update(vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                    num_key_value_heads=2, rope_parameters={**text["rope_parameters"], "mrope_section": [2, 3, 3]})
        vision.update(depth=2, embed_dim=32, hidden_size=32, intermediate_size=64, num_heads=2, out_hidden_size=64,
                      fullatt_block_indexes=[1])
        audio.update(d_model=32, encoder_layers=2, encoder_attention_heads=2, encoder_ffn_dim=64, output_dim=64)
    media = dict(audio_token_index=bpe.id("<|AUDIO|>"), image_token_index=bpe.id("<|IMAGE|>"),
                 video_token_index=bpe.id("<|VIDEO|>"), audio_start_token_id=bpe.id("<|audio_bos|>"),
                 audio_end_token_id=bpe.id("<|audio_eos|>"), vision_start_token_id=bpe.id("<|vision_bos|>"),
                 vision_end_token_id=bpe.id("<|vision_eos|>"))
    thinker = dict(text_config=text, vision_config=vision, audio_config=audio, user_token_id=bpe.id("<|im_start|>"),
                   position_id_per_seconds=25, seconds_per_chunk=2, **media)
    config = Qwen2_5OmniConfig(thinker_config=thinker, enable_audio_output=True).to_dict()
    return {**config, "architectures": ["Qwen2_5OmniModel"]}


def thinker_shapes(config: dict) -> dict[str, tuple[int, ...]]:
    from transformers import Qwen2_5OmniConfig, Qwen2_5OmniThinkerForConditionalGeneration
    thinker = Qwen2_5OmniConfig(**{k: v for k, v in config.items() if k != "architectures"}).thinker_config
    return meta_shapes(lambda: Qwen2_5OmniThinkerForConditionalGeneration(thinker))


def write_qwen(folder: Path, miniature: bool) -> dict[str, tuple[int, ...]]:
    """The thinker's weights in five bf16 shards under the official key names (the talker's and token2wav's,
    which the loader skips, are left out), config.json, preprocessor_config.json, tokenizer files."""
    import torch
    from transformers import WhisperFeatureExtractor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    bpe = write_qwen_tokenizer_files(folder, omni=True, miniature=miniature)
    config = omni_config(bpe, miniature)
    shapes = thinker_shapes(config)
    write_random_shards({checkpoint_key(key): shape for key, shape in shapes.items()}, folder, 5, torch.bfloat16)
    (folder / "config.json").write_text(json.dumps(config, indent=2))
    features = WhisperFeatureExtractor(feature_size=128, sampling_rate=16_000)
    images = Qwen2VLImageProcessorPil(min_pixels=3136, max_pixels=12845056, patch_size=14, merge_size=2,
                                      temporal_patch_size=2)
    (folder / "preprocessor_config.json").write_text(json.dumps(
        {**features.to_dict(), **images.to_dict(), "processor_class": "Qwen2_5OmniProcessor"}, default=str))
    return shapes


def run_qwen(folder: Path, miniature: bool, memory: PeakMemory) -> dict:
    from e3rg_core.settings import MAX_EMOTION_TOKENS
    from e3rg_core.understanding.qwen_omni_voter import QwenOmniVoter
    shapes, write_seconds = timed(lambda: write_qwen(folder, miniature))
    memory.reset()
    voter, build_seconds = timed(lambda: QwenOmniVoter.from_pretrained(folder, device="cpu", quantize=True))
    built = memory.peaks()
    request = sample_request()
    prompt_tokens = int(voter.inputs(request)["input_ids"].shape[1])
    memory.reset()
    vote, step_seconds = timed(lambda: voter.vote(request))
    weights = weight_bytes([voter.model])
    return {"engine": "Qwen2.5-Omni-7B thinker", "dtype": "LLM NF4 (bf16 compute), towers and lm_head bf16",
            "write_seconds": write_seconds, "build_seconds": build_seconds, "build_memory": built,
            "step": f"emotion vote: {prompt_tokens} tokens in (4 frames, 3 s audio), {MAX_EMOTION_TOKENS} out",
            "step_seconds": step_seconds, "step_memory": memory.peaks(), "answer": vote.raw,
            "parameters": elements(shapes), "manifest_parameters": None,
            "weights_gib": round(weights / GIB, 2), "projected_weights_gib": round(weights / GIB, 2),
            "weights_by_dtype_gib": gib_by_dtype([voter.model]), "projected_gpu_gib": None}


# -- OpenVoice -----------------------------------------------------------------------------------------------
def openvoice_configs(miniature: bool) -> tuple[dict, dict]:
    """The V1 EN base speaker's and converter's config.json. The official files could not be read here; these are
    the golden reconstructions (shared/golden/openvoice/*_config.assumed.json: VITS widths 192/768, 6 layers,
    HiFi-GAN 512 channels upsampling 8x8x2x2, 256-wide tone colours), whose parameter counts fit the official
    checkpoint sizes."""
    from e3rg_core.emotions import OPENVOICE_STYLES
    from e3rg_core.generation.openvoice.text import SYMBOLS
    signal = {"sampling_rate": 22_050, "filter_length": 1024, "hop_length": 256, "win_length": 1024}
    widths = {"inter_channels": 192, "hidden_channels": 192, "filter_channels": 768}
    decoder = {"resblock": "1", "resblock_kernel_sizes": [3, 7, 11], "resblock_dilation_sizes": [[1, 3, 5]] * 3,
               "upsample_rates": [8, 8, 2, 2], "upsample_initial_channel": 512,
               "upsample_kernel_sizes": [16, 16, 4, 4], "gin_channels": 256}
    if miniature:
        widths = {"inter_channels": 8, "hidden_channels": 16, "filter_channels": 32}
        decoder = {**decoder, "upsample_initial_channel": 16, "gin_channels": 16}
    base = {"data": {"text_cleaners": ["cjke_cleaners2"], "add_blank": True, "n_speakers": 10, **signal},
            "model": {**widths, "n_heads": 2, "n_layers": 6, "kernel_size": 3, "p_dropout": 0.1, "n_layers_q": 3,
                      "use_spectral_norm": False, **decoder},
            "symbols": list(SYMBOLS), "speakers": {style: row + 1 for row, style in enumerate(OPENVOICE_STYLES)}}
    converter = {"data": {"n_speakers": 0, **signal},
                 "model": {**widths, "n_heads": 2, "n_layers": 6, "kernel_size": 3, "p_dropout": 0.1, **decoder}}
    return base, converter


def write_openvoice(root: Path, miniature: bool) -> dict[str, int]:
    """root/<repo_id>/<filename>: config.json and checkpoint.pth ({'model': state dict}) of both networks, and the
    base speaker's two tone colours, all fp32 as published."""
    import torch
    from e3rg_core.generation.openvoice.checkpoints import CONVERTER_FILES, EN_BASE_SPEAKER_FILES
    from e3rg_core.generation.openvoice.config import BaseSpeakerConfig, ConverterConfig
    from e3rg_core.generation.openvoice.converter import ToneColorConverterNet
    from e3rg_core.generation.openvoice.synthesizer import BaseSpeakerNet
    from e3rg_dev.hub_rehearsal.tiny import write_repo_files
    base_config, converter_config = openvoice_configs(miniature)
    base = meta_shapes(lambda: BaseSpeakerNet(BaseSpeakerConfig.from_dict(base_config)))
    converter = meta_shapes(lambda: ToneColorConverterNet(ConverterConfig.from_dict(converter_config)))
    gin = base_config["model"]["gin_channels"]
    files, converter_files = EN_BASE_SPEAKER_FILES, CONVERTER_FILES["v1"]
    payloads = ((files.config, base_config), (files.checkpoint, {"model": random_state(base, torch.float32)}),
                (files.default_se, torch.randn(1, gin, 1)), (files.style_se, torch.randn(1, gin, 1)),
                (converter_files.config, converter_config),
                (converter_files.checkpoint, {"model": random_state(converter, torch.float32, SEED + 1)}))
    write_repo_files(root, payloads)
    return {"base speaker": elements(base), "converter": elements(converter)}


def run_openvoice(folder: Path, miniature: bool, memory: PeakMemory) -> dict:
    from e3rg_core.contracts import GenerationSettings
    from e3rg_core.generation.openvoice import OpenVoiceSpeechEngine
    from e3rg_core.memory.avatars import AvatarStore
    counts, write_seconds = timed(lambda: write_openvoice(folder, miniature))
    memory.reset()
    engine, build_seconds = timed(lambda: OpenVoiceSpeechEngine.from_pretrained(
        device="cpu", converter_version="v1", weights_dir=folder))
    built = memory.peaks()
    avatar = AvatarStore(folder / "avatars").get(None)
    sentence = "That is wonderful news, I am so happy for you!"
    memory.reset()
    speech, step_seconds = timed(lambda: engine.synthesize(sentence, "joyful", avatar, GenerationSettings(seed=0)))
    weights = weight_bytes([engine.base.net, engine.converter.net])
    return {"engine": "OpenVoice V1 (EN base speaker + converter)", "dtype": "fp32",
            "write_seconds": write_seconds, "build_seconds": build_seconds, "build_memory": built,
            "step": f"one sentence ({len(sentence)} chars) -> {speech.seconds:.2f} s of speech, converted "
                    "(the avatar's tone colour measured first)",
            "step_seconds": step_seconds, "step_memory": memory.peaks(),
            "parameters": sum(counts.values()),
            "manifest_parameters": None if miniature else sum(MANIFEST_OPENVOICE.values()),
            "parts": {name: [count, None if miniature else MANIFEST_OPENVOICE[name]] for name, count in counts.items()},
            "weights_gib": round(weights / GIB, 3), "projected_weights_gib": round(weights / GIB, 3),
            "projected_gpu_gib": None}


# -- DICE-Talk -----------------------------------------------------------------------------------------------
def dicetalk_configs(miniature: bool) -> dict:
    """SVD-xt's unet, vae and scheduler config.json (as published; copied in shared/golden/dicetalk/
    inference_config.json), its CLIP image encoder (OpenCLIP ViT-H/14 vision tower, 1024-d projection) and
    openai/whisper-tiny's encoder sizes."""
    unet = {"_class_name": "UNetSpatioTemporalConditionModel", "_diffusers_version": "0.24.0.dev0",
            "addition_time_embed_dim": 256, "block_out_channels": [320, 640, 1280, 1280],
            "cross_attention_dim": 1024,
            "down_block_types": ["CrossAttnDownBlockSpatioTemporal"] * 3 + ["DownBlockSpatioTemporal"],
            "in_channels": 8, "layers_per_block": 2, "num_attention_heads": [5, 10, 20, 20], "num_frames": 25,
            "out_channels": 4, "projection_class_embeddings_input_dim": 768, "sample_size": 96,
            "transformer_layers_per_block": 1,
            "up_block_types": ["UpBlockSpatioTemporal"] + ["CrossAttnUpBlockSpatioTemporal"] * 3}
    vae = {"_class_name": "AutoencoderKLTemporalDecoder", "_diffusers_version": "0.24.0.dev0",
           "block_out_channels": [128, 256, 512, 512], "down_block_types": ["DownEncoderBlock2D"] * 4,
           "force_upcast": True, "in_channels": 3, "latent_channels": 4, "layers_per_block": 2, "out_channels": 3,
           "sample_size": 768, "scaling_factor": 0.18215}
    clip = dict(hidden_size=1280, intermediate_size=5120, num_hidden_layers=32, num_attention_heads=16,
                image_size=224, patch_size=14, projection_dim=1024, hidden_act="gelu", layer_norm_eps=1e-5)
    whisper = dict(d_model=384, encoder_layers=4, decoder_layers=4, encoder_attention_heads=6,
                   decoder_attention_heads=6, encoder_ffn_dim=1536, decoder_ffn_dim=1536, num_mel_bins=80)
    if miniature:
        unet.update(block_out_channels=[32, 32, 64, 64], cross_attention_dim=32, layers_per_block=1,
                    num_attention_heads=[1, 1, 1, 1], addition_time_embed_dim=8,
                    projection_class_embeddings_input_dim=24)
        vae.update(block_out_channels=[32, 32, 32, 32], layers_per_block=1)
        clip.update(hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2,
                    projection_dim=32)
        whisper.update(d_model=16, encoder_layers=2, decoder_layers=1, encoder_attention_heads=2,
                       decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32)
    return {"unet": unet, "vae": vae, "clip": clip, "whisper": whisper}


def add_snapshot(cache: Path, repo_id: str, files: dict[str, Path]) -> None:
    """Files as a snapshot of repo_id in a Hugging Face hub cache (refs/main -> snapshots/<commit>/<name>), which
    hf_hub_download(local_files_only=True) resolves."""
    folder = cache / f"models--{repo_id.replace('/', '--')}"
    commit = "0" * 40
    for name, source in files.items():
        target = folder / "snapshots" / commit / name
        target.parent.mkdir(parents=True, exist_ok=True)
        source.rename(target)
    (folder / "refs").mkdir(parents=True, exist_ok=True)
    (folder / "refs" / "main").write_text(commit)


def write_dicetalk(cache: Path, miniature: bool) -> dict[str, int]:
    """The files DiceTalkPipeline.from_pretrained reads, in a hub cache: SVD-xt's configs and its fp16 VAE and
    CLIP image encoder (save_pretrained, variant fp16), DICE-Talk's four module checkpoints (plain state dicts;
    the UNet's in fp16, as its dtype is not known), RIFE's flownet.pkl ('module.' keys, legacy pickle format),
    whisper-tiny (config, safetensors, feature extractor)."""
    import torch
    from diffusers import AutoencoderKLTemporalDecoder
    from transformers import (CLIPVisionConfig, CLIPVisionModelWithProjection, WhisperConfig,
                              WhisperFeatureExtractor, WhisperForConditionalGeneration)
    from e3rg_core.generation.dicetalk import checkpoints as files
    from e3rg_core.generation.dicetalk.audio_projection import AudioProjection
    from e3rg_core.generation.dicetalk.emotion_model import EmotionModel
    from e3rg_core.generation.dicetalk.interpolation import FrameInterpolator
    from e3rg_core.generation.dicetalk.pose_guider import PoseGuider
    from e3rg_core.generation.dicetalk.tiny import SVD_XT_SCHEDULER_CONFIG
    from e3rg_core.generation.dicetalk.unet import DiceTalkUNet
    configs = dicetalk_configs(miniature)
    staged = cache / "staged"
    svd, dice, whisper_dir = staged / "svd", staged / "dice", staged / "whisper"
    torch.manual_seed(SEED)
    (svd / "unet").mkdir(parents=True)
    (svd / "scheduler").mkdir()
    (svd / "unet" / "config.json").write_text(json.dumps(configs["unet"], indent=2))
    (svd / "scheduler" / "scheduler_config.json").write_text(json.dumps(
        {"_class_name": "EulerDiscreteScheduler", "_diffusers_version": "0.24.0.dev0", **SVD_XT_SCHEDULER_CONFIG}))
    vae_config = {key: value for key, value in configs["vae"].items() if not key.startswith("_")}
    AutoencoderKLTemporalDecoder(**vae_config).half().save_pretrained(svd / "vae", variant="fp16")
    CLIPVisionModelWithProjection(CLIPVisionConfig(**configs["clip"])).half().save_pretrained(
        svd / "image_encoder", variant="fp16")
    whisper_config = WhisperConfig(**configs["whisper"])
    WhisperForConditionalGeneration(whisper_config).save_pretrained(whisper_dir)
    WhisperFeatureExtractor(feature_size=80).save_pretrained(whisper_dir)

    sizes = files.module_configs(configs["unet"], whisper_config)
    unet_settings = {key: value for key, value in configs["unet"].items() if not key.startswith("_")}
    shapes = {"unet": meta_shapes(lambda: DiceTalkUNet(**unet_settings)),
              "pose_guider": meta_shapes(lambda: PoseGuider(sizes.pose_guider)),
              "audio_projection": meta_shapes(lambda: AudioProjection(sizes.audio_projection)),
              "emotion_model": meta_shapes(lambda: EmotionModel(sizes.emotion_model))}
    names = {"unet": files.UNET_WEIGHTS, "pose_guider": files.POSE_GUIDER_WEIGHTS,
             "audio_projection": files.AUDIO_PROJECTION_WEIGHTS, "emotion_model": files.EMOTION_MODEL_WEIGHTS}
    for part, part_shapes in shapes.items():
        (dice / names[part]).parent.mkdir(parents=True, exist_ok=True)
        dtype = torch.float16 if part == "unet" else torch.float32
        torch.save(random_state(part_shapes, dtype), dice / names[part])
    rife = {"module." + key: value for key, value in FrameInterpolator().state_dict().items()}
    (dice / files.INTERPOLATOR_WEIGHTS).parent.mkdir(parents=True, exist_ok=True)
    torch.save(rife, dice / files.INTERPOLATOR_WEIGHTS, _use_new_zipfile_serialization=False)

    for repo, root, repo_files in ((files.SVD_REPO, svd, files.SVD_FILES), (files.DICETALK_REPO, dice,
                                                                              files.DICETALK_FILES),
                                   (files.WHISPER_REPO, whisper_dir, files.WHISPER_FILES)):
        add_snapshot(cache, repo, {name: root / name for name in repo_files})
    return {part: elements(part_shapes) for part, part_shapes in shapes.items()}


def dicetalk_gpu_bytes(pipeline) -> int:
    """The pipeline's weights as DiceTalkPipeline.to places them on the Space: UNet, VAE, CLIP and pose guider in
    fp16, the rest (reference encoder, audio projection, emotion model, whisper, RIFE) in fp32."""
    half = weight_bytes([pipeline.unet, pipeline.vae, pipeline.image_encoder, pipeline.pose_guider]) // 2
    full = weight_bytes([pipeline.reference_encoder, pipeline.audio_projection, pipeline.emotion_model,
                         pipeline.speech_encoder.encoder, pipeline.interpolator])
    return half + full


def run_dicetalk(folder: Path, miniature: bool, memory: PeakMemory, unet_frames: int = 25) -> dict:
    import numpy as np
    import torch
    from e3rg_core.generation.dicetalk.pipeline import DiceTalkPipeline
    from e3rg_core.generation.dicetalk.portrait import SHORT_SIDE, prepare_portrait
    from e3rg_core.generation.dicetalk.sampler import (EXPRESSION_BUCKET_ID, FPS, MOTION_BUCKET_ID, WINDOW_FRAMES,
                                                       _window_context, model_input, window_frames)
    from e3rg_core.generation.dicetalk.tiny import TINY_SHORT_SIDE
    from e3rg_core.memory.avatars import AvatarStore
    counts, write_seconds = timed(lambda: write_dicetalk(folder, miniature))
    memory.reset()
    pipeline, build_seconds = timed(lambda: DiceTalkPipeline.from_pretrained("cpu", torch.float32,
                                                                              local_files_only=True))
    built = memory.peaks()
    side = TINY_SHORT_SIDE if miniature else SHORT_SIDE
    portrait = prepare_portrait(AvatarStore(folder / "avatars").get(None).portrait(), True, side)
    samples = (0.1 * np.random.default_rng(SEED).standard_normal(32_000)).astype(np.float32)
    prior = np.ones(256, np.float32)
    memory.reset()
    conditioning, conditioning_seconds = timed(lambda: pipeline.conditioning(portrait, samples, prior))
    dtype = pipeline.unet.dtype
    frames = torch.tensor(window_frames(conditioning.num_frames + WINDOW_FRAMES, 0)[0][:unet_frames])
    latents = torch.randn(unet_frames, *conditioning.reference_latents.shape, generator=torch.Generator()
                          .manual_seed(SEED))
    time_ids = torch.tensor([[FPS, MOTION_BUCKET_ID, EXPRESSION_BUCKET_ID]] * 3, dtype=dtype)

    def unet_call():
        with torch.inference_mode():
            return pipeline.unet(model_input(latents.to(dtype), conditioning.reference_latents.to(dtype)),
                                 torch.tensor(1.6378), _window_context(conditioning, frames, dtype), time_ids,
                                 conditioning.pose_features.to(dtype))

    prediction, unet_seconds = timed(unet_call)
    if prediction.shape != (3, unet_frames, *conditioning.reference_latents.shape):
        raise RuntimeError(f"The UNet returned {tuple(prediction.shape)} for one window.")

    def decode_one():
        with torch.inference_mode():
            return pipeline.vae.decode(latents[:1].to(pipeline.vae.dtype), num_frames=1).sample

    frame, decode_seconds = timed(decode_one)
    height, width = portrait.image.shape[:2]
    if tuple(frame.shape) != (1, 3, height, width):
        raise RuntimeError(f"The VAE decoded a {tuple(frame.shape)} frame for a {width}x{height} portrait.")
    manifest = None if miniature else sum(MANIFEST_DICETALK.values())
    return {"engine": "DICE-Talk (SVD-xt UNet + adapters, VAE, CLIP, whisper-tiny, RIFE)", "dtype": "fp32 here",
            "write_seconds": write_seconds, "build_seconds": build_seconds, "build_memory": built,
            "step": f"one UNet call: {unet_frames} of a window's {WINDOW_FRAMES} frames x 3 guidance branches at "
                    f"{width}x{height}; conditioning {conditioning_seconds} s (2 s speech); VAE decode of one frame "
                    f"{decode_seconds} s",
            "step_seconds": unet_seconds, "unet_frames": unet_frames,
            "window_seconds_projected": round(unet_seconds * WINDOW_FRAMES / unet_frames, 1),
            "conditioning_seconds": conditioning_seconds,
            "decode_seconds": decode_seconds, "step_memory": memory.peaks(),
            "parameters": sum(counts.values()), "manifest_parameters": manifest,
            "parts": {name: [count, None if miniature else MANIFEST_DICETALK[name]] for name, count in counts.items()},
            "all_parameters": sum(p.numel() for m in (pipeline.unet, pipeline.vae, pipeline.image_encoder,
                                                      pipeline.pose_guider, pipeline.audio_projection,
                                                      pipeline.emotion_model, pipeline.speech_encoder.encoder,
                                                      pipeline.interpolator) for p in m.parameters()),
            "weights_gib": round(weight_bytes([pipeline.unet, pipeline.vae, pipeline.reference_encoder,
                                               pipeline.image_encoder, pipeline.pose_guider,
                                               pipeline.audio_projection, pipeline.emotion_model,
                                               pipeline.speech_encoder.encoder, pipeline.interpolator]) / GIB, 2),
            "projected_weights_gib": round(dicetalk_gpu_bytes(pipeline) / GIB, 2), "projected_gpu_gib": None,
            "weights_by_dtype_gib": gib_by_dtype([pipeline.unet, pipeline.vae, pipeline.reference_encoder,
                                                  pipeline.image_encoder, pipeline.pose_guider,
                                                  pipeline.audio_projection, pipeline.emotion_model,
                                                  pipeline.speech_encoder.encoder, pipeline.interpolator])}


RUNNERS = {"ola": run_ola, "qwen": run_qwen, "openvoice": run_openvoice, "dicetalk": run_dicetalk}


# -- the run -------------------------------------------------------------------------------------------------
def child(engine: str, workdir: Path, miniature: bool, result_path: Path, unet_frames: int) -> int:
    """One engine in this process: write, load, step; its row goes to result_path."""
    import torch
    memory = PeakMemory()
    try:
        extra = {"unet_frames": unet_frames} if engine == "dicetalk" else {}
        row = RUNNERS[engine](workdir, miniature, memory, **extra)
        row.update(ok=True, threads=torch.get_num_threads())
    except Exception:
        traceback.print_exc()
        row = {"engine": engine, "ok": False, "error": traceback.format_exc(limit=3)[-1500:]}
    row["process_peak_rss_gib"] = round(
        int(next(line for line in Path("/proc/self/status").read_text().splitlines()
                 if line.startswith("VmHWM")).split()[1]) * 1024 / GIB, 2)
    result_path.write_text(json.dumps(row, indent=2))
    return 0 if row["ok"] else 1


def table(rows: list[dict]) -> str:
    def gib(value) -> str:
        return "-" if value is None else f"{value:.2f}"

    lines = ["| engine | write s | build s | peak RSS GiB (anon) | step s | parameters (manifest) | weights GiB "
             "here | GPU weights GiB (Space dtype) |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        if not row.get("ok"):
            lines.append(f"| {row['engine']} | failed: {row.get('error', '').strip().splitlines()[-1:]} "
                         "| | | | | | |")
            continue
        peak = max(row["build_memory"]["peak_rss_gib"], row["step_memory"]["peak_rss_gib"])
        anon = max(row["build_memory"]["peak_anon_gib"], row["step_memory"]["peak_anon_gib"])
        manifest = row["manifest_parameters"]
        lines.append(f"| {row['engine']} | {row['write_seconds']:.0f} | {row['build_seconds']:.0f} | {peak:.1f} "
                     f"({anon:.1f}) | {row['step_seconds']:.1f} | {row['parameters']:,} "
                     f"({'-' if manifest is None else f'{manifest:,}'}) | {gib(row['weights_gib'])} "
                     f"| {gib(row['projected_weights_gib'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated, from " + ", ".join(ENGINES))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON results")
    parser.add_argument("--workdir", type=Path, default=None, help="where the random files go (default: a "
                        "temporary folder; the largest engine needs about 19 GB of disk)")
    parser.add_argument("--miniature", action="store_true", help="toy sizes, the same code paths (for tests)")
    parser.add_argument("--unet-frames", type=int, default=25, choices=range(1, 26), metavar="1..25",
                        help="frames of DICE-Talk's one UNet call (25, a whole window, by default; fewer on a slow "
                             "CPU: a window's time is projected from them)")
    parser.add_argument("--child", choices=ENGINES, help=argparse.SUPPRESS)
    parser.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child, args.workdir, args.miniature, args.result, args.unet_frames)

    engines = [name.strip() for name in args.engines.split(",") if name.strip()]
    unknown = sorted(set(engines) - set(ENGINES))
    if unknown:
        parser.error(f"unknown engines: {', '.join(unknown)}")
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "E3RG_TIER": "lite",
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    rows = []
    for engine in engines:
        with tempfile.TemporaryDirectory(prefix=f"e3rg-dry-run-{engine}-", dir=args.workdir) as folder, \
                tempfile.NamedTemporaryFile(suffix=".json") as result:
            print(f"== {engine}", flush=True)
            command = [sys.executable, str(Path(__file__).resolve()), "--child", engine, "--workdir", folder,
                       "--result", result.name, "--unet-frames", str(args.unet_frames),
                       *(["--miniature"] if args.miniature else [])]
            # DICE-Talk's loader reads the hub cache its files are written into.
            run = subprocess.run(command, env={**environment, "HF_HUB_CACHE": folder})
            text = Path(result.name).read_text()
            killed = " (SIGKILL: out of memory?)" if run.returncode == -9 else ""
            row = json.loads(text) if text else {"engine": engine, "ok": False,
                                                 "error": f"the process ended with status {run.returncode}{killed}"}
        rows.append({"key": engine, **row})
        print(json.dumps(row, indent=2), flush=True)
    # A run of some engines updates their rows in an earlier report and keeps the others.
    earlier = json.loads(args.out.read_text()) if args.out.is_file() else {}
    if earlier.get("miniature") == args.miniature:
        ran = {row["key"] for row in rows}
        rows = [row for row in earlier.get("rows", []) if row.get("key") not in ran] + rows
        rows.sort(key=lambda row: ENGINES.index(row["key"]))
    print("\n" + table(rows))
    report = {"benchmark": "full-size dry run", "miniature": args.miniature, "cpu_count": os.cpu_count(),
              "platform": platform.platform(), "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0 if all(row.get("ok") for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
