"""Ola-Omni: a Qwen2 LLM that reads video, images and audio through encoder features spliced into its prompt
(OryxViT and the vision projector per frame; Whisper, BEATs and the speech projector per 30 s chunk).

Two choices differ from Ola's inference script on purpose (see the golden README): every sampled frame reaches the
LLM, as in training; and the first placeholders take the visual features, the rest the speech ones, whatever each
placeholder is, the order Ola was trained with ("<speech><image>" puts the video first).
"""
from __future__ import annotations

import torch
from torch import nn
from transformers import Qwen2ForCausalLM, Qwen2Model
from transformers.models.qwen2.modeling_qwen2 import Qwen2PreTrainedModel

from .config import IMAGE_PLACEHOLDER_ID, OlaConfig
from .projectors import OlaVisionProjector, SpeechProjector
from .speech import DualSpeechEncoder
from .vision import OryxVisionTower

# The modules outside the Qwen2 decoder: kept in full precision when the LLM is quantised.
TOWER_MODULES = ("vision_tower", "mm_projector", "speech_encoder", "speech_projector")


class OlaQwenModel(Qwen2Model):
    config_class = OlaConfig

    def __init__(self, config: OlaConfig) -> None:
        super().__init__(config)
        self.vision_tower = OryxVisionTower(config.vision)
        self.mm_projector = OlaVisionProjector(config.mm_hidden_size, config.hidden_size)
        self.speech_encoder = DualSpeechEncoder(config.whisper, config.beats)
        self.speech_projector = SpeechProjector(config.speech_encoder_hidden_size, config.hidden_size,
                                                config.speech_encoder_ds_rate)


class OlaForCausalLM(Qwen2ForCausalLM):
    config_class = OlaConfig
    # The speech encoders come from their own checkpoint files (as in Ola's loader), whatever the LLM
    # checkpoint holds under that prefix; loading.py checks and loads them strictly.
    _keys_to_ignore_on_load_missing = [r"^model\.speech_encoder\."]
    _keys_to_ignore_on_load_unexpected = [r"^model\.speech_encoder\."]

    def __init__(self, config: OlaConfig) -> None:
        Qwen2PreTrainedModel.__init__(self, config)
        self.model = OlaQwenModel(config)
        self.vocab_size = config.vocab_size
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.post_init()

    @property
    def quantized(self) -> bool:
        """Whether the loader quantised the decoder (transformers keeps the quantiser on the model)."""
        return getattr(self, "hf_quantizer", None) is not None

    def _projector_dtype(self) -> torch.dtype:
        return self.model.mm_projector.proj1.weight.dtype

    @torch.no_grad()
    def encode_video(self, frames: torch.Tensor) -> torch.Tensor:
        """(frames, 3, H, W) normalised pixels of one video -> (tokens, hidden)."""
        features, grid = self.model.vision_tower(frames.to(self.device))
        return self.model.mm_projector.video(features.to(self._projector_dtype()), grid)

    @torch.no_grad()
    def encode_image(self, lowres: torch.Tensor, highres: torch.Tensor) -> torch.Tensor:
        """The two views of one image, (3, h, w) and (3, H, W) -> (tokens, hidden)."""
        (low, low_grid), (high, high_grid) = (self.model.vision_tower(view[None].to(self.device))
                                              for view in (lowres, highres))
        dtype = self._projector_dtype()
        return self.model.mm_projector.image(low.to(dtype), low_grid, high.to(dtype), high_grid)[0]

    @torch.no_grad()
    def encode_speech(self, mels: torch.Tensor, waveforms: torch.Tensor) -> torch.Tensor:
        """(chunks, mel frames, n_mels) and (chunks, samples) of one clip -> (tokens, hidden)."""
        encoded = self.model.speech_encoder(mels.to(self.device), waveforms.to(self.device))
        return self.model.speech_projector(encoded.to(self.model.speech_projector.linear1.weight.dtype))

    @torch.no_grad()
    def merge_inputs(self, input_ids: torch.Tensor, visual: torch.Tensor | None = None,
                     speech: torch.Tensor | None = None) -> torch.Tensor:
        """Embed a 1-D prompt with placeholders and splice the features in: (1, merged length, hidden)."""
        input_ids = input_ids.to(self.device)
        slots = torch.nonzero(input_ids < 0).flatten().tolist()
        visual_slots = int((input_ids == IMAGE_PLACEHOLDER_ID).sum())
        if visual_slots > 1 or len(slots) - visual_slots > 1:
            raise ValueError("A prompt takes at most one visual and one speech placeholder.")
        features = [visual] * visual_slots + [speech] * (len(slots) - visual_slots)
        if any(f is None for f in features):
            raise ValueError("The prompt has a placeholder for a modality that was not given.")
        text = self.model.embed_tokens(input_ids.clamp(min=0))
        pieces, start = [], 0
        for slot, feature in zip(slots, features):
            pieces += [text[start:slot], feature.to(text.dtype)]
            start = slot + 1
        pieces.append(text[start:])
        return torch.cat(pieces)[None]
