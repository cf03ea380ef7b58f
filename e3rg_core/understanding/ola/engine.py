"""Ola-Omni as the project's main understanding engine: the "omni" emotion voter and the reply writer,
sharing one loaded model.

Both ask with the project's prompts (prompts.emotion_prompt / reply_prompt) and sample at temperature 0.2,
as E3RG does. The reply streams as it is generated, in whole sentences cleaned by prompts.clean_reply (the
lite writer's clean_sentences), and generation stops as soon as the reader stops reading.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator

import torch
from transformers import StoppingCriteria, StoppingCriteriaList, TextIteratorStreamer

from ...contracts import EmotionResult, EmotionVoter, ReplyWriter, UnderstandingRequest, Vote
from ...settings import MAX_EMOTION_TOKENS, MAX_REPLY_TOKENS
from ..lite_writer import clean_sentences
from ..prompts import Prompt, emotion_prompt, parse_emotion, reply_prompt
from .cost import RequestCost, estimate_generation
from .loading import OlaFiles, download_ola_files, load_ola, load_tokenizer
from .model import OlaForCausalLM
from .processor import OlaInputs, OlaProcessor

TEMPERATURE = 0.2
STREAM_TIMEOUT_S = 300.0
ENGINE_NAME = "ola-omni-7b"


class OlaRuntime:
    """One loaded Ola-Omni (model, tokenizer, processor) that the voter and the writer share."""

    def __init__(self, model: OlaForCausalLM, tokenizer, processor: OlaProcessor | None = None) -> None:
        self.model, self.tokenizer = model, tokenizer
        self.processor = processor or OlaProcessor(tokenizer, model.config)
        stops = (*tokenizer.convert_tokens_to_ids(["<|im_end|>", "<|endoftext|>"]), tokenizer.eos_token_id)
        self._stop_ids = sorted({i for i in stops if isinstance(i, int) and i != tokenizer.unk_token_id})
        # Ola's loader shrinks the embeddings to the tokenizer; forbidding the extra rows does the same.
        self._unused_ids = list(range(len(tokenizer), model.config.vocab_size)) or None

    @classmethod
    def from_pretrained(cls, files: OlaFiles | None = None, device: str = "cuda",
                        quantize: bool = True) -> OlaRuntime:
        """Load Ola-Omni-7B (downloading it unless files are given), the LLM in 4-bit NF4 by default."""
        files = files or download_ola_files()
        return cls(load_ola(files, device=device, quantize=quantize), load_tokenizer(files))

    def inputs_embeds(self, inputs: OlaInputs) -> torch.Tensor:
        visual = None if inputs.frames is None else self.model.encode_video(inputs.frames)
        speech = None if inputs.mels is None else self.model.encode_speech(inputs.mels, inputs.waveforms)
        return self.model.merge_inputs(inputs.input_ids, visual, speech)

    def _generate(self, request: UnderstandingRequest, prompt: Prompt, max_new_tokens: int, **extra):
        embeds = self.inputs_embeds(self.processor(request, prompt))
        mask = torch.ones(embeds.shape[:2], dtype=torch.long, device=embeds.device)
        with torch.inference_mode():
            return self.model.generate(
                inputs_embeds=embeds, attention_mask=mask, max_new_tokens=max_new_tokens, do_sample=True,
                temperature=TEMPERATURE, eos_token_id=self._stop_ids, pad_token_id=self.tokenizer.pad_token_id,
                suppress_tokens=self._unused_ids, **extra)

    def answer(self, request: UnderstandingRequest, prompt: Prompt, max_new_tokens: int) -> str:
        """The whole answer at once (generate returns only new tokens when given embeddings)."""
        ids = self._generate(request, prompt, max_new_tokens)
        return self.tokenizer.decode(ids[0], skip_special_tokens=True).strip()

    def stream(self, request: UnderstandingRequest, prompt: Prompt, max_new_tokens: int) -> Iterator[str]:
        """The answer in pieces as they are decoded. Generation runs in a worker thread and ends at the next
        token once the reader stops reading (no GPU time is spent on text nobody takes)."""
        streamer = TextIteratorStreamer(self.tokenizer, skip_prompt=True, skip_special_tokens=True,
                                        timeout=STREAM_TIMEOUT_S)
        abandoned = threading.Event()
        failure: list[Exception] = []

        def run() -> None:
            try:
                self._generate(request, prompt, max_new_tokens, streamer=streamer,
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
        """GPU memory and seconds of one turn: the emotion vote, then a reply of up to MAX_REPLY_TOKENS.
        The reply prompt is priced like the emotion prompt (it is not known before the vote)."""
        plan = self.processor.plan(request, emotion_prompt(request))

        def generation(new_tokens: int) -> RequestCost:
            return estimate_generation(plan.frames, plan.vit_tokens, plan.sequence_tokens, plan.speech_chunks,
                                       new_tokens, self.model.quantized)

        return generation(MAX_EMOTION_TOKENS) + generation(MAX_REPLY_TOKENS)


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
        raw = self.runtime.answer(request, emotion_prompt(request), MAX_EMOTION_TOKENS)
        return Vote(voter=self.name, modality=self.modality, label=parse_emotion(raw).label, confidence=None, raw=raw)


class OlaReplyWriter(ReplyWriter):
    """Ola writes the listener's reply, told which emotion the vote settled on."""
    name = ENGINE_NAME

    def __init__(self, runtime: OlaRuntime) -> None:
        self.runtime = runtime

    def write(self, request: UnderstandingRequest, emotion: EmotionResult, max_new_tokens: int) -> Iterator[str]:
        pieces = self.runtime.stream(request, reply_prompt(request, emotion), min(max_new_tokens, MAX_REPLY_TOKENS))
        yield from clean_sentences(pieces)
