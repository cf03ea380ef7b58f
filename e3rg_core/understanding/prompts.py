"""The two E3RG prompts (emotion, then a reply conditioned on the voted emotion), k-shot examples and
label parsing. Wording is ours; the structure follows E3RG: dialogue block, candidate list, one-word answer."""
from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from ..contracts import Dialogue, EmotionResult, UnderstandingRequest, Utterance
from ..emotions import FINE_LABELS, normalise_label
from .voting import side_share

SHOT_CHOICES = (0, 1, 3)


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str


@dataclass(frozen=True)
class ParsedLabel:
    label: str
    how: str        # "exact", "word" or "fallback"
    raw: str


def dialogue_block(history: tuple[Utterance, ...], context: str = "") -> str:
    lines = [f"Dialogue context: {context}"] if context else []
    lines += [f"{u.role.capitalize()}: {u.utterance}" for u in history]
    return "\n".join(lines)


def _example_label(dialogue: Dialogue) -> str | None:
    gold = dialogue.turns[-1].speaker_emotion if dialogue.turns else None
    return normalise_label(gold) if gold else None


def sample_examples(pool: list[Dialogue], k: int, query: UnderstandingRequest | None = None,
                    query_id: str = "", seed: int = 0) -> tuple[Dialogue, ...]:
    """k labelled dialogues from the pool, never the query conversation (same id, or same last turn)."""
    if k not in SHOT_CHOICES:
        raise ValueError(f"k-shot must be one of {SHOT_CHOICES}, not {k}.")
    query_history = tuple((u.role, u.utterance) for u in query.history) if query else ()

    def usable(dialogue: Dialogue) -> bool:
        if not dialogue.turns or _example_label(dialogue) is None or not dialogue.turns[-1].response:
            return False
        if query_id and dialogue.conversation_id == query_id:
            return False
        history = tuple((u.role, u.utterance) for u in dialogue.turns[-1].history)
        return not (query_history and history == query_history)

    candidates = [d for d in pool if usable(d)]
    return tuple(random.Random(seed).sample(candidates, min(k, len(candidates))))


@dataclass(frozen=True)
class ListenerStance:
    """How the Listener meets one kind of feeling, and how a reply that does so reads to the text emotion head."""
    name: str                   # its key in STANCES and template_writer.TEMPLATES
    guidance: str               # what the writer is told to do
    fitting: frozenset[str]     # fine labels a fitting reply is read as (TextEmotionHead.read_text on the reply)
    condolences: bool           # whether sympathy for a loss ("I'm so sorry") is in place
    cheer: bool                 # whether glad words ("congratulations", "that's great") are in place


# Reading groups. Each group was checked against the head's readings of the project's own written replies: a
# congratulation reads joyful/proud/impressed, condolences sad/devastated, a reassurance anxious or hopeful, a
# validation of anger furious/annoyed.
_GLAD = frozenset({"happy", "joyful", "proud", "excited", "grateful", "content", "impressed", "confident",
                   "hopeful", "anticipating", "prepared"})
_WARM = frozenset({"caring", "trusting", "faithful"})
_SURPRISE = frozenset({"surprised", "impressed"})
_SORROW = frozenset({"sad", "devastated", "lonely", "disappointed"})
_MEMORY = frozenset({"nostalgic", "sentimental"})
_WORRY = frozenset({"fear", "afraid", "terrified", "anxious", "apprehensive"})
_ANGER = frozenset({"angry", "furious", "annoyed"})
_DISGUST = frozenset({"disgusted", "contempt"})
_SHAME = frozenset({"embarrassed", "ashamed", "guilty"})
_ENVY = frozenset({"jealous", "contempt"})
# A reply that hedges reads as neither a celebration nor a condolence (the project's hedging replies read mostly
# content, confident, impressed or anxious, never more than 0.1 on any of these).
_HEDGE = frozenset(FINE_LABELS) - {"happy", "joyful", "excited", "proud", "grateful", "sad", "devastated"}

