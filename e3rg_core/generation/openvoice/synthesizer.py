"""OpenVoice V1's English base speaker: a multi-speaker VITS whose ten speaker rows include nine speaking
styles (default, whispering, shouting, excited, cheerful, terrified, angry, sad, friendly).

Text -> IPA ids -> prior text encoder -> durations (blend of the stochastic and deterministic predictors) ->
prior latent expanded to frames -> flow (reverse, conditioned on the style row) -> HiFi-GAN -> 22,050 Hz.
Emotion intensity moves the speaker vector from the default row towards the style's row.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ...emotions import OPENVOICE_STYLES
from ...errors import CheckpointMismatchError
from .checkpoints import (EN_BASE_SPEAKER_FILES, FileResolver, hub_resolver, load_strict, read_model_state,
                          read_speaker_embedding)
from .config import BaseSpeakerConfig
from .duration import DurationPredictor, StochasticDurationPredictor
from .modules import CouplingFlow, Generator, PosteriorEncoder, fold_weight_norm, sequence_mask
from .text import text_to_pieces
from .text_encoder import TextEncoder

# Upstream's inference settings for the base speaker.
NOISE_SCALE = 0.667         # spread of the prior sample (voice texture)
NOISE_SCALE_W = 0.6         # spread of the stochastic durations (rhythm)
SDP_RATIO = 0.2             # weight of the stochastic durations against the deterministic ones
PIECE_PAUSE_SECONDS = 0.05  # silence after each sentence piece, shortened by the speed
DEFAULT_STYLE = "default"


@dataclass(frozen=True)
class Synthesis:
    audio: torch.Tensor             # [B, 1, frames * hop]
    log_durations: torch.Tensor     # [B, 1, T] blended log-durations before the length scale
    durations: torch.Tensor         # [B, 1, T] whole frames per symbol
    z_p: torch.Tensor               # [B, inter, frames] prior sample


def monotonic_alignment(durations: torch.Tensor, text_mask: torch.Tensor, frame_mask: torch.Tensor) -> torch.Tensor:
    """[B, 1, T] whole durations -> [B, T, frames] 0/1 matrix giving each frame to one symbol, in order."""
    ends = torch.cumsum(durations[:, 0], dim=-1)
    starts = ends - durations[:, 0]
    frames = torch.arange(frame_mask.size(-1), device=durations.device, dtype=durations.dtype)
    path = (frames[None, None, :] >= starts[..., None]) & (frames[None, None, :] < ends[..., None])
    return path.to(durations.dtype) * text_mask.transpose(1, 2) * frame_mask


class BaseSpeakerNet(nn.Module):
    """The base speaker network (upstream SynthesizerTrn with n_speakers > 0).

    enc_q (the posterior encoder) is used only in training; it is built so the checkpoint loads strictly.
    """

    def __init__(self, config: BaseSpeakerConfig):
        super().__init__()
        decoder = config.decoder
        self.dec = Generator(config.inter_channels, decoder.resblock_kernel_sizes, decoder.resblock_dilation_sizes,
                             decoder.upsample_rates, decoder.upsample_initial_channel,
                             decoder.upsample_kernel_sizes, config.gin_channels)
        self.enc_q = PosteriorEncoder(config.audio.spec_channels, config.inter_channels, config.hidden_channels,
                                      config.gin_channels)
        self.flow = CouplingFlow(config.inter_channels, config.hidden_channels, config.gin_channels)
        self.enc_p = TextEncoder(len(config.symbols), config.inter_channels, config.hidden_channels,
                                 config.filter_channels, config.n_heads, config.n_layers, config.kernel_size)
        self.sdp = StochasticDurationPredictor(config.hidden_channels, 3, config.gin_channels)
        self.dp = DurationPredictor(config.hidden_channels, 256, 3, config.gin_channels)
        self.emb_g = nn.Embedding(config.n_speakers, config.gin_channels)

    def speaker_vector(self, speaker_ids: torch.Tensor) -> torch.Tensor:
        """[B] speaker ids -> [B, gin, 1]."""
        return self.emb_g(speaker_ids).unsqueeze(-1)

    def infer(self, ids: torch.Tensor, lengths: torch.Tensor, g: torch.Tensor, noise_scale: float = NOISE_SCALE,
              length_scale: float = 1.0, noise_scale_w: float = NOISE_SCALE_W, sdp_ratio: float = SDP_RATIO,
              generator: torch.Generator | None = None, max_frames: int | None = None) -> Synthesis:
        x, mean, log_std, text_mask = self.enc_p(ids, lengths)
        log_durations = (self.sdp(x, text_mask, g, noise_scale_w, generator) * sdp_ratio
                         + self.dp(x, text_mask, g) * (1 - sdp_ratio))
        durations = torch.ceil(torch.exp(log_durations) * text_mask * length_scale)
        frame_lengths = torch.clamp_min(durations.sum(dim=(1, 2)), 1).long()
        frame_mask = sequence_mask(frame_lengths, int(frame_lengths.max())).to(x.dtype)
        path = monotonic_alignment(durations, text_mask, frame_mask)
        z_p = mean @ path
        if noise_scale > 0:
            noise = torch.randn(z_p.shape, generator=generator, device=z_p.device, dtype=z_p.dtype)
            z_p = z_p + noise * torch.exp(log_std @ path) * noise_scale
        z = self.flow(z_p, frame_mask, g=g, reverse=True)
        audio = self.dec((z * frame_mask)[:, :, :max_frames], g=g)
        return Synthesis(audio=audio, log_durations=log_durations, durations=durations, z_p=z_p)


def require_styles(config: BaseSpeakerConfig) -> None:
    """The speaker map must name a row for every style the engine may ask for."""
    missing = [style for style in OPENVOICE_STYLES if style not in config.speakers]
    if missing:
        raise CheckpointMismatchError(f"The base speaker config has no speaker id for the styles {missing}.")


class BaseSpeakerTTS:
    """Styled English speech from the V1 base speaker, plus the tone colours its styles are spoken in."""

    def __init__(self, net: BaseSpeakerNet, config: BaseSpeakerConfig, default_se: torch.Tensor,
                 style_se: torch.Tensor, device: str | torch.device = "cpu"):
        require_styles(config)
        self.device = torch.device(device)
        self.net = net.eval().requires_grad_(False).to(self.device)
        self.config = config
        self.default_se = default_se.to(self.device)
        self.style_se = style_se.to(self.device)

    @property
    def sample_rate(self) -> int:
        return self.config.audio.sampling_rate

    @classmethod
    def from_files(cls, config_path: str | Path, checkpoint_path: str | Path, default_se_path: str | Path,
                   style_se_path: str | Path, device: str | torch.device = "cpu") -> BaseSpeakerTTS:
        config = BaseSpeakerConfig.from_file(config_path)
        require_styles(config)      # before reading 160 MB of weights
        with torch.device("meta"):
            net = BaseSpeakerNet(config)
        load_strict(net, read_model_state(checkpoint_path), str(checkpoint_path))
        return cls(fold_weight_norm(net), config, read_speaker_embedding(default_se_path, config.gin_channels),
                   read_speaker_embedding(style_se_path, config.gin_channels), device)

    @classmethod
    def from_pretrained(cls, device: str | torch.device = "cpu", local_files_only: bool = False,
                        resolve: FileResolver | None = None) -> BaseSpeakerTTS:
        """The official V1 English base speaker (checkpoints/base_speakers/EN) and its two source tone colours."""
        resolve = resolve or hub_resolver(local_files_only)
        return cls.from_files(*(resolve(file) for file in EN_BASE_SPEAKER_FILES.all()), device=device)

    def _row(self, style: str) -> torch.Tensor:
        if style not in OPENVOICE_STYLES:
            raise ValueError(f"Unknown OpenVoice style '{style}'.")
        speaker = torch.tensor([self.config.speakers[style]], device=self.device)
        return self.net.speaker_vector(speaker)

    def style_vector(self, style: str, intensity: float) -> torch.Tensor:
        """Speaker vector [1, gin, 1]: the default row moved by intensity (0..1) towards the style's row."""
        return torch.lerp(self._row(DEFAULT_STYLE), self._row(style), intensity)

    def source_tone_color(self, style: str, intensity: float) -> torch.Tensor:
        """Tone colour of speech made with style_vector(style, intensity), in the V1 converter's space.

        Upstream measured one colour for the default style and one shared by the other eight; a partly
        styled voice sits between them in the same proportion as its speaker vector.
        """
        if style == DEFAULT_STYLE:
            return self.default_se
        return torch.lerp(self.default_se, self.style_se, intensity)

    @torch.inference_mode()
    def synthesize(self, text: str, style: str = DEFAULT_STYLE, intensity: float = 1.0, speed: float = 1.0,
                   seed: int | None = None, max_seconds: float | None = None) -> np.ndarray:
        """Float32 speech at self.sample_rate (empty when the text has nothing pronounceable).

        Each sentence piece is followed by a short pause. With max_seconds, speech ends after the last piece
        that fits whole; only a first piece longer than the limit is cut.
        """
        g = self.style_vector(style, intensity)
        generator = None if seed is None else torch.Generator(self.device).manual_seed(seed)
        hop = self.config.audio.hop_length
        budget = None if max_seconds is None else int(max_seconds * self.sample_rate)
        pause = np.zeros(int(self.sample_rate * PIECE_PAUSE_SECONDS / speed), dtype=np.float32)
        chunks: list[np.ndarray] = []
        used = 0
        for ids in text_to_pieces(text, self.config.symbols, self.config.add_blank):
            max_frames = None if budget is None else -(-(budget - used) // hop)
            tokens = torch.tensor([ids], device=self.device)
            result = self.net.infer(tokens, torch.tensor([len(ids)], device=self.device), g,
                                    length_scale=1.0 / speed, generator=generator, max_frames=max_frames)
            if chunks and max_frames is not None and result.z_p.size(2) > max_frames:
                break
            chunks += [result.audio[0, 0].float().cpu().numpy(), pause]
            used += len(chunks[-2]) + len(pause)
            if budget is not None and used >= budget:
                break
        speech = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
        return speech if budget is None else speech[:budget]
