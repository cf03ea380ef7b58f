"""Voice vote: a transparent rule on how the speaker sounds (pitch, loudness, speaking rate), no model.

Prosody mostly tracks arousal; valence leaves weak, speaker-dependent traces (Juslin & Laukka, 2003), and every cue is
confounded by the speaker, the microphone gain and the text. So the rule names an arousal side, then a label from the
textbook profiles or from a strong cue (tremor, very loud or quiet speech, long pauses), with confidence at most 0.5:
the text and face voters carry the decision. Cue centres are measured on neutral read speech, thresholds on the lite
voice's styled clips (docs/lite_expression.md).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..contracts import EmotionVoter, UnderstandingRequest, Vote
from ..prosody import Prosody, measure

MIN_VOICED_FRACTION = 0.1   # below this share of voiced speech frames the clip holds no voice to read


@dataclass(frozen=True)
class Cue:
    """Maps one measurement to [-1, 1]: 0 at the neutral centre, +-1 one `scale` away, capped."""
    centre: float
    scale: float
    weight: float

    def score(self, value: float) -> float:
        return float(np.clip((value - self.centre) / self.scale, -1.0, 1.0))


# Loudness weighs most. Rate weighs half: onsets per second follow syllables only loosely (clips of the same
# sentence sped up did not gain onsets). Pitch cues weigh half: the tracker is noisy and pitch level depends on
# the speaker more than on the mood.
LOUDNESS = Cue(centre=-27.0, scale=10.0, weight=1.0)     # dBFS of the mean RMS
RATE = Cue(centre=4.0, scale=2.0, weight=0.5)            # onsets per second
PITCH_SPREAD = Cue(centre=6.0, scale=4.0, weight=0.5)    # semitones
PITCH_LEVEL = Cue(centre=0.0, scale=1.0, weight=0.5)     # octaves above 165 Hz
PITCH_REFERENCE_HZ = 165.0

AROUSED = 0.35      # arousal at or above this counts as high, at or below minus this as low

# The outright cues (see the module docstring), read off ava's styled lite clips.
TREMBLING = 0.25        # share of the loudness wobble at 9-12 Hz (prosody.tremble)
SHOUTED_DB = -22.0      # mean RMS, dBFS
LOUD_DB = -25.5
QUIET_DB = -32.0
BROKEN_UP = 0.21        # share of silent time inside the speech: loud and this broken up sounds surprised
HALTING = 0.29          # ... at an ordinary level, this much sounds disgusted (drawn out, hesitant)


@dataclass(frozen=True)
class ProsodyReading:
    loudness: float
    rate: float
    pitch_spread: float
    pitch_level: float

    @classmethod
    def of(cls, prosody: Prosody) -> ProsodyReading:
        return cls(
            loudness=LOUDNESS.score(20 * math.log10(max(prosody.energy, 1e-6))),
            rate=RATE.score(prosody.onset_rate),
            pitch_spread=PITCH_SPREAD.score(prosody.f0_spread),
            pitch_level=PITCH_LEVEL.score(math.log2(max(prosody.median_f0, 1.0) / PITCH_REFERENCE_HZ)),
        )

    @property
    def arousal(self) -> float:
        cues = ((LOUDNESS, self.loudness), (RATE, self.rate), (PITCH_SPREAD, self.pitch_spread),
                (PITCH_LEVEL, self.pitch_level))
        return sum(cue.weight * score for cue, score in cues) / sum(cue.weight for cue, _ in cues)


def judge_style(prosody: Prosody) -> tuple[str, float] | None:
    """A fine label from a cue strong enough to name one (see the module docstring), or None."""
    loudness = 20 * math.log10(max(prosody.energy, 1e-6))
    if prosody.tremor >= TREMBLING:
        return "afraid", 0.4
    if loudness >= SHOUTED_DB:
        return "angry", 0.4
    if loudness <= QUIET_DB:
        return "sad", 0.4
    if loudness >= LOUD_DB:
        return ("surprised", 0.3) if prosody.pause_fraction >= BROKEN_UP else ("excited", 0.3)
    if prosody.pause_fraction >= HALTING:
        return "disgusted", 0.25
    return None


def judge(reading: ProsodyReading) -> tuple[str, float]:
    """The fine label and confidence for a reading; see the module docstring for why both are modest."""
    arousal = reading.arousal
    strength = min(1.0, (abs(arousal) - AROUSED) / (1.0 - AROUSED)) if abs(arousal) >= AROUSED else 0.0
    if arousal <= -AROUSED:
        # Quiet, slow and flat: calm and sad sound alike; in a conversation about feelings sad is likelier.
        return "sad", 0.2 + 0.3 * strength
    if arousal < AROUSED:
        return "neutral", 0.2 + 0.2 * (1 - abs(arousal) / AROUSED)
    # Aroused; the label among the aroused ones is a guess from the textbook profiles, so it costs 0.1.
    if reading.pitch_spread < -0.2:
        label = "afraid"        # tense: fast and high but narrow in pitch
    elif reading.loudness >= 0.5 and reading.pitch_spread < 0.5:
        label = "angry"         # loud without the melodic swings of joy
    else:
        label = "excited"       # loud or fast with a lively pitch
    return label, 0.1 + 0.3 * strength


class VoiceProsodyVoter(EmotionVoter):
    """Votes from the user's audio with the rule above; abstains without audio or voiced sound."""

    name = "prosody rule"
    modality = "voice"
    priority = 40

    def vote(self, request: UnderstandingRequest) -> Vote | None:
        if request.audio is None or len(request.audio.samples) == 0:
            return None
        prosody = measure(request.audio)
        if prosody.periodic_fraction < MIN_VOICED_FRACTION:
            return None     # silence, noise, hum or clicks: no voice to read
        reading = ProsodyReading.of(prosody)
        label, confidence = judge_style(prosody) or judge(reading)
        raw = (f"arousal {reading.arousal:+.2f} (loudness {reading.loudness:+.1f}, rate {reading.rate:+.1f}, "
               f"pitch spread {reading.pitch_spread:+.1f}, pitch level {reading.pitch_level:+.1f}); "
               f"{prosody.median_f0:.0f} Hz, {prosody.onset_rate:.1f} onsets/s, pauses {prosody.pause_fraction:.2f}, "
               f"tremor {prosody.tremor:.2f}")
        return Vote(self.name, self.modality, label, round(confidence, 2), raw)
