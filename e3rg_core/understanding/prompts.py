"""The two E3RG prompts (emotion, then a reply conditioned on the voted emotion), k-shot examples and
label parsing. Wording is ours; the structure follows E3RG: dialogue block, candidate list, one-word answer."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ..contracts import Dialogue, Utterance
from ..emotions import FINE_LABELS, normalise_label
from ..contracts import EmotionResult, UnderstandingRequest

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


# How the Listener meets each broad feeling. Told only to "acknowledge the feeling", small models open nearly every
# reply with "I'm so sorry to hear that", good news included.
LISTENER_STANCE: dict[str, str] = {
    "neutral": "show friendly interest", "happy": "share their joy", "surprised": "share their surprise",
    "angry": "take their frustration seriously", "fear": "reassure them", "sad": "comfort them",
    "disgusted": "agree it sounds unpleasant", "contempt": "acknowledge their frustration without mocking anyone",
}

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
                   f"Write the Listener's next reply to the Speaker: acknowledge that feeling, "
                   f"{LISTENER_STANCE[emotion.coarse]}, and respond to what they actually said. "
                   "Use one to three short sentences. "
                   "Output only the words of the reply.")
    return Prompt(_REPLY_SYSTEM, _task(instruction, request, "The reply of the Listener:",
                                       lambda example: example.turns[-1].response))


def reply_chat(request: UnderstandingRequest, emotion: EmotionResult) -> list[dict[str, str]]:
    """The reply prompt as chat turns (Speaker = user, Listener = assistant), for small chat models that follow
    a conversation far better than an instruction wrapped around a transcript. Same content as reply_prompt."""
    instruction = (f"You are a warm, caring listener. The person you are talking to feels {emotion.fine} "
                   f"(broadly: {emotion.coarse}). Reply in one to three short sentences: acknowledge how they feel, "
                   f"{LISTENER_STANCE[emotion.coarse]}, and respond to what they actually said.")
    if request.context:
        instruction += f" Context: {request.context}"
    messages = [{"role": "system", "content": instruction}]
    for example in request.examples:
        turn = example.turns[-1]
        messages += [{"role": "user", "content": turn.history[-1].utterance},
                     {"role": "assistant", "content": turn.response or ""}]
    for utterance in request.history:
        role = "user" if utterance.role == "speaker" else "assistant"
        if messages[-1]["role"] == role:
            messages[-1] = {"role": role, "content": f"{messages[-1]['content']} {utterance.utterance}"}
        else:
            messages.append({"role": role, "content": utterance.utterance})
    return messages


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