# Told only to "acknowledge the feeling", small models open nearly every reply with "I'm so sorry to hear that",
# good news included; each kind of feeling gets its own instruction, written replies and reading.
STANCES: dict[str, ListenerStance] = {stance.name: stance for stance in (
    ListenerStance("celebrate", "They share good news: be glad with them and name what they did or enjoyed.",
                   _GLAD | _WARM | _SURPRISE, condolences=False, cheer=True),
    ListenerStance("look_forward", "They feel hopeful or ready for something: encourage them and share their "
                   "hope.", _GLAD | _WARM | _SURPRISE, condolences=False, cheer=True),
    ListenerStance("appreciate", "They talk about kindness, loyalty or trust: appreciate it warmly.",
                   _GLAD | _WARM | _SURPRISE, condolences=False, cheer=True),
    ListenerStance("surprise", "They tell you something unexpected: share their surprise and ask about it.",
                   _SURPRISE | _GLAD | _WORRY | _ANGER, condolences=False, cheer=True),
    ListenerStance("comfort", "They are hurting: comfort them gently and name what they lost or missed.",
                   _SORROW | _MEMORY | {"caring", "hopeful", "guilty"}, condolences=True, cheer=False),
    ListenerStance("reminisce", "They share a memory: share its warmth.",
                   _MEMORY | _GLAD | _WARM | _SURPRISE | {"sad"}, condolences=False, cheer=True),
    ListenerStance("reassure", "They are afraid or worried: reassure them calmly.",
                   _WORRY | _WARM | {"hopeful", "confident", "prepared", "content"}, condolences=False, cheer=False),
    ListenerStance("validate", "They were treated unfairly or are fed up: say their anger makes sense and that "
                   "what happened was not okay.", _ANGER | _DISGUST | _ENVY | {"disappointed"},
                   condolences=False, cheer=False),
    ListenerStance("disgust", "They met something gross or nasty: agree that it sounds awful.",
                   _DISGUST | _ANGER | {"embarrassed"}, condolences=False, cheer=False),
    ListenerStance("ease", "They feel embarrassed or guilty: be kind, and say it happens to everyone or that "
                   "they can make it right.", _SHAME | _WARM | _MEMORY | {"hopeful", "confident", "content",
                                                                      "prepared", "anxious", "apprehensive"},
                   condolences=False, cheer=False),
    ListenerStance("envy", "They feel jealous or resentful: understand the feeling without judging them.",
                   _ENVY | _WARM | {"annoyed", "disappointed", "hopeful", "confident"},
                   condolences=False, cheer=False),
    ListenerStance("interest", "Show friendly interest in what they said.", _GLAD | _WARM | _SURPRISE,
                   condolences=False, cheer=True),
    # For no label: the stance of a vote torn between feelings that want opposite answers (listener_stance).
    ListenerStance("acknowledge", "It is not clear whether this is good or bad for them: say back what happened "
                   "in a few words and ask how they feel about it.", _HEDGE, condolences=False, cheer=False),
)}

# Stances are chosen per fine label: "anxious" is coarse "sad" but wants reassurance, not condolences, and
# "hopeful" is coarse "happy" but nothing has happened yet to congratulate.
LISTENER_STANCE: dict[str, ListenerStance] = {label: STANCES[name] for name, labels in {
    "celebrate": ("happy", "joyful", "proud", "excited", "grateful", "content", "impressed"),
    "look_forward": ("hopeful", "anticipating", "prepared", "confident"),
    "appreciate": ("caring", "trusting", "faithful"),
    "surprise": ("surprised",),
    "comfort": ("sad", "devastated", "lonely", "disappointed"),
    "reminisce": ("nostalgic", "sentimental"),
    "reassure": ("fear", "afraid", "terrified", "anxious", "apprehensive"),
    "validate": ("angry", "furious", "annoyed"),
    "disgust": ("disgusted",),
    "ease": ("embarrassed", "ashamed", "guilty"),
    "envy": ("jealous", "contempt"),
    "interest": ("neutral",),
}.items() for label in labels}

FITTING_SHARE = 0.5     # a reply fits its stance when the head puts at least this much probability on `fitting`

# The share of the vote (voting.side_share) on labels whose stance is of the other kind, cheering or not, at which
# the listener stops taking the winner's. Chosen on ED's valid split (2,770 last turns, the lite text voters): 27 %
# of the turns hedge at 0.25, 21 % at 0.3, 12 % at 0.4; at 0.3 a stance that cheers where the gold label's stance
# does not, or the reverse, fell from 13.2 to 5.8 % of the turns (docs/lite_replies.md).
HEDGE_SHARE = 0.3
# The share of the vote on sad (condolence) labels, or on glad (cheering) ones, at which a hedge whose words tell no
# news leans that way: "Aw, that's hard." rather than "I hear you." to a weekend alone voted lonely. Chosen on 1,500
# tuning turns of ED valid (seed 203): of the 164 plain hedges, 23 lean sad at 0.5 (16 of a sad ED label, 2 of a glad
# one) and 22 glad at 0.7 (13 glad, 3 sad); below 0.7 the glad side is as often wrong as right.
LEAN_SHARE = {"bad": 0.5, "good": 0.7}


def listener_stance(emotion: EmotionResult) -> ListenerStance:
    """How the listener meets a voted emotion: the winner's stance, unless a good part of the vote went to
    feelings that want the other kind of answer ("impressed" by one voter, annoyance by two others, for a coworker
    who took the credit), where cheering or condolences would be a confident guess; then it acknowledges and asks."""
    stance = LISTENER_STANCE[emotion.fine]
    against = side_share(emotion.votes, lambda label: LISTENER_STANCE[label].cheer != stance.cheer)
    return STANCES["acknowledge"] if against >= HEDGE_SHARE else stance


def vote_lean(emotion: EmotionResult) -> str | None:
    """"bad" or "good" where the vote leans that way by LEAN_SHARE, else None."""
    if side_share(emotion.votes, lambda label: LISTENER_STANCE[label].condolences) >= LEAN_SHARE["bad"]:
        return "bad"
    if side_share(emotion.votes, lambda label: LISTENER_STANCE[label].cheer) >= LEAN_SHARE["good"]:
        return "good"
    return None


