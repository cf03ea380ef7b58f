"""The emotion taxonomy: the one place that names emotions and maps between label sets.

Fine labels are E3RG's 36 prompt words in its order (EmpatheticDialogues' 32, four MEAD-only), coarse classes the 8 MEAD
emotions DICE-Talk renders. One fine->coarse map serves evaluation and generation: upstream's HIT map, kept exactly
(its duplicated-key quirk too) so that our HIT stays comparable with the published one. The listener's expression is
mapped here too (expression_for).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

COARSE_LABELS: tuple[str, ...] = (
    "neutral", "happy", "surprised", "angry", "fear", "sad", "disgusted", "contempt",
)

FINE_TO_COARSE: dict[str, str] = {
    "neutral": "neutral", "happy": "happy", "surprised": "surprised", "angry": "angry",
    "fear": "fear", "sad": "sad", "disgusted": "disgusted", "contempt": "contempt",
    "joyful": "happy", "prepared": "happy", "content": "happy", "caring": "happy",
    "trusting": "happy", "faithful": "happy", "confident": "happy", "hopeful": "happy",
    "grateful": "happy", "proud": "happy", "excited": "happy", "anticipating": "happy",
    "lonely": "sad", "guilty": "sad", "anxious": "sad", "nostalgic": "sad",
    "embarrassed": "disgusted", "disappointed": "sad", "sentimental": "sad", "ashamed": "sad",
    "devastated": "sad",
    "impressed": "surprised", "furious": "angry", "annoyed": "angry",
    "afraid": "fear", "terrified": "fear", "apprehensive": "fear",
    "jealous": "contempt",
}

FINE_LABELS: tuple[str, ...] = tuple(FINE_TO_COARSE)

# The four fine words that are MEAD's and not EmpatheticDialogues'; no ED conversation carries them.
MEAD_ONLY_LABELS: tuple[str, ...] = ("neutral", "happy", "fear", "contempt")
ED_LABELS: tuple[str, ...] = tuple(label for label in FINE_LABELS if label not in MEAD_ONLY_LABELS)

# AvaMERG annotations use words outside the 36; these are their nearest candidates (after AvaMERG's own
# normalisation table, minus its slips such as "confused -> jealous") plus common noun/adjective forms.
_ALIASES: dict[str, str] = {
    "conflicted": "anxious", "worried": "anxious", "stressed": "anxious", "overwhelmed": "anxious",
    "nervous": "anxious", "worry": "anxious", "anxiety": "anxious", "confused": "anxious",
    "fearful": "afraid", "helpless": "afraid", "vulnerable": "afraid", "scared": "afraid",
    "frustrated": "annoyed", "frustration": "annoyed", "irritated": "annoyed", "annoyance": "annoyed",
    "melancholy": "sad", "sadness": "sad", "unhappy": "sad", "upset": "sad", "depressed": "sad",
    "exhausted": "sad", "tired": "sad", "hurt": "sad", "heartbroken": "devastated",
    "regret": "guilty", "remorse": "guilty", "guilt": "guilty", "inadequacy": "ashamed", "shame": "ashamed",
    "lost": "lonely", "loneliness": "lonely", "isolated": "lonely",
    "happiness": "happy", "glad": "happy", "joy": "joyful", "delighted": "joyful", "pleased": "content",
    "thankful": "grateful", "gratitude": "grateful", "pride": "proud", "hope": "hopeful",
    "love": "caring", "loving": "caring", "trust": "trusting", "anticipation": "anticipating",
    "eager": "anticipating", "relieved": "content", "calm": "neutral", "none": "neutral",
    "surprise": "surprised", "amazed": "impressed", "astonished": "surprised", "shocked": "surprised",
    "anger": "angry", "mad": "angry", "rage": "furious", "outraged": "furious",
    "fright": "fear", "terror": "terrified", "horrified": "terrified",
    "disgust": "disgusted", "revulsion": "disgusted", "contemptuous": "contempt", "envy": "jealous",
    "envious": "jealous", "embarrassment": "embarrassed", "nostalgia": "nostalgic",
    "disappointment": "disappointed",
}

# How the listener avatar voices each coarse emotion with OpenVoice V1's English styles when it mirrors the
# speaker's feeling (E3RG's explicit-emotion design), staying conversational: a neutral turn gets the friendly
# style, and disgust/contempt, which have no matching style, get the default one.
OPENVOICE_STYLES: tuple[str, ...] = (
    "default", "whispering", "shouting", "excited", "cheerful", "terrified", "angry", "sad", "friendly",
)
COARSE_TO_OPENVOICE_STYLE: dict[str, str] = {
    "neutral": "friendly", "happy": "cheerful", "surprised": "excited", "angry": "angry",
    "fear": "terrified", "sad": "sad", "disgusted": "default", "contempt": "default",
}

# DICE-Talk ships one prior per MEAD emotion, named like the coarse classes.
COARSE_TO_DICETALK_EMOTION: dict[str, str] = {label: label for label in COARSE_LABELS}




@dataclass(frozen=True)
class Expression:
    """How the listener avatar's voice and face answer the speaker in one turn, in each engine's own terms."""
    name: str                   # what the page shows, e.g. "calm, reassuring"
    openvoice_style: str        # OpenVoice V1 base-speaker style (full speech)
    lite_voice: str             # coarse class whose lite speaking style (rate, pitch, loudness) the lite voice takes
    dicetalk_emotion: str       # DICE-Talk emotion prior (full video)
    lite_face: str              # coarse class whose look the lite portrait rig takes
    intensity: float = 1.0      # scales the user's emotion intensity in the engines that honour it

    def __post_init__(self) -> None:
        if self.openvoice_style not in OPENVOICE_STYLES or not 0 < self.intensity <= 1 or not {
                self.lite_voice, self.lite_face, self.dicetalk_emotion} <= set(COARSE_LABELS):
            raise ValueError(f"Not an expression the engines can render: {self}.")


# "mirror": the listener shows the speaker's own coarse emotion, as E3RG does (its DICE-Talk prior is the
# speaker's emotion); a frightened speaker gets a terrified voice and a fearful face.
MIRROR_EXPRESSIONS = MappingProxyType({
    coarse: Expression(coarse, COARSE_TO_OPENVOICE_STYLE[coarse], coarse, COARSE_TO_DICETALK_EMOTION[coarse], coarse)
    for coarse in COARSE_LABELS})

# "listener": the listener answers the feeling as a caring person does (as prompts.LISTENER_STANCE tells the writer):
# it shares joy and surprise, comforts sadness and fear, meets anger, disgust and contempt calmly. A concerned face is
# the sad look at low intensity; DICE-Talk's priors have no intensity, so its calm face is the neutral prior.
LISTENER_EXPRESSIONS = MappingProxyType({
    "neutral": Expression("friendly", "friendly", "neutral", "neutral", "neutral"),
    "happy": Expression("cheerful", "cheerful", "happy", "happy", "happy"),
    "surprised": Expression("interested, surprised", "excited", "surprised", "surprised", "surprised", 0.6),
    "angry": Expression("calm, serious, concerned", "default", "neutral", "neutral", "sad", 0.4),
    "fear": Expression("gentle, reassuring, concerned", "whispering", "sad", "neutral", "sad", 0.5),
    "sad": Expression("soft, sympathetic", "sad", "sad", "sad", "sad", 0.6),
    "disgusted": Expression("calm, understanding", "default", "neutral", "neutral", "neutral"),
    "contempt": Expression("calm, even", "default", "neutral", "neutral", "neutral"),
})

_EXPRESSIONS = MappingProxyType({"listener": LISTENER_EXPRESSIONS, "mirror": MIRROR_EXPRESSIONS})
# How the listener's voice and face answer the speaker's emotion: "listener" comforts (a calm voice for fear),
# "mirror" shows the speaker's own emotion, as E3RG does.
EXPRESSION_MODES = tuple(_EXPRESSIONS)


def expression_for(emotion: str, mode: str = "listener") -> Expression:
    """How the listener's voice and face answer a speaker who feels `emotion` (a coarse class or fine label);
    mode is one of EXPRESSION_MODES, "listener" (comforting) by default, "mirror" as E3RG."""
    if mode not in EXPRESSION_MODES:
        raise ValueError(f"The expression mode must be one of {', '.join(EXPRESSION_MODES)}, not {mode!r}.")
    return _EXPRESSIONS[mode][coarse_of(emotion)]


def as_expression(emotion: str | Expression) -> Expression:
    """What a speech or video engine renders: the expression it is given, or for a bare emotion label the
    mirrored one (the engines' behaviour before expressions existed)."""
    return emotion if isinstance(emotion, Expression) else expression_for(emotion, "mirror")


def coarse_of(fine: str) -> str:
    """The coarse class of a fine label (KeyError for a word outside the taxonomy)."""
    return FINE_TO_COARSE[fine]


def normalise_label(word: str) -> str | None:
    """Map an annotation or model word to a fine label, or None when it names no known emotion."""
    key = re.sub(r"[^a-z]", "", word.strip().lower())
    if key in FINE_TO_COARSE:
        return key
    return _ALIASES.get(key)
