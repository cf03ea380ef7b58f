"""Loading Ola-Omni-7B from its published files, strictly, with the LLM in 4-bit NF4.

THUdyh/Ola-7b gives the config, shards and tokenizer; like Ola's own loader, the speech encoders come from
THUdyh/Ola_speech_encoders (Ola-7b's copies are never read). Every key and shape is checked against the model the
configs describe before any weight is read. Only the Qwen2 decoder's Linear layers are quantised (towers bf16, BEATs
fp32 as its forward needs), and the loader places the model itself: a quantised model is never moved or cast.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import torch

from ...errors import CheckpointMismatchError, EngineUnavailableError
from .config import BeatsConfig, OlaConfig, OryxViTConfig, WhisperEncoderConfig, build_config
from .model import TOWER_MODULES, OlaForCausalLM

OLA_REPO = "THUdyh/Ola-7b"
SPEECH_REPO = "THUdyh/Ola_speech_encoders"
WHISPER_FILE = "large-v3.pt"
BEATS_FILE = "BEATs_iter3_plus_AS2M_finetuned_on_AS2M_cpt2.pt"
OLA_FILES = ("config.json", "generation_config.json", "model.safetensors.index.json",
             *(f"model-{index:05d}-of-00004.safetensors" for index in range(1, 5)),
             "added_tokens.json", "merges.txt", "special_tokens_map.json", "tokenizer_config.json", "vocab.json")
SPEECH_PREFIX = "model.speech_encoder."
WHISPER_PREFIX, BEATS_PREFIX = SPEECH_PREFIX + "whisper_model.", SPEECH_PREFIX + "beats_model."


@dataclass(frozen=True)
class OlaFiles:
    model_dir: Path         # config.json, safetensors, tokenizer
    whisper: Path           # large-v3.pt
    beats: Path             # BEATs_iter3_plus_AS2M_finetuned_on_AS2M_cpt2.pt


def download_ola_files(cache_dir: str | None = None) -> OlaFiles:
    """Fetch (or find in the hub cache) every file Ola needs, each by name."""
    from huggingface_hub import hf_hub_download
    try:
        model_files = [Path(hf_hub_download(OLA_REPO, name, cache_dir=cache_dir)) for name in OLA_FILES]
        whisper = hf_hub_download(SPEECH_REPO, WHISPER_FILE, cache_dir=cache_dir)
        beats = hf_hub_download(SPEECH_REPO, BEATS_FILE, cache_dir=cache_dir)
    except Exception as error:      # any hub or network failure means the same thing here
        raise EngineUnavailableError(f"Ola-Omni weights could not be fetched: {error}") from error
    return OlaFiles(model_files[0].parent, Path(whisper), Path(beats))


def _torch_checkpoint(path: Path) -> dict:
    try:
        try:
            return torch.load(path, map_location="cpu", weights_only=True, mmap=True)
        except RuntimeError:    # a checkpoint saved before torch's zip format cannot be memory-mapped
            return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:      # truncated download, foreign pickle content, not a torch file
        raise CheckpointMismatchError(f"{path.name} is not a loadable tensor checkpoint: {error}") from error


@dataclass(frozen=True)
class _SpeechWeights:
    whisper: WhisperEncoderConfig
    beats: BeatsConfig
    whisper_state: dict[str, torch.Tensor]
    beats_state: dict[str, torch.Tensor]


def _speech_weights(files: OlaFiles) -> _SpeechWeights:
    whisper, beats = _torch_checkpoint(files.whisper), _torch_checkpoint(files.beats)
    if not {"dims", "model_state_dict"} <= whisper.keys():
        raise CheckpointMismatchError(f"{files.whisper.name} lacks Whisper's dims or model_state_dict.")
    if not {"cfg", "model"} <= beats.keys():
        raise CheckpointMismatchError(f"{files.beats.name} lacks BEATs' cfg or model.")
    encoder = {k.removeprefix("encoder."): v for k, v in whisper["model_state_dict"].items()
               if k.startswith("encoder.")}
    return _SpeechWeights(WhisperEncoderConfig.from_dims(whisper["dims"]),
                          BeatsConfig.from_checkpoint_cfg(beats["cfg"]), encoder, beats["model"])


def _shard_shapes(model_dir: Path) -> dict[str, tuple[int, ...]]:
    from safetensors import safe_open
    index = model_dir / "model.safetensors.index.json"
    if index.is_file():
        shards = sorted(set(json.loads(index.read_text())["weight_map"].values()))
    else:
        shards = ["model.safetensors"]
    shapes = {}
    for shard in shards:
        if not (model_dir / shard).is_file():
            raise CheckpointMismatchError(f"Checkpoint shard {shard} is missing from {model_dir}.")
        with safe_open(str(model_dir / shard), framework="pt") as handle:
            shapes.update({key: tuple(handle.get_slice(key).get_shape()) for key in handle.keys()})
    return shapes


def expected_shapes(config: OlaConfig) -> dict[str, tuple[int, ...]]:
    """Every state-dict key of the model a config describes, with its shape; built on the meta device."""
    with torch.device("meta"):
        skeleton = OlaForCausalLM(config)
    return {key: tuple(tensor.shape) for key, tensor in skeleton.state_dict().items()}


def _compare(found: dict[str, tuple], wanted: dict[str, tuple], what: str, allow_missing: bool = False) -> None:
    missing = [] if allow_missing else sorted(wanted.keys() - found.keys())
    unexpected = sorted(found.keys() - wanted.keys())
    wrong = sorted(f"{k}: {found[k]} != {wanted[k]}" for k in found.keys() & wanted.keys() if found[k] != wanted[k])
    if missing or unexpected or wrong:
        raise CheckpointMismatchError(
            f"{what} does not match the model its config describes: missing {missing[:5]} ({len(missing)}), "
            f"unexpected {unexpected[:5]} ({len(unexpected)}), wrong shapes {wrong[:5]} ({len(wrong)}).")


def check_checkpoints(files: OlaFiles, config: OlaConfig, speech: _SpeechWeights) -> None:
    """Strict key and shape comparison of all three checkpoints against the model, before loading."""
    wanted = expected_shapes(config)
    shards = _shard_shapes(files.model_dir)
    _compare({k: v for k, v in shards.items() if not k.startswith(SPEECH_PREFIX)},
             {k: v for k, v in wanted.items() if not k.startswith(SPEECH_PREFIX)}, "The Ola-7b checkpoint")
    # Speech-encoder weights inside the LLM checkpoint are superseded by the encoders' own files, but they
    # must still fit the same model.
    _compare({k: v for k, v in shards.items() if k.startswith(SPEECH_PREFIX)},
             {k: v for k, v in wanted.items() if k.startswith(SPEECH_PREFIX)},
             "The speech-encoder part of the Ola-7b checkpoint", allow_missing=True)
    for state, prefix, what in ((speech.whisper_state, WHISPER_PREFIX, files.whisper.name),
                                (speech.beats_state, BEATS_PREFIX, files.beats.name)):
        _compare({k: tuple(v.shape) for k, v in state.items()},
                 {k.removeprefix(prefix): v for k, v in wanted.items() if k.startswith(prefix)}, what)


def read_config(files: OlaFiles, speech: _SpeechWeights) -> OlaConfig:
    """The model's config: config.json for the LLM, the encoders' files for the encoders. OryxViT's shape is
    fixed in Ola's code; only a config written by this port (a test model, say) may carry its own."""
    settings = json.loads((files.model_dir / "config.json").read_text())
    if settings.get("model_type") != OlaConfig.model_type:
        raise CheckpointMismatchError(f"config.json is a {settings.get('model_type')!r} model, not Ola's 'ola_qwen'.")
    vision = OryxViTConfig(**settings.pop("vision_config", None) or {})
    settings = {k: v for k, v in settings.items() if k not in ("whisper_config", "beats_config")}
    return build_config(settings, speech.whisper, speech.beats, vision)


