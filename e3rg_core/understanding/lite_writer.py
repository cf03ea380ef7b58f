"""Lite reply writer: SmolLM2-135M-Instruct (llama_model.SmolLM) steered by a listener stance and checked by
reply_judge.

A 135M model left to itself answers good news with "I'm sorry for your loss", offers help it cannot give and
runs past the sentence it was asked for. So the writer steers and checks it:
- the prompt carries the listener stance for the voted fine emotion (prompts.listener_stance: the winner's, or
  one that acknowledges and asks when the vote is torn between cheering and non-cheering feelings) and a few of
  the project's own example exchanges for that stance (listener_examples.json), which show the length and tone;
- each attempt is cut to at most two whole sentences, REPLY_WORDS words and SPOKEN_SECONDS of speech (an
  unfinished sentence is dropped);
- it is judged: the text emotion head reads the candidate and must find the stance's reading in it; assistant
  talk, condolences where nothing was lost, cheer at bad news, stories about the listener's own life, puzzlement,
  numbers the speaker never said, none of the speaker's words taken up and an opening the listener already used
  in this conversation are problems;
- the first candidate without problems is kept, within ATTEMPTS and the time budget; the stance's template reply
  when none is.

No SmolLM emotion voter is offered: on clear sentences this model names no usable label. Free-form it answers
"hopeless" for a lost job (not a label, so parsing falls back to neutral) and "gratitude" for missing a
grandmother; held to the 36 labels by a grammar it answers "fear" for sad, happy, angry and afraid alike.
"""
from __future__ import annotations

import hashlib
import logging
import random
import re
import time
from collections.abc import Iterator
from dataclasses import replace

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest, Utterance
from ..errors import CheckpointMismatchError, EngineUnavailableError
from ..settings import MAX_REPLY_CHARS, MAX_REPLY_TOKENS
from .listener_writing import SHOTS, StanceWriting, load_writing
from .llama_model import PromptTooLongError, SmolLM, shared_smollm
from .prompts import ListenerStance, clean_reply, listener_stance, reply_chat
from .reply_judge import ASSISTANT_TALK, SELF_STORY, Judgement, judge
from .spoken_length import SPOKEN_SECONDS, spoken_seconds
from .template_writer import template_reply

log = logging.getLogger(__name__)

TEMPERATURE = 0.7
REPLY_WORDS = 20
MAX_SENTENCES = 2
ATTEMPT_TOKENS = 48         # two short sentences with room for the model's own punctuation
# The latest utterances the model sees. The prompt costs more than the reply (see SmolLM.stream), and a 135M model
# makes little use of older turns.
PROMPT_UTTERANCES = 3
ATTEMPTS = 3
# A new attempt starts only before this many seconds have passed since the first: the whole lite turn, speech
# and video included, has 2.5 s on two cores.
ATTEMPT_WINDOW_SECONDS = 1.0
_SENTENCE = re.compile(r"[^.!?]*[.!?]+[\"')\]]*(?=\s|$)")


# -- cutting ---------------------------------------------------------------------------------------------------
def sentences(text: str) -> list[str]:
    """The whole sentences of a text, in order; a trailing fragment without its end mark is not one."""
    return [match.group().strip() for match in _SENTENCE.finditer(text) if match.group().strip(" .!?\"')]")]


def finish_reply(raw: str, max_words: int = REPLY_WORDS, max_sentences: int = MAX_SENTENCES) -> str:
    """The reply as spoken: cleaned, whole sentences only, at most max_sentences of them, max_words words and
    SPOKEN_SECONDS of speech (a sentence that would pass a limit is left out with everything after it)."""
    kept = []
    for sentence in sentences(clean_reply(raw, MAX_REPLY_CHARS))[:max_sentences]:
        longer = " ".join([*kept, sentence])
        if (len(longer.split()) > max_words or spoken_seconds(longer) > SPOKEN_SECONDS
                or sentence.rstrip("\"')]").endswith(("...", "…"))):    # trailing off is unfinished
            break
        kept.append(sentence)
    return " ".join(kept)


def _enough(raw: str) -> bool:
    """Whether generation can stop: max sentences are complete, the words are past any usable reply, or a
    finished sentence already says what a listener does not."""
    text = clean_reply(raw, MAX_REPLY_CHARS)
    done = sentences(text)
    return (len(done) >= MAX_SENTENCES or len(text.split()) > REPLY_WORDS + 5
            or any(ASSISTANT_TALK.search(s) or SELF_STORY.search(s) for s in done))


