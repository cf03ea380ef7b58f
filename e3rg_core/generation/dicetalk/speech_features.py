"""Speech -> whisper-tiny encoder states -> one 10-token window per generated video frame.

Time bases: 16 kHz samples; audio units of 640 samples (25 fps); whisper tokens at 50 Hz (2 per unit); video
frames at 12.5 fps (2 units, 4 tokens). The waveform goes through whisper in 30 s pieces, each padded to 3000
mel frames as whisper requires; all 5 encoder hidden states (embeddings + 4 layers) are kept per token.
Frame i sees tokens [4i - 4, 4i + 6), with zeros outside the clip.
"""
from __future__ import annotations

import numpy as np
import torch
from torch import nn

SAMPLE_RATE = 16_000
SAMPLES_PER_UNIT = 640
UNITS_PER_FRAME = 2
TOKENS_PER_UNIT = 2
WINDOW_TOKENS = 10
TOKENS_BEFORE = 4            # tokens of context before a frame's own (the rest of the window follows it)
CHUNK_SAMPLES = 480_000      # 30 s: whisper's input length


def frame_count(num_samples: int) -> int:
    """Video frames generated for a clip of num_samples at 16 kHz (12.5 fps)."""
    return num_samples // SAMPLES_PER_UNIT // UNITS_PER_FRAME


def window_token_index(num_samples: int) -> np.ndarray:
    """(frames, 10) int64 indices into the clip's encoder tokens; -1 marks a window position outside the clip."""
    tokens = num_samples // SAMPLES_PER_UNIT * TOKENS_PER_UNIT
    stride = UNITS_PER_FRAME * TOKENS_PER_UNIT
    index = (np.arange(frame_count(num_samples))[:, None] * stride - TOKENS_BEFORE
             + np.arange(WINDOW_TOKENS)[None, :])
    return np.where((index >= 0) & (index < tokens), index, -1).astype(np.int64)


def frame_windows(hidden_stack: torch.Tensor, num_samples: int) -> torch.Tensor:
    """(tokens, layers, width) encoder states -> (frames, 10, layers, width) windows, zero outside the clip."""
    index = torch.from_numpy(window_token_index(num_samples)).to(hidden_stack.device)
    # Index -1 picks the zero row appended last.
    rows = torch.cat([hidden_stack, hidden_stack.new_zeros(1, *hidden_stack.shape[1:])])
    return rows[index]


class SpeechEncoder:
    """whisper-tiny's feature extractor and encoder, run over a clip in 30 s pieces."""

    def __init__(self, feature_extractor, encoder: nn.Module):
        self.feature_extractor = feature_extractor
        self.encoder = encoder

    @torch.no_grad()
    def hidden_stack(self, samples: np.ndarray) -> torch.Tensor:
        """(tokens, 5, width) float32: every encoder hidden state per 50 Hz token, 1500 tokens per piece."""
        parameter = next(self.encoder.parameters())
        pieces = []
        for start in range(0, len(samples), CHUNK_SAMPLES):
            features = self.feature_extractor(samples[start:start + CHUNK_SAMPLES], sampling_rate=SAMPLE_RATE,
                                              return_tensors="pt").input_features
            states = self.encoder(features.to(parameter.device, parameter.dtype),
                                  output_hidden_states=True).hidden_states
            pieces.append(torch.stack(states, dim=2)[0].float())
        return torch.cat(pieces)

    def windows(self, samples: np.ndarray) -> torch.Tensor:
        """(frames, 10, 5, width) encoder windows for a 16 kHz clip."""
        return frame_windows(self.hidden_stack(samples), len(samples))
