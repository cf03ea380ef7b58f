"""OpenVoice's config.json files, read into dataclasses and checked against what this port can build.

Only the fields that shape the networks or the front end are read; anything else in the files (training
settings, MeloTTS leftovers such as contentvec_final_proj) is ignored, as upstream does. A file that asks for
something this port does not build raises CheckpointMismatchError instead of silently loading the wrong model.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import CheckpointMismatchError
from .text import CLEANER, SYMBOLS


def _section(raw: dict, name: str, source: str) -> dict:
    value = raw.get(name)
    if not isinstance(value, dict):
        raise CheckpointMismatchError(f"{source}: the config has no '{name}' section.")
    return value


def _field(section: dict, name: str, source: str) -> Any:
    if name not in section:
        raise CheckpointMismatchError(f"{source}: the config has no '{name}' field.")
    return section[name]


def read_json(path: str | Path) -> dict:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CheckpointMismatchError(f"{path}: not a readable config.json ({error}).") from None
    if not isinstance(raw, dict):
        raise CheckpointMismatchError(f"{path}: a config.json must hold a JSON object.")
    return raw


@dataclass(frozen=True)
class AudioConfig:
    """The linear spectrogram both networks read, and the rate they write."""
    sampling_rate: int
    filter_length: int
    hop_length: int
    win_length: int

    @property
    def spec_channels(self) -> int:
        return self.filter_length // 2 + 1

    @classmethod
    def from_section(cls, data: dict, source: str) -> AudioConfig:
        return cls(*(int(_field(data, name, source))
                     for name in ("sampling_rate", "filter_length", "hop_length", "win_length")))


@dataclass(frozen=True)
class DecoderConfig:
    """HiFi-GAN generator shape."""
    resblock_kernel_sizes: tuple[int, ...]
    resblock_dilation_sizes: tuple[tuple[int, ...], ...]
    upsample_rates: tuple[int, ...]
    upsample_initial_channel: int
    upsample_kernel_sizes: tuple[int, ...]

    @classmethod
    def from_section(cls, model: dict, audio: AudioConfig, source: str) -> DecoderConfig:
        if str(model.get("resblock", "1")) != "1":
            raise CheckpointMismatchError(f"{source}: resblock '{model['resblock']}' is not built by this port "
                                          "(OpenVoice checkpoints use '1').")
        decoder = cls(
            resblock_kernel_sizes=tuple(int(k) for k in _field(model, "resblock_kernel_sizes", source)),
            resblock_dilation_sizes=tuple(tuple(int(d) for d in ds)
                                          for ds in _field(model, "resblock_dilation_sizes", source)),
            upsample_rates=tuple(int(r) for r in _field(model, "upsample_rates", source)),
            upsample_initial_channel=int(_field(model, "upsample_initial_channel", source)),
            upsample_kernel_sizes=tuple(int(k) for k in _field(model, "upsample_kernel_sizes", source)))
        # One latent frame must become exactly one hop of audio, or speech and spectrogram drift apart.
        if math.prod(decoder.upsample_rates) != audio.hop_length:
            raise CheckpointMismatchError(
                f"{source}: upsample rates {list(decoder.upsample_rates)} multiply to "
                f"{math.prod(decoder.upsample_rates)}, but the hop length is {audio.hop_length}.")
        if len(decoder.upsample_rates) != len(decoder.upsample_kernel_sizes) or \
                len(decoder.resblock_kernel_sizes) != len(decoder.resblock_dilation_sizes):
            raise CheckpointMismatchError(f"{source}: the decoder's kernel and rate lists differ in length.")
        return decoder


@dataclass(frozen=True)
class ConverterConfig:
    """ToneColorConverter (OpenVoice V1 'checkpoints/converter' or V2 'converter')."""
    version: str
    audio: AudioConfig
    decoder: DecoderConfig
    inter_channels: int
    hidden_channels: int
    gin_channels: int
    zero_g: bool        # V2: the posterior encoder and the decoder see an all-zero speaker vector

    @classmethod
    def from_dict(cls, raw: dict, source: str = "converter config") -> ConverterConfig:
        data, model = _section(raw, "data", source), _section(raw, "model", source)
        if int(data.get("n_speakers", 0)) != 0:
            raise CheckpointMismatchError(
                f"{source}: n_speakers is {data['n_speakers']}; a tone colour converter config has 0.")
        audio = AudioConfig.from_section(data, source)
        return cls(version=str(raw.get("_version_", "v1")), audio=audio,
                   decoder=DecoderConfig.from_section(model, audio, source),
                   inter_channels=int(_field(model, "inter_channels", source)),
                   hidden_channels=int(_field(model, "hidden_channels", source)),
                   gin_channels=int(_field(model, "gin_channels", source)),
                   zero_g=bool(model.get("zero_g", False)))

    @classmethod
    def from_file(cls, path: str | Path) -> ConverterConfig:
        return cls.from_dict(read_json(path), str(path))


@dataclass(frozen=True)
class BaseSpeakerConfig:
    """OpenVoice V1 base speaker (a multi-speaker VITS): network shape, text front end and speaker map."""
    audio: AudioConfig
    decoder: DecoderConfig
    inter_channels: int
    hidden_channels: int
    filter_channels: int
    n_heads: int
    n_layers: int
    kernel_size: int
    gin_channels: int
    n_speakers: int
    symbols: tuple[str, ...]
    add_blank: bool
    speakers: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, raw: dict, source: str = "base speaker config") -> BaseSpeakerConfig:
        data, model = _section(raw, "data", source), _section(raw, "model", source)
        cleaners = list(data.get("text_cleaners", []))
        if cleaners != [CLEANER]:
            raise CheckpointMismatchError(
                f"{source}: text_cleaners {cleaners}; this port writes only ['{CLEANER}'].")
        symbols = tuple(_field(raw, "symbols", source))
        # Ids come from this table, and the front end writes cjke_cleaners2 characters: any other table would
        # feed the network the wrong phonemes.
        if symbols != SYMBOLS:
            raise CheckpointMismatchError(
                f"{source}: its symbol table ({len(symbols)} entries) is not the {len(SYMBOLS)}-entry "
                f"{CLEANER} table the English front end writes.")
        n_speakers = int(_field(data, "n_speakers", source))
        if n_speakers <= 0:
            raise CheckpointMismatchError(f"{source}: a base speaker needs n_speakers > 0.")
        speakers = {str(name): int(index) for name, index in dict(raw.get("speakers", {})).items()}
        out_of_range = {name: index for name, index in speakers.items() if not 0 <= index < n_speakers}
        if out_of_range:
            raise CheckpointMismatchError(f"{source}: speaker ids {out_of_range} are outside 0..{n_speakers - 1}.")
        audio = AudioConfig.from_section(data, source)
        return cls(audio=audio, decoder=DecoderConfig.from_section(model, audio, source),
                   inter_channels=int(_field(model, "inter_channels", source)),
                   hidden_channels=int(_field(model, "hidden_channels", source)),
                   filter_channels=int(_field(model, "filter_channels", source)),
                   n_heads=int(_field(model, "n_heads", source)),
                   n_layers=int(_field(model, "n_layers", source)),
                   kernel_size=int(_field(model, "kernel_size", source)),
                   gin_channels=int(_field(model, "gin_channels", source)),
                   n_speakers=n_speakers, symbols=symbols, add_blank=bool(data.get("add_blank", False)),
                   speakers=speakers)

    @classmethod
    def from_file(cls, path: str | Path) -> BaseSpeakerConfig:
        return cls.from_dict(read_json(path), str(path))
