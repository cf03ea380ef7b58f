"""Ola's dual speech encoder: Whisper for speech content and BEATs for non-speech sound, side by side.

Both see the same 30 s chunks; their frame sequences are zero-padded to equal length and concatenated along
channels. Ola rounds the result to bfloat16 whatever the encoders ran in, and the projector was trained on
that rounding, so it is kept.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .beats import Beats
from .config import BeatsConfig, WhisperEncoderConfig
from .whisper import WhisperAudioEncoder


class DualSpeechEncoder(nn.Module):
    def __init__(self, whisper: WhisperEncoderConfig, beats: BeatsConfig) -> None:
        super().__init__()
        self.whisper_model = WhisperAudioEncoder(whisper)
        self.beats_model = Beats(beats)

    def forward(self, mels: torch.Tensor, waveforms: torch.Tensor) -> torch.Tensor:
        """(chunks, mel frames, n_mels) log-mels and (chunks, samples) waveforms -> (chunks, frames, width)."""
        speech = self.whisper_model(mels.transpose(1, 2).to(self.whisper_model.conv1.weight.dtype))
        sound = self.beats_model(waveforms)
        frames = max(speech.shape[1], sound.shape[1])
        speech = F.pad(speech, (0, 0, 0, frames - speech.shape[1]))
        sound = F.pad(sound, (0, 0, 0, frames - sound.shape[1]))
        return torch.cat([speech.to(torch.bfloat16), sound.to(torch.bfloat16)], dim=-1)
