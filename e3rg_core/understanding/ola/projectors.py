"""The two projectors that turn encoder features into LLM input embeddings.

Vision ("ola_mlp"): Linear -> local-global 2x2 attention pooling -> GELU -> Linear, laid out row by row with
a learned newline after each row, and wrapped in learned begin/end vectors (separator between views).
Speech: k consecutive encoder frames concatenated -> Linear -> ReLU -> Linear, a learned newline after each
30 s chunk, and learned begin/end vectors around the clip.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .config import SPEECH_PROJECTOR_HIDDEN


def _learned_vector(width: int) -> nn.Parameter:
    return nn.Parameter(torch.randn(width) / math.sqrt(width))


class NormalizedDwPooler(nn.Module):
    """Merges each 2x2 cell into one vector, weighting its four members by a softmax over scores predicted
    from each member and the cell mean."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.predictor = nn.Sequential(nn.Linear(2 * width, width), nn.GELU(), nn.Linear(width, width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, rows, cols, width = x.shape
        cells = x.reshape(batch, rows // 2, 2, cols // 2, 2, width).permute(0, 1, 3, 2, 4, 5)
        cells = cells.reshape(batch, rows // 2, cols // 2, 4, width)
        means = cells.mean(dim=-2, keepdim=True).expand_as(cells)
        weights = F.softmax(self.predictor(torch.cat([cells, means], dim=-1)), dim=-2)
        return (cells * weights).sum(dim=-2)


class OlaVisionProjector(nn.Module):
    def __init__(self, in_width: int, out_width: int) -> None:
        super().__init__()
        self.proj1 = nn.Linear(in_width, out_width)
        self.proj2 = nn.Linear(out_width, out_width)
        self.pooler = NormalizedDwPooler(out_width)
        self.image_newline = _learned_vector(out_width)
        self.image_begin = _learned_vector(out_width)
        self.image_end = _learned_vector(out_width)
        self.image_sep = _learned_vector(out_width)

    def rows(self, features: torch.Tensor, grid: tuple[int, int]) -> torch.Tensor:
        """(B, rows*cols, in) patch features -> (B, rows/2 * (cols/2 + 1), out): pooled rows, each + newline."""
        rows, cols = grid
        x = self.proj1(features.reshape(features.shape[0], rows, cols, -1))
        x = self.proj2(F.gelu(self.pooler(x)))
        batch, rows, cols, width = x.shape
        newline = self.image_newline.to(x.dtype).expand(batch, rows, 1, width)
        return torch.cat([x, newline], dim=2).reshape(batch, -1, width)

    def _marker(self, vector: nn.Parameter, like: torch.Tensor) -> torch.Tensor:
        return vector.to(like.dtype).reshape(1, 1, -1).expand(like.shape[0], 1, -1)

    def image(self, lowres: torch.Tensor, lowres_grid: tuple[int, int],
              highres: torch.Tensor | None = None, highres_grid: tuple[int, int] | None = None) -> torch.Tensor:
        """[begin, low-res rows, (sep, high-res rows), end] per image: (B, tokens, out)."""
        x = self.rows(lowres, lowres_grid)
        if highres is not None:
            x = torch.cat([x, self._marker(self.image_sep, x), self.rows(highres, highres_grid)], dim=1)
        return torch.cat([self._marker(self.image_begin, x), x, self._marker(self.image_end, x)], dim=1)

    def video(self, frames: torch.Tensor, grid: tuple[int, int]) -> torch.Tensor:
        """[begin, frame 1 rows, sep, frame 2 rows, sep, ..., end]: (tokens, out)."""
        x = self.rows(frames, grid)
        x = torch.cat([x, self._marker(self.image_sep, x)], dim=1).flatten(0, 1)
        begin, end = self.image_begin.to(x.dtype)[None], self.image_end.to(x.dtype)[None]
        return torch.cat([begin, x, end])


class SpeechProjector(nn.Module):
    def __init__(self, encoder_width: int, out_width: int, frames_per_token: int) -> None:
        super().__init__()
        self.k = frames_per_token
        self.linear1 = nn.Linear(encoder_width * frames_per_token, SPEECH_PROJECTOR_HIDDEN)
        self.linear2 = nn.Linear(SPEECH_PROJECTOR_HIDDEN, out_width)
        self.speech_newline = _learned_vector(out_width)
        self.speech_begin = _learned_vector(out_width)
        self.speech_end = _learned_vector(out_width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(chunks, frames, width) -> (1 + chunks * (frames // k + 1) + 1, out); leftover frames are dropped."""
        chunks, frames, width = x.shape
        kept = frames - frames % self.k
        x = x[:, :kept].reshape(chunks, kept // self.k, width * self.k)
        x = self.linear2(F.relu(self.linear1(x)))
        newline = self.speech_newline.to(x.dtype).expand(chunks, 1, -1)
        x = torch.cat([x, newline], dim=1).flatten(0, 1)
        return torch.cat([self.speech_begin.to(x.dtype)[None], x, self.speech_end.to(x.dtype)[None]])
