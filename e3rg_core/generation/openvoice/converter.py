"""OpenVoice's tone colour converter: re-voices speech with another speaker's timbre, keeping content, rhythm and
emotion. Upstream's WavMark watermark is left out: it adds no quality and one more download to every Space start.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import torch
from torch import nn

from .checkpoints import (CONVERTER_FILES, FileResolver, hub_resolver, load_strict, read_model_state)
from .config import ConverterConfig
from .modules import (CouplingFlow, Generator, PosteriorEncoder, ReferenceEncoder, fold_weight_norm,
                      sequence_mask)
from .spectrogram import linear_spectrogram

DEFAULT_TAU = 0.3       # upstream's default spread of the posterior sample


@dataclass(frozen=True)
class Conversion:
    audio: torch.Tensor     # [B, 1, frames * hop]
    z: torch.Tensor         # posterior sample, [B, inter, frames]
    z_p: torch.Tensor       # the same in the speaker-independent space
    z_hat: torch.Tensor     # mapped back out with the target tone colour


class ToneColorConverterNet(nn.Module):
    """The converter network (upstream SynthesizerTrn with n_speakers=0); attribute names match the weights."""

    def __init__(self, config: ConverterConfig):
        super().__init__()
        decoder = config.decoder
        self.zero_g = config.zero_g
        self.dec = Generator(config.inter_channels, decoder.resblock_kernel_sizes, decoder.resblock_dilation_sizes,
                             decoder.upsample_rates, decoder.upsample_initial_channel,
                             decoder.upsample_kernel_sizes, config.gin_channels)
        self.enc_q = PosteriorEncoder(config.audio.spec_channels, config.inter_channels, config.hidden_channels,
                                      config.gin_channels)
        self.flow = CouplingFlow(config.inter_channels, config.hidden_channels, config.gin_channels)
        self.ref_enc = ReferenceEncoder(config.audio.spec_channels, config.gin_channels)

    def tone_color(self, spec: torch.Tensor) -> torch.Tensor:
        """[B, F, T] spectrogram -> [B, gin, 1] tone-colour embedding."""
        return self.ref_enc(spec).unsqueeze(-1)

    def voice_conversion(self, spec: torch.Tensor, lengths: torch.Tensor, src_se: torch.Tensor,
                         tgt_se: torch.Tensor, tau: float, generator: torch.Generator | None = None) -> Conversion:
        mask = sequence_mask(lengths, spec.size(2))
        # V2 was trained to read content without any speaker vector; only the flows see the tone colours.
        content_src = torch.zeros_like(src_se) if self.zero_g else src_se
        render_tgt = torch.zeros_like(tgt_se) if self.zero_g else tgt_se
        z = self.enc_q(spec, mask, content_src, tau, generator)
        z_p = self.flow(z, mask, g=src_se)
        z_hat = self.flow(z_p, mask, g=tgt_se, reverse=True)
        audio = self.dec(z_hat * mask, g=render_tgt)
        return Conversion(audio=audio, z=z, z_p=z_p, z_hat=z_hat)


class ToneColorConverter:
    """Inference wrapper: numpy audio in, numpy audio out, at the config's sampling rate (22,050 Hz)."""

    def __init__(self, net: ToneColorConverterNet, config: ConverterConfig, device: str | torch.device = "cpu"):
        self.net = net.eval().requires_grad_(False).to(device)
        self.config = config
        self.device = torch.device(device)

    @property
    def sample_rate(self) -> int:
        return self.config.audio.sampling_rate

    @property
    def version(self) -> str:
        return self.config.version

    @cached_property
    def fingerprint(self) -> str:
        """A short digest of the reference encoder's weights: tone colours are only comparable under one."""
        digest = hashlib.sha256()
        for name, tensor in self.net.ref_enc.state_dict().items():
            digest.update(name.encode())
            digest.update(tensor.detach().float().cpu().contiguous().numpy().tobytes())
        return digest.hexdigest()[:12]

    @classmethod
    def from_files(cls, config_path: str | Path, checkpoint_path: str | Path,
                   device: str | torch.device = "cpu") -> ToneColorConverter:
        """Build from a config.json and its checkpoint.pth (strict load, then weight norm folded)."""
        config = ConverterConfig.from_file(config_path)
        with torch.device("meta"):
            net = ToneColorConverterNet(config)
        load_strict(net, read_model_state(checkpoint_path), str(checkpoint_path))
        return cls(fold_weight_norm(net), config, device)

    @classmethod
    def from_pretrained(cls, version: str = "v2", device: str | torch.device = "cpu",
                        local_files_only: bool = False, resolve: FileResolver | None = None) -> ToneColorConverter:
        """The official V1 ('v1') or V2 ('v2') converter from the hub (or from resolve, e.g. a local copy)."""
        if version not in CONVERTER_FILES:
            raise ValueError(f"OpenVoice converter version must be one of {sorted(CONVERTER_FILES)}, not {version!r}.")
        files = CONVERTER_FILES[version]
        resolve = resolve or hub_resolver(local_files_only)
        return cls.from_files(resolve(files.config), resolve(files.checkpoint), device)

    def _spectrogram(self, audio: np.ndarray, sample_rate: int) -> torch.Tensor:
        samples = np.asarray(audio, dtype=np.float32).reshape(-1)
        if sample_rate != self.sample_rate:
            import librosa
            samples = librosa.resample(samples, orig_sr=sample_rate, target_sr=self.sample_rate)
        wave = torch.from_numpy(np.ascontiguousarray(samples)).to(self.device)[None]
        return linear_spectrogram(wave, self.config.audio)

    @torch.inference_mode()
    def extract_se(self, wavs: Sequence[np.ndarray], sample_rate: int | None = None) -> torch.Tensor:
        """The mean tone colour of one or more clips of one voice: [1, gin, 1]."""
        if not wavs:
            raise ValueError("extract_se needs at least one clip.")
        rate = sample_rate or self.sample_rate
        embeddings = [self.net.tone_color(self._spectrogram(wav, rate)) for wav in wavs]
        return torch.stack(embeddings).mean(0)

    @torch.inference_mode()
    def convert(self, audio: np.ndarray, src_se: torch.Tensor, tgt_se: torch.Tensor, tau: float = DEFAULT_TAU,
                sample_rate: int | None = None, seed: int | None = None) -> np.ndarray:
        """audio spoken with tone colour src_se, re-voiced with tgt_se (float32 at self.sample_rate).

        tau scales the posterior sample's noise; tau=0 or a seed makes the result reproducible.
        """
        spec = self._spectrogram(audio, sample_rate or self.sample_rate)
        generator = None if seed is None else torch.Generator(self.device).manual_seed(seed)
        lengths = torch.tensor([spec.size(2)], device=self.device)
        result = self.net.voice_conversion(spec, lengths, src_se.to(self.device), tgt_se.to(self.device),
                                           tau, generator)
        return result.audio[0, 0].float().cpu().numpy()
