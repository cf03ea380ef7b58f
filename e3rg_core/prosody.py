"""Voice measurements shared by the prosody voter and the lite voice matcher."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .contracts import AudioClip

_HOP = 256


@dataclass(frozen=True)
class Prosody:
    median_f0: float        # Hz over voiced frames (0 when nothing is voiced)
    f0_spread: float        # semitone standard deviation of the voiced pitch
    energy: float           # mean RMS
    energy_spread: float    # RMS coefficient of variation
    voiced_fraction: float
    onset_rate: float       # onsets per second, a proxy for speaking rate


def pitch_track(clip: AudioClip) -> np.ndarray:
    """Per-frame F0 in Hz, NaN where unvoiced (YIN with an RMS gate; pYIN is too slow for a request path)."""
    import librosa
    y = clip.samples.astype(np.float32)
    f0 = librosa.yin(y, fmin=65.0, fmax=600.0, sr=clip.sample_rate, frame_length=2048, hop_length=_HOP)
    rms = librosa.feature.rms(y=y, frame_length=2048, hop_length=_HOP)[0][: len(f0)]
    voiced = rms > max(1e-3, 0.1 * float(np.max(rms, initial=0.0)))
    return np.where(voiced[: len(f0)], f0[: len(voiced)], np.nan)


def measure(clip: AudioClip) -> Prosody:
    import librosa
    f0 = pitch_track(clip)
    voiced = f0[np.isfinite(f0)]
    rms = librosa.feature.rms(y=clip.samples, frame_length=2048, hop_length=_HOP)[0]
    onsets = librosa.onset.onset_detect(y=clip.samples, sr=clip.sample_rate, hop_length=_HOP)
    semitones = 12 * np.log2(voiced / np.median(voiced)) if len(voiced) else np.zeros(1)
    return Prosody(
        median_f0=float(np.median(voiced)) if len(voiced) else 0.0,
        f0_spread=float(np.std(semitones)),
        energy=float(np.mean(rms)),
        energy_spread=float(np.std(rms) / (np.mean(rms) + 1e-8)),
        voiced_fraction=float(len(voiced) / max(1, len(f0))),
        onset_rate=float(len(onsets) / max(clip.seconds, 1e-3)),
    )
