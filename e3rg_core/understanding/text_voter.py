"""Text vote: nade's eight Plutchik intensities for the latest utterance, mapped to one fine label.

nade (fastText emoji predictor + one LightGBM regressor per emotion, MIT) scores anger, anticipation,
disgust, fear, joy, sadness, surprise and trust from 0 to 1. The mapping follows Plutchik's wheel, which is
what nade's labels are: each emotion has a mild, basic and intense form (annoyance, anger, rage), and two
neighbouring emotions felt together form a "primary dyad" (joy + trust = love). Both carry over to the fine
labels where one fits; where none does, the stronger emotion's own form is used.
"""
from __future__ import annotations

import threading
import warnings

from ..engines import EmotionVoter, UnderstandingRequest, Vote
from ..errors import EngineUnavailableError

NADE_LABELS: tuple[str, ...] = (
    "anger", "anticipation", "disgust", "fear", "joy", "sadness", "surprise", "trust",
)

# Plutchik's mild / basic / intense forms, e.g. apprehension / fear / terror.
INTENSITY_FORMS: dict[str, tuple[str, str, str]] = {
    "anger": ("annoyed", "angry", "furious"),                   # annoyance, anger, rage
    "anticipation": ("anticipating", "anticipating", "prepared"),   # interest, anticipation, vigilance
    "disgust": ("disgusted", "disgusted", "disgusted"),         # boredom has no fine label of its own
    "fear": ("apprehensive", "afraid", "terrified"),            # apprehension, fear, terror
    "joy": ("content", "happy", "joyful"),                      # serenity, joy, ecstasy
    "sadness": ("sad", "sad", "devastated"),                    # pensiveness, sadness, grief
    "surprise": ("surprised", "surprised", "impressed"),        # distraction, surprise, amazement
    "trust": ("trusting", "trusting", "faithful"),              # acceptance, trust, admiration
}
MILD_BELOW = 0.35       # nade's intensities run low: a plainly sad sentence scores about 0.4
INTENSE_FROM = 0.65

# Plutchik's primary dyads that have a fine label (submission, awe and aggressiveness do not).
DYADS: dict[frozenset[str], str] = {
    frozenset({"joy", "trust"}): "caring",                   # love
    frozenset({"surprise", "sadness"}): "disappointed",      # disapproval
    frozenset({"sadness", "disgust"}): "guilty",             # remorse
    frozenset({"disgust", "anger"}): "contempt",             # contempt
    frozenset({"anticipation", "joy"}): "hopeful",           # optimism
}
DYAD_RATIO = 0.75       # the second emotion must reach this share of the first to count as felt together

# Text with no emotion still scores 0.1-0.2 everywhere (an empty string does), so below this it is neutral.
NEUTRAL_BELOW = 0.3


def label_for(scores: dict[str, float]) -> tuple[str, float]:
    """The fine label for nade's scores and a confidence: the share of the total the chosen emotion(s) hold."""
    ranked = sorted(scores, key=scores.get, reverse=True)
    first, second = ranked[0], ranked[1]
    top, total = scores[first], sum(scores.values())
    if top < NEUTRAL_BELOW:
        return "neutral", 1.0 - top / NEUTRAL_BELOW
    dyad = DYADS.get(frozenset({first, second}))
    if dyad and scores[second] >= DYAD_RATIO * top:
        return dyad, (top + scores[second]) / total
    tier = 0 if top < MILD_BELOW else 2 if top >= INTENSE_FROM else 1
    return INTENSITY_FORMS[first][tier], top / total


class TextEmotionVoter(EmotionVoter):
    """Votes from the latest utterance's words with nade; abstains when it has none."""

    name = "nade (Plutchik)"
    modality = "text"
    priority = 10

    def __init__(self, nade):
        self.nade = nade
        # nade's LightGBM boosters are not documented as thread-safe; one prediction at a time (~10-60 ms).
        self._lock = threading.Lock()

    @classmethod
    def from_pretrained(cls) -> TextEmotionVoter:
        """Load nade's bundled socialmedia_en models (they ship in its wheel; nothing is downloaded)."""
        try:
            from nade import Nade
        except ImportError as error:
            raise EngineUnavailableError(f"The text emotion model is missing: cannot import nade ({error}).") from error
        try:
            with warnings.catch_warnings():
                # nade warns as it unpacks its gzipped boosters into its own package folder on first use.
                warnings.simplefilter("ignore", UserWarning)
                return cls(Nade())
        except OSError as error:
            raise EngineUnavailableError(
                f"nade could not unpack its models into its package folder ({error}); that folder must be "
                "writable the first time it loads.") from error

    def scores(self, text: str) -> dict[str, float]:
        with self._lock:
            raw = self.nade.predict(text)
        # nade answers with one pyarrow array per emotion, one entry per input text.
        return {label: float(raw[label][0].as_py()) for label in NADE_LABELS}

    def vote(self, request: UnderstandingRequest) -> Vote | None:
        text = request.latest_text.strip()
        if not text:
            return None
        scores = self.scores(text)
        label, confidence = label_for(scores)
        ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
        raw = ", ".join(f"{name} {value:.2f}" for name, value in ranked[:3])
        return Vote(self.name, self.modality, label, round(confidence, 2), raw)
