"""Audio projection: a window of whisper encoder states around one video frame -> that frame's audio tokens.

Each 12.5 fps frame sees 10 whisper tokens (50 Hz) from all 5 encoder hidden states; three linear layers map
the flattened window to `context_tokens` vectors, normalised per token. The same module, at other widths, also
builds the emotion model's query and codebook tokens.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class AudioProjectionConfig:
    seq_len: int = 10              # whisper tokens per video frame
    blocks: int = 5                # whisper hidden states (embeddings + 4 layers of whisper-tiny)
    channels: int = 384            # whisper-tiny width
    intermediate_dim: int = 1024
    output_dim: int = 1024         # the UNet's cross-attention width
    context_tokens: int = 32

    @property
    def input_dim(self) -> int:
        return self.seq_len * self.blocks * self.channels


class AudioProjection(nn.Module):
    def __init__(self, config: AudioProjectionConfig = AudioProjectionConfig()):
        super().__init__()
        self.config = config
        self.proj1 = nn.Linear(config.input_dim, config.intermediate_dim)
        self.proj2 = nn.Linear(config.intermediate_dim, config.intermediate_dim)
        self.proj3 = nn.Linear(config.intermediate_dim, config.context_tokens * config.output_dim)
        self.norm = nn.LayerNorm(config.output_dim)

    def forward(self, windows: torch.Tensor) -> torch.Tensor:
        """(..., seq_len, blocks, channels) windows -> (..., context_tokens, output_dim) tokens."""
        leading = windows.shape[:-3]
        hidden = torch.relu(self.proj1(windows.reshape(-1, self.config.input_dim)))
        hidden = torch.relu(self.proj2(hidden))
        tokens = self.proj3(hidden).reshape(-1, self.config.context_tokens, self.config.output_dim)
        return self.norm(tokens).reshape(*leading, self.config.context_tokens, self.config.output_dim)