def quantization_config():
    """NF4 with bf16 compute for the Qwen2 decoder's Linear layers only."""
    from transformers import BitsAndBytesConfig
    return BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_compute_dtype=torch.bfloat16,
                              bnb_4bit_use_double_quant=True,
                              llm_int8_skip_modules=["lm_head", *(f"model.{name}" for name in TOWER_MODULES)])


def load_ola(files: OlaFiles, device: str = "cuda", quantize: bool = True,
             dtype: torch.dtype = torch.bfloat16) -> OlaForCausalLM:
    """Ola-Omni with its weights, in eval mode, on `device` (a CPU works too, for tests)."""
    speech = _speech_weights(files)
    config = read_config(files, speech)
    check_checkpoints(files, config, speech)
    extra = {"quantization_config": quantization_config()} if quantize else {}
    model, info = OlaForCausalLM.from_pretrained(
        files.model_dir, config=config, dtype=dtype, device_map={"": device}, attn_implementation="sdpa",
        output_loading_info=True, **extra)
    found = [entry[0] if isinstance(entry, tuple) else entry
             for kind in ("missing_keys", "unexpected_keys", "mismatched_keys") for entry in info.get(kind, ())]
    leftovers = [key for key in found if not key.startswith(SPEECH_PREFIX)]
    if leftovers:
        raise CheckpointMismatchError(f"Loading Ola-7b left keys unmatched: {leftovers[:5]}.")
    encoder = model.model.speech_encoder
    for module, state, tensor_dtype in ((encoder.whisper_model, speech.whisper_state, torch.bfloat16),
                                        (encoder.beats_model, speech.beats_state, torch.float32)):
        module.load_state_dict({k: v.to(device, tensor_dtype) for k, v in state.items()}, strict=True, assign=True)
    if any(t.is_meta for t in (*model.parameters(), *model.buffers())):
        raise CheckpointMismatchError("Some Ola weights were never loaded.")
    return model.eval()


def load_tokenizer(files: OlaFiles):
    from transformers import AutoTokenizer
    return AutoTokenizer.from_pretrained(str(files.model_dir))
