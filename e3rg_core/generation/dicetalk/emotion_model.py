"""The emotion model ("emotion bank"): a 256-d emotion prior -> emotion tokens for the UNet's second adapter.

The prior is projected to query tokens. Keys and values come from a learned bank of emotion codes: by default
every bank entry (each expanded to its own tokens) is attended to, so the output mixes related emotions; with
retrieval only the bank entry nearest to the projected prior is used. The attention has no output projection
and no residual: its result is the token set.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from .audio_projection import AudioProjection, AudioProjectionConfig


@dataclass(frozen=True)
class EmotionModelConfig:
    prior_dim: int = 256
    width: int = 1024
    intermediate_dim: int = 1024
    context_tokens: int = 32
    codebook_size: int = 64
    num_heads: int = 8
    classifier_input_dim: int = 1280
    classifier_hidden: tuple[int, int] = (512, 256)
    num_classes: int = 22

    def projection(self, channels: int) -> AudioProjectionConfig:
        return AudioProjectionConfig(seq_len=1, blocks=1, channels=channels, intermediate_dim=self.intermediate_dim,
                                     output_dim=self.width, context_tokens=self.context_tokens)


class EmotionBank(nn.Module):
    """Learned emotion codes, and the map from a prior into their space for nearest-code retrieval."""

    def __init__(self, prior_dim: int, width: int, size: int):
        super().__init__()
        self.fc = nn.Linear(prior_dim, width)
        self.codebook = nn.Embedding(size, width)

    def nearest(self, prior: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The bank entry closest to each projected prior (batch, width), and its index (batch,)."""
        point = self.fc(prior)
        codes = self.codebook.weight
        distances = (point.pow(2).sum(dim=1, keepdim=True) + codes.pow(2).sum(dim=1)
                     - 2 * point @ codes.t())
        index = distances.argmin(dim=1)
        return codes[index], index


class TokenAttention(nn.Module):
    """Multi-head attention of query tokens over key/value tokens, without output projection or residual."""

    def __init__(self, width: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.fc_q = nn.Linear(width, width)
        self.fc_k = nn.Linear(width, width)
        self.fc_v = nn.Linear(width, width)

    def _split_heads(self, tokens: torch.Tensor) -> torch.Tensor:
        batch, length, width = tokens.shape
        return tokens.view(batch, length, self.num_heads, width // self.num_heads).transpose(1, 2)

    def forward(self, queries: torch.Tensor, context: torch.Tensor) -> torch.Tensor:
        attended = F.scaled_dot_product_attention(self._split_heads(self.fc_q(queries)),
                                                  self._split_heads(self.fc_k(context)),
                                                  self._split_heads(self.fc_v(context)))
        batch, _, length, _ = attended.shape
        return attended.transpose(1, 2).reshape(batch, length, -1)


class EmotionModel(nn.Module):
    def __init__(self, config: EmotionModelConfig = EmotionModelConfig()):
        super().__init__()
        self.config = config
        self.emo_linear = AudioProjection(config.projection(config.prior_dim))
        self.kv_tokens_linear = AudioProjection(config.projection(config.width))
        self.codebook = EmotionBank(config.prior_dim, config.width, config.codebook_size)
        self.attention = TokenAttention(config.width, config.num_heads)
        # The emotion classifier only trains the bank; it is kept so the official checkpoint loads strictly.
        first, second = config.classifier_hidden
        self.classifier = nn.ModuleDict({
            "fc1": nn.Linear(config.classifier_input_dim, first),
            "fc2": nn.Linear(first, second),
            "fc3": nn.Linear(second, config.num_classes),
        })

    def forward(self, prior: torch.Tensor, retrieval: bool = False) -> torch.Tensor:
        """(batch, prior_dim) priors -> (batch, context_tokens, width) emotion tokens."""
        batch = prior.shape[0]
        queries = self.emo_linear(prior.reshape(batch, 1, 1, -1))
        if retrieval:
            entry, _ = self.codebook.nearest(prior)
            context = self.kv_tokens_linear(entry.reshape(batch, 1, 1, -1))
        else:
            codes = self.codebook.codebook.weight
            bank_tokens = self.kv_tokens_linear(codes.reshape(codes.shape[0], 1, 1, -1))
            context = bank_tokens.reshape(1, -1, self.config.width).expand(batch, -1, -1)
        return self.attention(queries, context)
