"""Configuration of Ola-Omni: a Qwen2 config carrying the settings of the vision tower, the two speech
encoders and the projectors.

Values that Ola's code hard-wires (the OryxViT dimensions) are defaults here; values that live in checkpoint
files (the LLM in config.json, Whisper's dims in large-v3.pt, BEATs' cfg in its .pt) are read from those
files by loading.py, never assumed.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from transformers import Qwen2Config

from ...errors import CheckpointMismatchError

SPEECH_PLACEHOLDER_ID = -200        # the ids Ola's tokenisation puts where "<speech>" and "<image>" stood
IMAGE_PLACEHOLDER_ID = -300
SPEECH_PROJECTOR_HIDDEN = 2048      # fixed in Ola's speech projector, whatever the encoder width


@dataclass(frozen=True)
class OryxViTConfig:
    """OryxViT as Ola builds it: SigLIP-so400m widths, 16 px patches, a 128x128 position grid that is
    resampled to each image's own patch grid, no class token, no final norm, no 2x2 downsampling."""
    width: int = 1152
    depth: int = 27
    heads: int = 16
    patch_size: int = 16
    mlp_hidden: int = 4304          # int(1152 * 3.7362), SigLIP-so400m's MLP ratio
    position_grid: int = 128        # Ola's img_size 2048 / patch 16
    norm_eps: float = 1e-6


@dataclass(frozen=True)
class WhisperEncoderConfig:
    """The audio half of an OpenAI Whisper checkpoint, named as in its "dims" entry."""
    n_mels: int = 128
    n_audio_ctx: int = 1500
    n_audio_state: int = 1280
    n_audio_head: int = 20
    n_audio_layer: int = 32

    @classmethod
    def from_dims(cls, dims: dict) -> WhisperEncoderConfig:
        names = [f.name for f in fields(cls)]
        missing = [name for name in names if name not in dims]
        if missing:
            raise CheckpointMismatchError(f"Whisper checkpoint dims lack {missing}.")
        return cls(**{name: int(dims[name]) for name in names})


# What BEATs' own config class assumes for entries a checkpoint's cfg leaves out.
_BEATS_CFG_DEFAULTS = (("embed_dim", 512), ("conv_bias", False), ("encoder_layers", 12), ("encoder_embed_dim", 768),
                       ("encoder_ffn_embed_dim", 3072), ("encoder_attention_heads", 12), ("activation_fn", "gelu"),
                       ("layer_norm_first", False), ("deep_norm", False), ("conv_pos", 128), ("conv_pos_groups", 16),
                       ("relative_position_embedding", False), ("num_buckets", 320), ("max_distance", 1280),
                       ("gru_rel_pos", False), ("finetuned_model", False), ("predictor_class", 527))
# The variant this port implements (the fine-tuned iter3+ checkpoint Ola uses).
_BEATS_VARIANT = (("activation_fn", "gelu"), ("layer_norm_first", False), ("deep_norm", True),
                  ("relative_position_embedding", True), ("gru_rel_pos", True), ("finetuned_model", True))


@dataclass(frozen=True)
class BeatsConfig:
    """The BEATs settings that shape the network. Training-only entries of a BEATs cfg (dropouts, layer drop,
    gradient decay) are ignored; a cfg asking for another variant than Ola's is refused."""
    input_patch_size: int = 16
    embed_dim: int = 512
    conv_bias: bool = False
    encoder_layers: int = 12
    encoder_embed_dim: int = 768
    encoder_ffn_embed_dim: int = 3072
    encoder_attention_heads: int = 12
    conv_pos: int = 128
    conv_pos_groups: int = 16
    num_buckets: int = 320
    max_distance: int = 800
    predictor_class: int = 527

    @classmethod
    def from_checkpoint_cfg(cls, cfg: dict) -> BeatsConfig:
        cfg = {**dict(_BEATS_CFG_DEFAULTS), **cfg}
        for key, wanted in _BEATS_VARIANT:
            if cfg[key] != wanted:
                raise CheckpointMismatchError(
                    f"BEATs cfg has {key}={cfg[key]!r}; this port implements only {key}={wanted!r}.")
        if cfg.get("input_patch_size", -1) <= 0:
            raise CheckpointMismatchError("BEATs cfg lacks input_patch_size.")
        return cls(**{f.name: cfg[f.name] for f in fields(cls)})


class OlaConfig(Qwen2Config):
    """Qwen2 settings of the LLM plus Ola's multimodal settings.

    Extra attributes (as in Ola's config.json): mm_hidden_size, speech_encoder_hidden_size,
    speech_encoder_ds_rate, tokenizer_model_max_length; and the tower settings as plain dicts
    (vision_config, whisper_config, beats_config) so that the config stays JSON-serialisable.
    """
    model_type = "ola_qwen"

    @property
    def vision(self) -> OryxViTConfig:
        return OryxViTConfig(**self.vision_config)

    @property
    def whisper(self) -> WhisperEncoderConfig:
        return WhisperEncoderConfig(**self.whisper_config)

    @property
    def beats(self) -> BeatsConfig:
        return BeatsConfig(**self.beats_config)

    @property
    def context_tokens(self) -> int:
        """The longest merged sequence Ola was trained on."""
        return int(getattr(self, "tokenizer_model_max_length", None) or 16384)


def build_config(llm: dict, whisper: WhisperEncoderConfig, beats: BeatsConfig,
                 vision: OryxViTConfig = OryxViTConfig()) -> OlaConfig:
    """An OlaConfig from config.json's entries and the two encoders' own settings, checked for agreement."""
    for key, wanted in {"mm_projector_type": "ola_mlp", "speech_encoder_type": "dual",
                        "speech_projector_type": "linear"}.items():
        if llm.get(key, wanted) != wanted:
            raise CheckpointMismatchError(f"config.json has {key}={llm.get(key)!r}; Ola-Omni uses {wanted!r}.")
    for key in ("mm_hidden_size", "speech_encoder_hidden_size", "speech_encoder_ds_rate"):
        if key not in llm:
            raise CheckpointMismatchError(f"config.json lacks {key}.")
    if llm["mm_hidden_size"] != vision.width:
        raise CheckpointMismatchError(
            f"config.json mm_hidden_size={llm['mm_hidden_size']} but the vision tower is {vision.width} wide.")
    speech_width = whisper.n_audio_state + beats.encoder_embed_dim
    if llm["speech_encoder_hidden_size"] != speech_width:
        raise CheckpointMismatchError(
            f"config.json speech_encoder_hidden_size={llm['speech_encoder_hidden_size']} but Whisper "
            f"({whisper.n_audio_state}) + BEATs ({beats.encoder_embed_dim}) give {speech_width}.")
    # Paths of the authors' machine and Python-side names say nothing about the network; drop them.
    settings = {k: v for k, v in llm.items()
                if k not in ("speech_encoder", "music_encoder", "mm_vision_tower", "model_type", "architectures",
                             "_name_or_path", "transformers_version", "rope_scaling")}
    return OlaConfig(**settings, vision_config=asdict(vision), whisper_config=asdict(whisper),
                     beats_config=asdict(beats))
