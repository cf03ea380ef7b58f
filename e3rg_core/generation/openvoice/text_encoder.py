"""VITS' prior text encoder: symbol ids -> per-symbol prior mean and log-std of the acoustic latent.

A post-norm transformer whose self-attention adds learned relative-position terms for offsets within +-4
symbols (farther pairs get none), followed by convolutional feed-forward layers.
"""
from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

from .modules import ChannelLayerNorm, sequence_mask

RELATIVE_WINDOW = 4
_MASKED_SCORE = -1e4    # the value training used for padded positions (not -inf)


class RelativeSelfAttention(nn.Module):
    def __init__(self, channels: int, n_heads: int, window: int = RELATIVE_WINDOW):
        super().__init__()
        self.n_heads = n_heads
        self.head_channels = channels // n_heads
        self.window = window
        self.conv_q = nn.Conv1d(channels, channels, 1)
        self.conv_k = nn.Conv1d(channels, channels, 1)
        self.conv_v = nn.Conv1d(channels, channels, 1)
        self.conv_o = nn.Conv1d(channels, channels, 1)
        # One table shared by all heads, rows for offsets -window..+window.
        self.emb_rel_k = nn.Parameter(torch.zeros(1, 2 * window + 1, self.head_channels))
        self.emb_rel_v = nn.Parameter(torch.zeros(1, 2 * window + 1, self.head_channels))

    def _offset_buckets(self, length: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
        """For every (query i, key j): the table row of offset j - i, and whether that offset has one."""
        positions = torch.arange(length, device=device)
        offsets = positions[None, :] - positions[:, None]
        return offsets.clamp(-self.window, self.window) + self.window, offsets.abs() <= self.window

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        batch, channels, length = x.shape

        def heads(h: torch.Tensor) -> torch.Tensor:     # [B, C, T] -> [B, heads, T, head_channels]
            return h.view(batch, self.n_heads, self.head_channels, length).transpose(2, 3)

        query = heads(self.conv_q(x)) / math.sqrt(self.head_channels)
        key, value = heads(self.conv_k(x)), heads(self.conv_v(x))
        bucket, in_window = self._offset_buckets(length, x.device)

        relative_logits = query @ self.emb_rel_k.transpose(1, 2)                    # [B, H, T, 2w+1]
        scores = query @ key.transpose(-2, -1)
        scores = scores + torch.gather(relative_logits, -1, bucket.expand(batch, self.n_heads, -1, -1)) * in_window
        scores = scores.masked_fill(mask == 0, _MASKED_SCORE)
        weights = F.softmax(scores, dim=-1)

        # Sum each query's attention weights per in-window offset, then mix the relative value rows.
        per_offset = F.one_hot(bucket, 2 * self.window + 1).to(weights.dtype) * in_window[..., None]
        relative_weights = torch.einsum("bhij,ijk->bhik", weights, per_offset)
        out = weights @ value + relative_weights @ self.emb_rel_v
        return self.conv_o(out.transpose(2, 3).reshape(batch, channels, length))


class FeedForward(nn.Module):
    """Two 'same'-padded convolutions with a ReLU between them."""

    def __init__(self, channels: int, filter_channels: int, kernel_size: int):
        super().__init__()
        self.padding = ((kernel_size - 1) // 2, kernel_size // 2)
        self.conv_1 = nn.Conv1d(channels, filter_channels, kernel_size)
        self.conv_2 = nn.Conv1d(filter_channels, channels, kernel_size)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.conv_1(F.pad(x * mask, self.padding)))
        return self.conv_2(F.pad(x * mask, self.padding)) * mask


class TransformerEncoder(nn.Module):
    def __init__(self, channels: int, filter_channels: int, n_heads: int, n_layers: int, kernel_size: int):
        super().__init__()
        self.attn_layers = nn.ModuleList(RelativeSelfAttention(channels, n_heads) for _ in range(n_layers))
        self.norm_layers_1 = nn.ModuleList(ChannelLayerNorm(channels) for _ in range(n_layers))
        self.ffn_layers = nn.ModuleList(FeedForward(channels, filter_channels, kernel_size) for _ in range(n_layers))
        self.norm_layers_2 = nn.ModuleList(ChannelLayerNorm(channels) for _ in range(n_layers))

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        pair_mask = mask.unsqueeze(2) * mask.unsqueeze(-1)
        x = x * mask
        for attention, norm_1, ffn, norm_2 in zip(self.attn_layers, self.norm_layers_1, self.ffn_layers,
                                                  self.norm_layers_2):
            x = norm_1(x + attention(x, pair_mask))
            x = norm_2(x + ffn(x, mask))
        return x * mask


class TextEncoder(nn.Module):
    """ids [B, T] -> (hidden [B, H, T], prior mean [B, C, T], prior log-std [B, C, T], mask [B, 1, T])."""

    def __init__(self, n_vocab: int, out_channels: int, hidden_channels: int, filter_channels: int, n_heads: int,
                 n_layers: int, kernel_size: int):
        super().__init__()
        self.out_channels = out_channels
        self.emb = nn.Embedding(n_vocab, hidden_channels)
        self.encoder = TransformerEncoder(hidden_channels, filter_channels, n_heads, n_layers, kernel_size)
        self.proj = nn.Conv1d(hidden_channels, out_channels * 2, 1)

    def forward(self, ids: torch.Tensor, lengths: torch.Tensor):
        x = (self.emb(ids) * math.sqrt(self.emb.embedding_dim)).transpose(1, 2)
        mask = sequence_mask(lengths, ids.size(1)).to(x.dtype)
        x = self.encoder(x * mask, mask)
        mean, log_std = (self.proj(x) * mask).split(self.out_channels, dim=1)
        return x, mean, log_std, mask