def stance_fit(reading: np.ndarray, stance: ListenerStance) -> float:
    """The probability the head's reading of a reply (36 values, FINE_LABELS order) puts on the labels that fit
    the listener stance."""
    return float(sum(p for label, p in zip(FINE_LABELS, reading) if label in stance.fitting))


_EMOTION_SYSTEM = "You are an expert at recognising emotions in conversations."
_REPLY_SYSTEM = ("You are the Listener in a conversation: a warm, attentive person who answers with empathy. "
                 "You speak aloud, so you use plain sentences without lists, emojis or stage directions.")


def _task(instruction: str, request: UnderstandingRequest, answer_cue: str, gold) -> str:
    """Instruction, then each k-shot example's dialogue with its gold answer, then the query's dialogue."""
    parts = [instruction]
    if request.examples:
        parts.append("Examples of the task:")
        for example in request.examples:
            turn = example.turns[-1]
            parts.append(f"{dialogue_block(turn.history, turn.context)}\n{answer_cue} {gold(example)}")
    parts.append(f"The dialogue:\n{dialogue_block(request.history, request.context)}\n{answer_cue}")
    return "\n\n".join(parts)


def emotion_prompt(request: UnderstandingRequest) -> Prompt:
    """Ask for the single fine label that best describes the Speaker's feeling."""
    instruction = (f"Pick the one emotion the Speaker most likely feels from this list: {', '.join(FINE_LABELS)}. "
                   "Answer with exactly one word from the list and nothing else.")
    return Prompt(_EMOTION_SYSTEM, _task(instruction, request, "The emotion of the Speaker:", _example_label))


def reply_prompt(request: UnderstandingRequest, emotion: EmotionResult) -> Prompt:
    """Ask for the Listener's next reply, explicitly conditioned on the voted emotion."""
    instruction = (f"The Speaker seems to feel {emotion.fine} (broadly: {emotion.coarse}). "
                   f"Write the Listener's next reply to the Speaker. {LISTENER_STANCE[emotion.fine].guidance} "
                   "Respond to what they actually said, and add no facts or offers of your own. "
                   "Use one or two short sentences. "
                   "Output only the words of the reply.")
    return Prompt(_REPLY_SYSTEM, _task(instruction, request, "The reply of the Listener:",
                                       lambda example: example.turns[-1].response))


def parse_emotion(raw: str) -> ParsedLabel:
    """The fine label in a model's answer: the whole answer, else the first emotion word in it, else neutral."""
    whole = re.sub(r"[^a-z]", "", raw.lower())
    if whole in FINE_LABELS:
        return ParsedLabel(whole, "exact", raw)
    for word in re.findall(r"[a-z]+", raw.lower()):
        label = normalise_label(word)
        if label is not None:
            return ParsedLabel(label, "word", raw)
    return ParsedLabel("neutral", "fallback", raw)


def clean_reply(raw: str, max_chars: int) -> str:
    """The reply as it should be spoken: no speaker tag or wrapping quotes, cut at a sentence end."""
    text = re.sub(r"^\s*(the\s+)?((reply|response) of the\s+)?(listener|speaker)('s (reply|response))?\s*:\s*", "",
                  raw.strip(), flags=re.I)
    text = text.strip().strip('"').strip()
    text = re.split(r"\n\s*(speaker|listener)\s*:", text, flags=re.I)[0].strip()
    if len(text) > max_chars:
        cut = text[:max_chars]
        end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
        text = cut[: end + 1] if end > 0 else cut.rsplit(" ", 1)[0] + "…"
    return text


REPLY_SENTENCES = 3
_SENTENCE_END = re.compile(r"[.!?](?= )")   # the ends clean_reply cuts at, so both agree on sentences


def clean_sentences(raw_pieces: Iterable[str], max_chars: int,
                    max_sentences: int = REPLY_SENTENCES) -> Iterator[str]:
    """Re-cut a streamed reply into cleaned whole sentences as each completes.

    The pieces join to clean_reply(everything said), cut after max_sentences sentences; a sentence is only
    released once the next has begun, because until then cleaning may still change it.
    """
    raw, sent = "", ""
    for piece in raw_pieces:
        raw += piece
        text = clean_reply(raw, max_chars)
        ends = [match.end() for match in _SENTENCE_END.finditer(text)]
        if len(ends) >= max_sentences or len(raw) > max_chars:
            break
        ready = text[: ends[-1]] if ends else ""
        if len(ready) > len(sent) and ready.startswith(sent):
            yield ready[len(sent):]
            sent = ready
    text = clean_reply(raw, max_chars)
    ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    if len(ends) >= max_sentences:
        text = text[: ends[max_sentences - 1]]
    # A length cut could end before text already sent; then the sent part stands alone.
    if len(text) > len(sent) and text.startswith(sent):
        yield text[len(sent):]
