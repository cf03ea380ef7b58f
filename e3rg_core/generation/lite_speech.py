"""Lite speech: hibari-tts's bundled voice, styled per coarse emotion and pitched toward the avatar's voice.

Pitch moves by resampling, which moves the formants with it (a lowered voice also sounds larger). hibari is
asked for a compensating pace, so the resampled speech keeps the tempo the emotion and the user asked for.
Only the voice that ships inside the package is used: any other hibari voice would be downloaded.
hibari's own prosody barely changes with the text's feeling, so the style is also added afterwards
(voice_quality): longer or shorter pauses, a trembling, a pressed or a softened voice (issue 21).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from ..emotions import Expression, as_expression
from ..contracts import AudioClip, GenerationSettings, ListenerAvatar, Speech, SpeechEngine
from ..errors import EngineUnavailableError, MissingInputError
from ..settings import MAX_REPLY_CHARS, MAX_SPEECH_SECONDS, REPLY_SPEECH_SECONDS
from ..prosody import pitch_track

BUNDLED_VOICE = "heart"
MAX_SHIFT_SEMITONES = 12.0
HIBARI_SPEED_RANGE = (0.5, 2.0)     # the pace range hibari documents
REFERENCE_F0_FEATURE = "lite_speech.reference_median_f0"
_TARGET_RMS = 0.06                  # neutral loudness; leaves headroom for the loudest style
_FADE_SECONDS = 0.03
# A sentence of ordinary declarative speech, to measure the bundled voice's own median pitch once.
_CALIBRATION_TEXT = "Thank you for telling me about your day. I am listening, so take your time."


@dataclass(frozen=True)
class SpeakingStyle:
    rate: float             # tempo factor at full intensity
    semitones: float        # pitch offset from the avatar-matched voice
    gain_db: float          # loudness relative to neutral
    pause: float = 1.0      # pauses inside and between sentences are this many times as long
    tremor: float = 0.0     # depth of a 10.5 Hz loudness tremble (a shaking voice)
    drive: float = 0.0      # soft-clipping gain: a pressed, harsh voice with more high harmonics
    soften: float = 0.0     # share of the speech low-passed: a softer, breathier, darker voice


# Directions follow the vocal-emotion literature (Banse & Scherer 1996): aroused states are faster, higher
# and louder, sadness slower, lower and quieter; disgust and contempt are slow-ish and low.
SPEAKING_STYLES: dict[str, SpeakingStyle] = {
    "neutral": SpeakingStyle(rate=1.00, semitones=0.0, gain_db=0.0),
    "happy": SpeakingStyle(rate=1.12, semitones=3.0, gain_db=3.0, pause=0.7, drive=0.5),
    "surprised": SpeakingStyle(rate=1.08, semitones=4.5, gain_db=4.0, pause=1.2, drive=0.5),
    "angry": SpeakingStyle(rate=1.15, semitones=1.0, gain_db=6.0, pause=0.5, drive=3.0),
    "fear": SpeakingStyle(rate=1.18, semitones=3.0, gain_db=-2.0, pause=1.3, tremor=0.45),
    "sad": SpeakingStyle(rate=0.82, semitones=-3.0, gain_db=-6.0, pause=1.8, soften=0.7),
    "disgusted": SpeakingStyle(rate=0.88, semitones=-1.5, gain_db=0.0, pause=1.5, drive=1.0, soften=0.3),
    "contempt": SpeakingStyle(rate=0.92, semitones=-2.0, gain_db=-1.0, pause=1.4, soften=0.3),
}


MAX_STYLE_SPEEDUP = 1.35       # the most a styled reply is sped up to fit REPLY_SPEECH_SECONDS
SENTENCE_PAUSE_S = 0.25        # silence added between sentences per unit of a style's pause above 1 (then every
                               # pause, these included, is stretched by voice_quality)
_PAUSE_FRAME_S = 0.02
_PAUSE_MIN_S = 0.06             # a gap this long inside a sentence counts as a pause
_TREMOR_HZ = 10.5              # a shaking voice: physiological tremor is 8-12 Hz, above syllable rates
_SOFTEN_HZ = 1800.0


def pauses(samples: np.ndarray, sample_rate: int) -> list[tuple[int, int]]:
    """(start, end) samples of the gaps inside the speech: 20 ms frames under 3 % of the loud frames' RMS, at
    least 60 ms long, with speech on both sides."""
    hop = int(_PAUSE_FRAME_S * sample_rate)
    frames = len(samples) // hop
    if frames < 3:
        return []
    rms = np.sqrt(np.mean(samples[:frames * hop].reshape(frames, hop) ** 2, axis=1))
    quiet = rms < 0.03 * np.percentile(rms, 95)
    gaps, start = [], None
    for index, silent in enumerate(quiet):
        if silent and start is None:
            start = index
        elif not silent and start is not None:
            if start > 0 and (index - start) * _PAUSE_FRAME_S >= _PAUSE_MIN_S:
                gaps.append((start * hop, index * hop))
            start = None
    return gaps


def voice_quality(samples: np.ndarray, sample_rate: int, style: SpeakingStyle, strength: float) -> np.ndarray:
    """The style's pauses, tremble, pressed or soft voice applied to the spoken reply (strength 0: unchanged)."""
    if strength <= 0:
        return samples
    out = samples.astype(np.float32)
    stretch = 1 + (style.pause - 1) * strength
    if stretch != 1:
        pieces, last = [], 0
        for start, end in pauses(out, sample_rate):
            middle = (start + end) // 2
            pieces.append(out[last:middle])
            change = int((end - start) * (stretch - 1))
            if change > 0:
                pieces.append(np.zeros(change, np.float32))
                last = middle
            else:       # shorter: drop silence around the middle
                last = middle + min(-change, end - middle)
        pieces.append(out[last:])
        out = np.concatenate(pieces)
    if style.tremor:
        times = np.arange(len(out)) / sample_rate
        out = out * (1 + style.tremor * strength * np.sin(2 * np.pi * _TREMOR_HZ * times)).astype(np.float32)
    if style.drive:
        peak = float(np.max(np.abs(out))) or 1.0
        gain = 1 + style.drive * strength
        out = (np.tanh(gain * out / peak) / np.tanh(gain) * peak).astype(np.float32)
    if style.soften:
        from scipy.signal import butter, sosfilt
        low = sosfilt(butter(2, _SOFTEN_HZ, fs=sample_rate, output="sos"), out).astype(np.float32)
        mix = min(1.0, style.soften * strength)
        out = (1 - mix) * out + mix * low
    return out.astype(np.float32)


