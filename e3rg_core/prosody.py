"""Voice measurements shared by the prosody voter and the lite voice matcher."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .contracts import AudioClip

_HOP = 256
_FRAME = 2048
_FMIN, _FMAX = 65.0, 600.0
# Over one pitch period a voiced vowel keeps a correlation of about 0.7 or more; noise, hiss and hum stay far below.
PERIODIC = 0.5


@dataclass(frozen=True)
class Prosody:
    median_f0: float        # Hz over voiced frames (0 when nothing is voiced)
    f0_spread: float        # semitone standard deviation of the voiced pitch
    energy: float           # mean RMS
    energy_spread: float    # RMS coefficient of variation
    voiced_fraction: float  # frames loud enough to carry a pitch
    periodic_fraction: float    # of those, frames whose waveform repeats at a pitch period: voiced speech
    onset_rate: float       # onsets per second, a proxy for speaking rate
    pause_fraction: float = 0.0     # share of the time between the first and last sound that is silent
    brightness: float = 0.0         # spectral centroid of the voiced frames, Hz (pressed voices are brighter)
    tremor: float = 0.0             # share of the loudness wobble at 9-12 Hz: a shaking voice (see tremble)


def pitch_track(clip: AudioClip) -> np.ndarray:
    """Per-frame F0 in Hz, NaN where unvoiced (YIN with an RMS gate; pYIN is too slow for a request path)."""
    import librosa
    y = clip.samples.astype(np.float32)
    f0 = librosa.yin(y, fmin=_FMIN, fmax=_FMAX, sr=clip.sample_rate, frame_length=_FRAME, hop_length=_HOP)
    rms = librosa.feature.rms(y=y, frame_length=_FRAME, hop_length=_HOP)[0][: len(f0)]
    voiced = rms > max(1e-3, 0.1 * float(np.max(rms, initial=0.0)))
    return np.where(voiced[: len(f0)], f0[: len(voiced)], np.nan)


def periodicity(y: np.ndarray, sample_rate: int) -> np.ndarray:
    """Per frame (framed like librosa's centred YIN), the highest normalised correlation between the frame's first
    32 ms and the same span one period later, over the periods of 65-600 Hz, counting only a true peak (a
    correlation that still rises at either end of that range is hum or drift, not a pitch)."""
    y = np.asarray(y, dtype=np.float64)
    window = int(0.032 * sample_rate)
    lags = np.arange(int(sample_rate / _FMAX), int(sample_rate / _FMIN) + 2)
    frames = np.lib.stride_tricks.sliding_window_view(np.pad(y, _FRAME // 2), _FRAME)[::_HOP]
    frames = frames - frames.mean(axis=1, keepdims=True)
    size = 1 << int(np.ceil(np.log2(_FRAME + window)))
    products = np.fft.irfft(np.fft.rfft(frames, size) * np.conj(np.fft.rfft(frames[:, :window], size)), size)
    energy = np.concatenate([np.zeros((len(frames), 1)), np.cumsum(frames ** 2, axis=1)], axis=1)
    lagged = energy[:, lags + window] - energy[:, lags]
    floor = 1e-9 * window
    correlation = products[:, lags] / np.sqrt(np.maximum(energy[:, window:window + 1], floor)
                                              * np.maximum(lagged, floor))
    inner = correlation[:, 1:-1]
    peaks = (inner >= correlation[:, :-2]) & (inner >= correlation[:, 2:])
    # A window far quieter than its frame (the lull beside a click) holds only the frame's offset, which
    # correlates with itself at every lag.
    audible = energy[:, window] >= 0.05 * energy[:, -1] * window / _FRAME
    return np.where(peaks & audible[:, None], inner, 0.0).max(axis=1)


def measure(clip: AudioClip) -> Prosody:
    import librosa
    f0 = pitch_track(clip)
    voiced = f0[np.isfinite(f0)]
    periodic = periodicity(clip.samples, clip.sample_rate)[: len(f0)]
    rms = librosa.feature.rms(y=clip.samples, frame_length=2048, hop_length=_HOP)[0]
    onsets = librosa.onset.onset_detect(y=clip.samples, sr=clip.sample_rate, hop_length=_HOP)
    semitones = 12 * np.log2(voiced / np.median(voiced)) if len(voiced) else np.zeros(1)
    return Prosody(
        median_f0=float(np.median(voiced)) if len(voiced) else 0.0,
        f0_spread=float(np.std(semitones)),
        energy=float(np.mean(rms)),
        energy_spread=float(np.std(rms) / (np.mean(rms) + 1e-8)),
        voiced_fraction=float(len(voiced) / max(1, len(f0))),
        periodic_fraction=float(np.sum(np.isfinite(f0[: len(periodic)]) & (periodic > PERIODIC)) / max(1, len(f0))),
        onset_rate=float(len(onsets) / max(clip.seconds, 1e-3)),
        **voice_texture(clip.samples, clip.sample_rate, rms, np.isfinite(f0)),
    )


def voice_texture(y: np.ndarray, sample_rate: int, rms: np.ndarray, voiced: np.ndarray) -> dict[str, float]:
    """Pause share, brightness and tremble of a clip (see Prosody), from the RMS frames and the voiced ones."""
    import librosa
    loud = rms > 0.03 * float(np.percentile(rms, 95)) if len(rms) else np.zeros(0, bool)
    sounding = np.flatnonzero(loud)
    if len(sounding) < 2:
        return {"pause_fraction": 0.0, "brightness": 0.0, "tremor": 0.0}
    span = loud[sounding[0]:sounding[-1] + 1]
    centroid = librosa.feature.spectral_centroid(y=y, sr=sample_rate, n_fft=_FRAME, hop_length=_HOP)[0]
    voiced = voiced[: len(centroid)]
    brightness = float(np.median(centroid[: len(voiced)][voiced])) if voiced.any() else 0.0
    return {"pause_fraction": float(1 - span.mean()), "brightness": brightness, "tremor": tremble(y, sample_rate)}


def tremble(y: np.ndarray, sample_rate: int) -> float:
    """Share of the loudness wobble at 9-12 Hz (a shaking voice) in the 3-30 Hz wobble of each sounding stretch:
    log RMS over 21 ms frames, less its own 9-frame moving average. Syllables come at 2-8 Hz and stay out of
    the band; a steady tremolo in it stands out."""
    import librosa
    hop = max(1, sample_rate // 188)
    rms = librosa.feature.rms(y=y, frame_length=4 * hop, hop_length=hop)[0]
    if not len(rms):
        return 0.0
    loud = rms > 0.1 * float(np.percentile(rms, 95))
    edges = np.flatnonzero(np.diff(np.concatenate([[0], loud.astype(int), [0]])))
    frame_rate = sample_rate / hop
    inside = total = 0.0
    for start, end in zip(edges[::2], edges[1::2]):
        if end - start < 24:        # shorter than about 0.13 s: too short to show a wobble
            continue
        level = np.log(rms[start:end] + 1e-6)
        wobble = level - np.convolve(np.pad(level, 4, mode="edge"), np.ones(9) / 9, "valid")
        power = np.abs(np.fft.rfft(wobble * np.hanning(len(wobble)), n=512)) ** 2
        freqs = np.fft.rfftfreq(512, 1 / frame_rate)
        inside += power[(freqs >= 9) & (freqs <= 12)].sum()
        total += power[(freqs >= 3) & (freqs <= 30)].sum()
    return float(inside / total) if total > 0 else 0.0

