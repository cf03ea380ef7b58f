"""The audio encoder of OpenAI Whisper (large-v3 in Ola), with OpenAI's parameter names rather than transformers'
WhisperEncoder's: Ola's state dict and large-v3.pt both use them (the positional table a buffer), so both load
strictly with no renaming.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .config import WhisperEncoderConfig


def sinusoids(length: int, channels: int) -> torch.Tensor:
    """Whisper's fixed sin/cos position table (the checkpoint stores the same values)."""
    increment = math.log(10000) / (channels // 2 - 1)
    inverse = torch.exp(-increment * torch.arange(channels // 2, dtype=torch.float32))
    angles = torch.arange(length, dtype=torch.float32)[:, None] * inverse[None, :]
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)


class WhisperAttention(nn.Module):
    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(width, width)
        self.key = nn.Linear(width, width, bias=False)
        self.value = nn.Linear(width, width)
        self.out = nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.reshape(batch, length, self.heads, -1).transpose(1, 2)

        out = F.scaled_dot_product_attention(heads(self.query(x)), heads(self.key(x)), heads(self.value(x)))
        return self.out(out.transpose(1, 2).reshape(batch, length, width))


class WhisperBlock(nn.Module):
    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.attn = WhisperAttention(width, heads)
        self.attn_ln = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))
        self.mlp_ln = nn.LayerNorm(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.attn_ln(x))
        return x + self.mlp(self.mlp_ln(x))


class WhisperAudioEncoder(nn.Module):
    def __init__(self, config: WhisperEncoderConfig) -> None:
        super().__init__()
        width = config.n_audio_state
        self.conv1 = nn.Conv1d(config.n_mels, width, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(width, width, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positional_embedding", sinusoids(config.n_audio_ctx, width))
        self.blocks = nn.ModuleList(WhisperBlock(width, config.n_audio_head) for _ in range(config.n_audio_layer))
        self.ln_post = nn.LayerNorm(width)

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        """(B, n_mels, 2 * n_audio_ctx) log-mel -> (B, n_audio_ctx, width)."""
        x = F.gelu(self.conv2(F.gelu(self.conv1(mel)))).transpose(1, 2)
        if x.shape[1:] != self.positional_embedding.shape:
            raise ValueError(f"Whisper needs {2 * self.positional_embedding.shape[0]} mel frames per chunk.")
        x = (x + self.positional_embedding).to(x.dtype)
        for block in self.blocks:
            x = block(x)
        return self.ln_post(x)