def median_f0(clip: AudioClip) -> float:
    """Median pitch over voiced frames in Hz, 0 when nothing is voiced."""
    f0 = pitch_track(clip)
    voiced = f0[np.isfinite(f0)]
    return float(np.median(voiced)) if len(voiced) else 0.0


def speakable_text(text: str) -> str:
    """The reply with whitespace collapsed, cut to MAX_REPLY_CHARS at a sentence end or else a word end."""
    text = " ".join(text.split())
    if not text:
        raise MissingInputError("There is no reply text to speak.")
    if len(text) <= MAX_REPLY_CHARS:
        return text
    cut = text[:MAX_REPLY_CHARS]
    sentence_end = max(cut.rfind(mark) for mark in ".!?")
    if sentence_end >= MAX_REPLY_CHARS // 2:
        return cut[:sentence_end + 1]
    return cut.rsplit(" ", 1)[0]


class LiteSpeechEngine(SpeechEngine):
    """hibari-tts (bundled American female voice) + per-emotion rate/pitch/energy + avatar pitch match."""

    name = "lite: hibari-tts + pitch match"
    supported_settings = frozenset({"emotion_intensity", "speech_speed", "seed"})

    def __init__(self, threads: int = 1):
        try:
            from hibari import Hibari
            from hibari.voices import voice_path
            self._tts = Hibari(voice=BUNDLED_VOICE, model=voice_path(BUNDLED_VOICE, download_missing=False),
                               threads=threads)
        except (ImportError, OSError, ValueError, RuntimeError) as error:
            raise EngineUnavailableError(f"The lite speech engine needs hibari-tts ({error}).") from error
        self.sample_rate = int(self._tts.sample_rate)
        # hibari's G2P loads lazily and is not known to be thread-safe; synthesis is ~100x real time, so
        # serialising requests costs little.
        self._lock = threading.Lock()
        self.own_f0 = median_f0(AudioClip(self._synthesize_native(_CALIBRATION_TEXT, 1.0, 0, np.inf),
                                          self.sample_rate))

    def _synthesize_native(self, text: str, speed: float, seed: int | None, max_samples: float,
                           pause: float = 0.0) -> np.ndarray:
        parts, total = [], 0
        with self._lock:
            for part in self._tts.stream(text, speed=speed, seed=seed):
                if parts and pause > 0:      # a sentence break, lengthened by the style
                    parts.append(np.zeros(int(pause * self.sample_rate), np.float32))
                parts.append(part)
                total += len(part)
                if total >= max_samples:
                    break
        return np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)

    def reference_f0(self, avatar: ListenerAvatar) -> float:
        """The avatar reference voice's median pitch, measured once per avatar and cached with it."""
        value = avatar.feature(REFERENCE_F0_FEATURE,
                               lambda: np.array([median_f0(avatar.reference_voice(self.sample_rate))]))
        return float(value.reshape(-1)[0])

    def voice_shift(self, avatar: ListenerAvatar) -> float:
        """Semitones from the bundled voice to the avatar's, within +-MAX_SHIFT_SEMITONES (0 if unvoiced)."""
        reference = self.reference_f0(avatar)
        if reference <= 0 or self.own_f0 <= 0:
            return 0.0
        return float(np.clip(12 * np.log2(reference / self.own_f0), -MAX_SHIFT_SEMITONES, MAX_SHIFT_SEMITONES))

    def synthesize(self, text: str, emotion: str | Expression, avatar: ListenerAvatar,
                   settings: GenerationSettings) -> Speech:
        """Speech of `text` in the expression's speaking style (an emotion label alone is mirrored)."""
        import librosa
        text = speakable_text(text)
        expression = as_expression(emotion)
        style = SPEAKING_STYLES[expression.lite_voice]
        strength = float(np.clip(settings.emotion_intensity, 0.0, 2.0)) * expression.intensity
        tempo = float(np.clip(settings.speech_speed, *HIBARI_SPEED_RANGE)) * style.rate ** strength
        shift = float(np.clip(self.voice_shift(avatar) + style.semitones * strength,
                              -MAX_SHIFT_SEMITONES, MAX_SHIFT_SEMITONES))
        ratio = 2.0 ** (shift / 12)
        # Resampling by ratio shortens the speech by ratio, so hibari speaks that much slower first.
        speed = float(np.clip(tempo / ratio, *HIBARI_SPEED_RANGE))
        max_samples = MAX_SPEECH_SECONDS * self.sample_rate
        # A slow style first adds silence between sentences; voice_quality then stretches (or shortens) every pause.
        extra_pause = SENTENCE_PAUSE_S * max(0.0, (style.pause - 1) * strength) * ratio
        native = self._synthesize_native(text, speed, settings.seed, max_samples * ratio, extra_pause)
        if not len(native):
            raise MissingInputError("The reply has nothing that can be spoken.")
        samples = librosa.resample(native, orig_sr=self.sample_rate * ratio, target_sr=self.sample_rate)
        samples = voice_quality(samples, self.sample_rate, style, min(strength, 1.5))
        # A slow style (sad's pauses and pace) may carry a reply the writer cut to fit past REPLY_SPEECH_SECONDS:
        # such a reply is spoken a little faster, within what still sounds natural.
        over = len(samples) / (REPLY_SPEECH_SECONDS * self.sample_rate)
        if 1.0 < over <= MAX_STYLE_SPEEDUP:
            samples = librosa.effects.time_stretch(samples, rate=over * 1.01).astype(np.float32)
        if len(samples) > max_samples:
            samples = samples[: int(max_samples)]
            fade = int(_FADE_SECONDS * self.sample_rate)
            samples[-fade:] *= np.linspace(1.0, 0.0, fade, dtype=np.float32)
        return Speech(samples=self._loudness(samples, style.gain_db * strength), sample_rate=self.sample_rate,
                      engine=self.name)

    @staticmethod
    def _loudness(samples: np.ndarray, gain_db: float) -> np.ndarray:
        rms = float(np.sqrt(np.mean(samples ** 2)))
        if rms <= 0:
            return samples.astype(np.float32)
        scaled = samples * (_TARGET_RMS * 10 ** (gain_db / 20) / rms)
        peak = float(np.max(np.abs(scaled)))
        if peak > 0.98:
            scaled *= 0.98 / peak
        return scaled.astype(np.float32)
