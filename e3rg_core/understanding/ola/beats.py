"""BEATs (Chen et al. 2022, iter3+ fine-tuned on AudioSet-2M): Ola's audio-event encoder.

Waveform -> Kaldi log-mel fbank (128 bins) -> 16x16 patches -> post-LN ("deep norm") transformer with a
convolutional position embedding and gated, bucketed relative-position attention bias. Written against the
parameter names of Microsoft's BEATs checkpoint; no fairseq, no torchaudio, no torch.hub.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .config import BeatsConfig

FBANK_MEAN = 15.41663       # BEATs' fbank normalisation, from its pre-training data
FBANK_STD = 6.55582


def _mel(freq: torch.Tensor | float) -> torch.Tensor | float:
    if isinstance(freq, torch.Tensor):
        return 1127.0 * torch.log(1.0 + freq / 700.0)
    return 1127.0 * math.log(1.0 + freq / 700.0)


def _kaldi_mel_banks(bins: int, fft_size: int, sample_rate: int, low_hz: float = 20.0) -> torch.Tensor:
    """Kaldi's triangular mel filters on the mel axis, (bins, fft_size // 2 + 1); the Nyquist bin gets none."""
    low, high = _mel(low_hz), _mel(sample_rate / 2)
    step = (high - low) / (bins + 1)
    left = low + torch.arange(bins, dtype=torch.float32)[:, None] * step
    centre, right = left + step, left + 2 * step
    mel = _mel(sample_rate / fft_size * torch.arange(fft_size // 2, dtype=torch.float32))[None, :]
    rising = (mel - left) / (centre - left)
    falling = (right - mel) / (right - centre)
    return F.pad(torch.clamp(torch.minimum(rising, falling), min=0.0), (0, 1))


def kaldi_fbank(waveform: torch.Tensor, sample_rate: int = 16_000, bins: int = 128) -> torch.Tensor:
    """Kaldi-compatible log-mel fbank of one float waveform scaled to 16-bit range: (frames, bins).

    25 ms frames every 10 ms that fit wholly in the signal, per-frame DC removal, pre-emphasis 0.97, Povey
    window, FFT zero-padded to a power of two, power spectrum, no dither.
    """
    length, shift = sample_rate * 25 // 1000, sample_rate * 10 // 1000
    fft_size = 1 << (length - 1).bit_length()
    count = 1 + (waveform.shape[-1] - length) // shift
    frames = waveform.as_strided((count, length), (shift * waveform.stride(-1), waveform.stride(-1)))
    frames = frames - frames.mean(dim=1, keepdim=True)
    previous = torch.cat([frames[:, :1], frames[:, :-1]], dim=1)
    frames = frames - 0.97 * previous
    frames = frames * torch.hann_window(length, periodic=False, dtype=frames.dtype, device=frames.device).pow(0.85)
    power = torch.fft.rfft(F.pad(frames, (0, fft_size - length))).abs().pow(2)
    energies = power @ _kaldi_mel_banks(bins, fft_size, sample_rate).to(power.device, power.dtype).T
    return torch.clamp(energies, min=torch.finfo(energies.dtype).eps).log()


def beats_fbank(waveforms: torch.Tensor) -> torch.Tensor:
    """BEATs' normalised input features of (B, samples) waveforms in [-1, 1] at 16 kHz: (B, frames, 128)."""
    banks = torch.stack([kaldi_fbank(w * 2 ** 15) for w in waveforms.float()])
    return (banks - FBANK_MEAN) / (2 * FBANK_STD)


def relative_position_buckets(length: int, buckets: int, max_distance: int) -> torch.Tensor:
    """T5-style bidirectional buckets of key-minus-query offsets: exact near zero, logarithmic further out."""
    offsets = torch.arange(length)[None, :] - torch.arange(length)[:, None]
    half = buckets // 2
    bucket = (offsets > 0).long() * half
    distance = offsets.abs()
    exact = half // 2
    far = exact + (torch.log(distance.float() / exact) / math.log(max_distance / exact) * (half - exact)).long()
    far = torch.clamp(far, max=half - 1)
    return bucket + torch.where(distance < exact, distance, far)


class WeightNormConv1d(nn.Module):
    """A grouped Conv1d stored as direction (weight_v) and per-tap magnitude (weight_g), as BEATs saves it."""

    def __init__(self, channels: int, kernel: int, groups: int) -> None:
        super().__init__()
        self.groups, self.padding = groups, kernel // 2
        self.weight_g = nn.Parameter(torch.ones(1, 1, kernel))
        self.weight_v = nn.Parameter(torch.randn(channels, channels // groups, kernel) * 0.02)
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weight = self.weight_v * (self.weight_g / self.weight_v.norm(dim=(0, 1), keepdim=True))
        return F.conv1d(x, weight, self.bias, padding=self.padding, groups=self.groups)


class DropLastStep(nn.Module):
    """An even-width 'same' convolution yields one step too many; BEATs drops the last."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x[..., :-1]


class BeatsAttention(nn.Module):
    def __init__(self, config: BeatsConfig, relative_bias: nn.Embedding) -> None:
        super().__init__()
        width, self.heads = config.encoder_embed_dim, config.encoder_attention_heads
        self.q_proj = nn.Linear(width, width)
        self.k_proj = nn.Linear(width, width)
        self.v_proj = nn.Linear(width, width)
        self.out_proj = nn.Linear(width, width)
        self.grep_linear = nn.Linear(width // self.heads, 8)
        self.grep_a = nn.Parameter(torch.ones(1, self.heads, 1, 1))
        # One table serves every layer (BEATs ties them); each layer gates it by its own queries.
        self.relative_attention_bias = relative_bias

    def forward(self, x: torch.Tensor, position_bias: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape

        def heads(t: torch.Tensor) -> torch.Tensor:
            return t.reshape(batch, length, self.heads, -1).transpose(1, 2)

        q = heads(self.q_proj(x))
        gates = torch.sigmoid(self.grep_linear(q).reshape(batch, self.heads, length, 2, 4).sum(-1))
        gate_a, gate_b = gates.chunk(2, dim=-1)
        gate = gate_a * (gate_b * self.grep_a - 1.0) + 2.0
        out = F.scaled_dot_product_attention(q, heads(self.k_proj(x)), heads(self.v_proj(x)),
                                             attn_mask=gate * position_bias)
        return self.out_proj(out.transpose(1, 2).reshape(batch, length, width))


class BeatsLayer(nn.Module):
    def __init__(self, config: BeatsConfig, relative_bias: nn.Embedding) -> None:
        super().__init__()
        width = config.encoder_embed_dim
        self.self_attn = BeatsAttention(config, relative_bias)
        self.self_attn_layer_norm = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, config.encoder_ffn_embed_dim)
        self.fc2 = nn.Linear(config.encoder_ffn_embed_dim, width)
        self.final_layer_norm = nn.LayerNorm(width)
        self.residual_scale = (2 * config.encoder_layers) ** 0.25     # deep-norm alpha

    def forward(self, x: torch.Tensor, position_bias: torch.Tensor) -> torch.Tensor:
        x = self.self_attn_layer_norm(x * self.residual_scale + self.self_attn(x, position_bias))
        return self.final_layer_norm(x * self.residual_scale + self.fc2(F.gelu(self.fc1(x))))


class BeatsEncoder(nn.Module):
    def __init__(self, config: BeatsConfig) -> None:
        super().__init__()
        width = config.encoder_embed_dim
        self.config = config
        self.pos_conv = nn.Sequential(WeightNormConv1d(width, config.conv_pos, config.conv_pos_groups),
                                      DropLastStep(), nn.GELU())
        table = nn.Embedding(config.num_buckets, config.encoder_attention_heads)
        self.layers = nn.ModuleList(BeatsLayer(config, table) for _ in range(config.encoder_layers))
        self.layer_norm = nn.LayerNorm(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.layer_norm(x + self.pos_conv(x.transpose(1, 2)).transpose(1, 2))
        buckets = relative_position_buckets(x.shape[1], self.config.num_buckets, self.config.max_distance)
        table = self.layers[0].self_attn.relative_attention_bias
        position_bias = table(buckets.to(x.device)).permute(2, 0, 1).unsqueeze(0).to(x.dtype)
        for layer in self.layers:
            x = layer(x, position_bias)
        return x


class Beats(nn.Module):
    def __init__(self, config: BeatsConfig) -> None:
        super().__init__()
        patch = config.input_patch_size
        self.patch_embedding = nn.Conv2d(1, config.embed_dim, kernel_size=patch, stride=patch,
                                         bias=config.conv_bias)
        self.layer_norm = nn.LayerNorm(config.embed_dim)
        self.post_extract_proj = (nn.Linear(config.embed_dim, config.encoder_embed_dim)
                                  if config.embed_dim != config.encoder_embed_dim else nn.Identity())
        self.encoder = BeatsEncoder(config)
        # The AudioSet classifier head is part of the checkpoint; Ola reads features, never its labels.
        self.predictor = nn.Linear(config.encoder_embed_dim, config.predictor_class)

    def forward(self, waveforms: torch.Tensor) -> torch.Tensor:
        """(B, samples) at 16 kHz -> (B, frames // 16 * 8, encoder width): time-major 16x16 fbank patches."""
        patches = self.patch_embedding(beats_fbank(waveforms).unsqueeze(1).to(self.patch_embedding.weight.dtype))
        x = self.layer_norm(patches.flatten(2).transpose(1, 2))
        return self.encoder(self.post_extract_proj(x))
