"""The linear magnitude spectrogram OpenVoice's posterior and reference encoders read (no mel, no log)."""
from __future__ import annotations

import torch
from torch.nn import functional as F

from .config import AudioConfig


def linear_spectrogram(wave: torch.Tensor, audio: AudioConfig) -> torch.Tensor:
    """[B, N] samples in [-1, 1] -> [B, filter_length // 2 + 1, (N - hop) // hop + 1] magnitudes.

    The wave is reflect-padded by (n_fft - hop) / 2 on both sides and framed without centring, so frame t
    covers samples around t * hop; the 1e-6 under the square root matches training.
    """
    pad = (audio.filter_length - audio.hop_length) // 2
    padded = F.pad(wave.unsqueeze(1), (pad, pad), mode="reflect").squeeze(1)
    window = torch.hann_window(audio.win_length, device=wave.device, dtype=wave.dtype)
    spectrum = torch.stft(padded, audio.filter_length, hop_length=audio.hop_length, win_length=audio.win_length,
                          window=window, center=False, normalized=False, onesided=True, return_complex=True)
    return torch.sqrt(spectrum.real.pow(2) + spectrum.imag.pow(2) + 1e-6)
