"""Ola-Omni as the main understanding engine: the "omni" emotion voter and the reply writer, sharing one model.

Both sample as E3RG did; the reply streams in whole sentences and stops when the reader stops. A turn's media go
through Ola's encoders once: the vote keeps their features for the reply (RecentMedia).
"""
from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from dataclasses import dataclass

import torch
from transformers import StoppingCriteria, StoppingCriteriaList, TextIteratorStreamer

from ...contracts import EmotionResult, EmotionVoter, ReplyWriter, UnderstandingRequest, Vote
from ...settings import MAX_EMOTION_TOKENS, MAX_REPLY_CHARS, MAX_REPLY_TOKENS
from ...weight_loading import one_thread_weight_loading
from ..prompts import Prompt, clean_sentences, emotion_prompt, parse_emotion, reply_prompt
from ..sampling import Sampling
from .cost import RequestCost, estimate_generation
from .loading import OlaFiles, download_ola_files, load_ola, load_tokenizer
from .model import OlaForCausalLM
from .processor import InputPlan, OlaInputs, OlaProcessor

# E3RG's sampling (Ola's infer.py: temperature 0.2, no nucleus cut, one beam); the rest is assumed from the
# generation_config.json of Qwen2.5-7B-Instruct, which Ola-7b was fine-tuned from.
EMOTION_SAMPLING = Sampling(temperature=0.2, top_p=1.0, top_k=20, repetition_penalty=1.05)
REPLY_SAMPLING = Sampling(temperature=0.2, top_p=1.0, top_k=20, repetition_penalty=1.05)
STREAM_TIMEOUT_S = 300.0
ENGINE_NAME = "ola-omni-7b"
# Requests in flight at once whose media features are kept for their reply: at most ~90 MB each (48 frames).
MEDIA_KEPT_FOR_REQUESTS = 4


@dataclass(frozen=True)
class MediaFeatures:
    """A request's video and audio after Ola's encoders, for any prompt whose plan picks the same frames."""
    frame_indices: tuple[int, ...] | None
    speech_chunks: int
    visual: torch.Tensor | None
    speech: torch.Tensor | None

    @staticmethod
    def key_of(plan: InputPlan) -> tuple[tuple[int, ...] | None, int]:
        indices = None if plan.frame_indices is None else tuple(int(i) for i in plan.frame_indices)
        return indices, plan.speech_chunks

    def serves(self, plan: InputPlan) -> bool:
        return (self.frame_indices, self.speech_chunks) == self.key_of(plan)


class RecentMedia:
    """The media features of the last few requests, by request identity (never by value: two turns with equal
    content are still two turns). An entry leaves when it is taken for the last time, when its request object is
    freed, or when newer requests push it out."""

    def __init__(self, size: int = MEDIA_KEPT_FOR_REQUESTS) -> None:
        self.size = size
        self._entries: dict[int, tuple[weakref.ref, MediaFeatures]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def keep(self, request: UnderstandingRequest, features: MediaFeatures) -> None:
        key = id(request)
        # Called while the request is being freed, before its id can be reused, so the key is still its own.
        reference = weakref.ref(request, lambda _: self._entries.pop(key, None))
        with self._lock:
            self._entries.pop(key, None)
            self._entries[key] = (reference, features)
            while len(self._entries) > self.size:
                self._entries.pop(next(iter(self._entries)), None)

    def take(self, request: UnderstandingRequest, plan: InputPlan, last_use: bool) -> MediaFeatures | None:
        """The features kept for this very request object, if they fit the plan; with last_use, also forgets them."""
        key = id(request)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0]() is not request:
                return None
            if last_use:
                del self._entries[key]
        return entry[1] if entry[1].serves(plan) else None