def _turn_seed(history: tuple[Utterance, ...], seed: int) -> int:
    """A seed that follows the conversation, so the same turn gets the same reply and different turns differ."""
    text = "\n".join(u.utterance for u in history)
    return int.from_bytes(hashlib.sha256(f"{seed}:{text}".encode()).digest()[:4], "little")


# -- the writer ------------------------------------------------------------------------------------------------
class SmolLMReplyWriter(ReplyWriter):
    """The Listener's reply from SmolLM2-135M-Instruct: steered by the stance, its openers and example exchanges,
    then judged."""

    name = "SmolLM2-135M-Instruct (llama.cpp), stance-checked"

    def __init__(self, llm: SmolLM, head=None, writing: dict[str, StanceWriting] | None = None, seed: int = 0):
        self.llm, self.head, self.seed = llm, head, seed
        self.writing = writing if writing is not None else load_writing()

    @classmethod
    def from_pretrained(cls, seed: int = 0) -> SmolLMReplyWriter:
        return cls(shared_smollm(), _stance_reader(), load_writing(), seed)

    def write(self, request: UnderstandingRequest, emotion: EmotionResult,
              max_new_tokens: int) -> Iterator[str]:
        stance = listener_stance(emotion)
        turn_seed = _turn_seed(request.history, self.seed)
        budget = max(1, min(max_new_tokens, MAX_REPLY_TOKENS, ATTEMPT_TOKENS))
        recent = replace(request, history=request.history[-PROMPT_UTTERANCES:])
        try:
            chosen = self._choose(recent, emotion, stance, request.history, budget, turn_seed)
        except PromptTooLongError:
            if not request.examples:
                raise
            # The request's k-shot examples help but are not needed; a dialogue too long for them goes without.
            chosen = self._choose(replace(recent, examples=()), emotion, stance, request.history, budget, turn_seed)
        text = chosen.text if chosen is not None else template_reply(stance, request.history, turn_seed)
        for index, sentence in enumerate(sentences(text)):
            yield sentence if index == 0 else f" {sentence}"

    def candidates(self, request: UnderstandingRequest, emotion: EmotionResult, stance: ListenerStance,
                   history: tuple[Utterance, ...], budget: int, turn_seed: int) -> Iterator[Judgement]:
        """Judged attempts while attempts and time remain, each with its own seed and opener."""
        writing = self.writing[stance.name]
        shots = writing.exchanges[:SHOTS]
        messages = reply_chat(request, emotion, stance, shots)
        openers = random.Random(turn_seed).sample(writing.openers, len(writing.openers))
        started = time.perf_counter()
        for attempt in range(ATTEMPTS):
            if attempt and time.perf_counter() - started > ATTEMPT_WINDOW_SECONDS:
                return
            opener = openers[attempt % len(openers)]
            text = self._attempt(messages, opener, budget, turn_seed + attempt)
            # The model's second sentence is where it most often strays; its first may stand alone.
            for kept in dict.fromkeys([text, *sentences(text)[:1]]):
                yield judge(kept, stance, history, self.head, shots)

    def _choose(self, request, emotion, stance, history, budget, turn_seed) -> Judgement | None:
        """The first acceptable candidate (None when no attempt gave one)."""
        return next((candidate for candidate in self.candidates(request, emotion, stance, history, budget, turn_seed)
                     if candidate.acceptable), None)

    def _attempt(self, messages: list[dict[str, str]], opener: str, budget: int, seed: int) -> str:
        """One reply begun with `opener` (the model continues it), stopped once it is long enough or its first
        sentence already shows a problem."""
        raw = opener
        pieces = self.llm.stream([*messages, {"role": "assistant", "content": opener}], budget, TEMPERATURE, seed)
        try:
            for piece in pieces:
                raw += piece
                if _enough(raw):
                    break
        finally:
            pieces.close()
        return finish_reply(raw)


def _stance_reader():
    """The trained text emotion head, which reads candidate replies; without it the writer still writes, only
    without the stance check."""
    from .text_emotion import TextEmotionHead
    try:
        return TextEmotionHead.from_pretrained()
    except (EngineUnavailableError, CheckpointMismatchError) as error:
        log.warning("the reply writer checks no stance: %s", error)
        return None