class OlaRuntime:
    """One loaded Ola-Omni (model, tokenizer, processor) that the voter and the writer share."""

    def __init__(self, model: OlaForCausalLM, tokenizer, processor: OlaProcessor | None = None) -> None:
        self.model, self.tokenizer = model, tokenizer
        self.processor = processor or OlaProcessor(tokenizer, model.config)
        stops = (*tokenizer.convert_tokens_to_ids(["<|im_end|>", "<|endoftext|>"]), tokenizer.eos_token_id)
        self._stop_ids = sorted({i for i in stops if isinstance(i, int) and i != tokenizer.unk_token_id})
        # Ola's loader shrinks the embeddings to the tokenizer; forbidding the extra rows does the same.
        self._unused_ids = list(range(len(tokenizer), model.config.vocab_size)) or None
        self.recent_media = RecentMedia()

    @classmethod
    def from_pretrained(cls, files: OlaFiles | None = None, device: str = "cuda",
                        quantize: bool = True) -> OlaRuntime:
        """Load Ola-Omni-7B (downloading it unless files are given), the LLM in 4-bit NF4 by default."""
        files = files or download_ola_files()
        with one_thread_weight_loading():
            model = load_ola(files, device=device, quantize=quantize)
        return cls(model, load_tokenizer(files))

    def encode_media(self, inputs: OlaInputs) -> MediaFeatures:
        """The request's frames and audio through Ola's vision and speech encoders."""
        visual = None if inputs.frames is None else self.model.encode_video(inputs.frames)
        speech = None if inputs.mels is None else self.model.encode_speech(inputs.mels, inputs.waveforms)
        indices, chunks = MediaFeatures.key_of(inputs.plan)
        return MediaFeatures(indices, chunks, visual, speech)

    def inputs_embeds(self, inputs: OlaInputs) -> torch.Tensor:
        media = self.encode_media(inputs)
        return self.model.merge_inputs(inputs.input_ids, media.visual, media.speech)

    def _request_embeds(self, request: UnderstandingRequest, prompt: Prompt, keep_media: bool) -> torch.Tensor:
        """The prompt's embeddings with the request's media spliced in, encoded only if no earlier prompt about
        this request kept them. keep_media keeps them for a later prompt; otherwise this is their last use."""
        plan = self.processor.plan(request, prompt)
        media = self.recent_media.take(request, plan, last_use=not keep_media)
        if media is None:
            media = self.encode_media(self.processor.inputs(request, plan))
            if keep_media and (media.visual is not None or media.speech is not None):
                self.recent_media.keep(request, media)
        return self.model.merge_inputs(torch.tensor(plan.input_ids), media.visual, media.speech)

    def _generate(self, request: UnderstandingRequest, prompt: Prompt, max_new_tokens: int, sampling: Sampling,
                  keep_media: bool, **extra):
        embeds = self._request_embeds(request, prompt, keep_media)
        mask = torch.ones(embeds.shape[:2], dtype=torch.long, device=embeds.device)
        with torch.inference_mode():
            return self.model.generate(
                inputs_embeds=embeds, attention_mask=mask, max_new_tokens=max_new_tokens,
                eos_token_id=self._stop_ids, pad_token_id=self.tokenizer.pad_token_id,
                suppress_tokens=self._unused_ids, **sampling.generate_kwargs(), **extra)

    def answer(self, request: UnderstandingRequest, prompt: Prompt, max_new_tokens: int,
               sampling: Sampling = EMOTION_SAMPLING, keep_media: bool = False) -> str:
        """The whole answer at once (generate returns only new tokens when given embeddings)."""
        ids = self._generate(request, prompt, max_new_tokens, sampling, keep_media)
        return self.tokenizer.decode(ids[0], skip_special_tokens=True).strip()

    def stream(self, request: UnderstandingRequest, prompt: Prompt, max_new_tokens: int,
               sampling: Sampling = REPLY_SAMPLING, keep_media: bool = False) -> Iterator[str]:
        """The answer in pieces as they are decoded. Generation runs in a worker thread and ends at the next
        token once the reader stops reading (no GPU time is spent on text nobody takes)."""
        streamer = TextIteratorStreamer(self.tokenizer, skip_prompt=True, skip_special_tokens=True,
                                        timeout=STREAM_TIMEOUT_S)
        abandoned = threading.Event()
        failure: list[Exception] = []

        def run() -> None:
            try:
                self._generate(request, prompt, max_new_tokens, sampling, keep_media, streamer=streamer,
                               stopping_criteria=StoppingCriteriaList([_WhenSet(abandoned)]))
            except Exception as error:     # handed to the reader below, which re-raises it
                failure.append(error)
                streamer.end()

        worker = threading.Thread(target=run, name="ola-generate", daemon=True)
        worker.start()
        try:
            yield from streamer
        finally:
            abandoned.set()
            worker.join()
        if failure:
            raise failure[0]

    def estimate(self, request: UnderstandingRequest) -> RequestCost:
        """GPU memory and seconds of one turn: the emotion vote, which encodes the media, then a reply of up to
        MAX_REPLY_TOKENS, which reuses them. The reply prompt is priced like the emotion prompt (it is not known
        before the vote)."""
        plan = self.processor.plan(request, emotion_prompt(request))

        def generation(new_tokens: int, encodes_media: bool) -> RequestCost:
            return estimate_generation(plan.frames, plan.vit_tokens, plan.sequence_tokens, plan.speech_chunks,
                                       new_tokens, self.model.quantized, encodes_media)

        return generation(MAX_EMOTION_TOKENS, True) + generation(MAX_REPLY_TOKENS, False)


class _WhenSet(StoppingCriteria):
    """Stops generation once an event is set."""

    def __init__(self, event: threading.Event) -> None:
        self.event = event

    def __call__(self, input_ids: torch.Tensor, scores: torch.Tensor, **kwargs) -> torch.Tensor:
        return torch.full((input_ids.shape[0],), self.event.is_set(), dtype=torch.bool, device=input_ids.device)


class OlaEmotionVoter(EmotionVoter):
    """Asks Ola for the one fine label that fits the speaker, watching and hearing the clip."""
    name = ENGINE_NAME
    modality = "omni"
    priority = 0

    def __init__(self, runtime: OlaRuntime) -> None:
        self.runtime = runtime

    def vote(self, request: UnderstandingRequest) -> Vote:
        # The reply to this request reads the same media: its features stay for the writer.
        raw = self.runtime.answer(request, emotion_prompt(request), MAX_EMOTION_TOKENS, EMOTION_SAMPLING,
                                  keep_media=True)
        return Vote(voter=self.name, modality=self.modality, label=parse_emotion(raw).label, confidence=None, raw=raw)


class OlaReplyWriter(ReplyWriter):
    """Ola writes the listener's reply, told which emotion the vote settled on."""
    name = ENGINE_NAME

    def __init__(self, runtime: OlaRuntime) -> None:
        self.runtime = runtime

    def write(self, request: UnderstandingRequest, emotion: EmotionResult, max_new_tokens: int) -> Iterator[str]:
        pieces = self.runtime.stream(request, reply_prompt(request, emotion), min(max_new_tokens, MAX_REPLY_TOKENS),
                                     REPLY_SAMPLING, keep_media=False)
        yield from clean_sentences(pieces, MAX_REPLY_CHARS)
