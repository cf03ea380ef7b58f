"""Qwen2.5-Omni as the second omni voter beside Ola-Omni: its thinker sees a few frames, hears the audio, reads the
dialogue through the project's emotion prompt and names one emotion. A model of another family gives the vote a
second, independent reading of the face and voice.

The LLM's Linear layers load in NF4 (towers and lm_head stay bf16: quantising them saves little). Qwen2_5OmniProcessor
needs torchvision in transformers 5, which the Space does not install, so its three parts are used directly: frames
go in as still images and the placeholders are expanded here by the processor's rule.
"""
from __future__ import annotations

import math
import threading
from pathlib import Path

import numpy as np
import torch

from ..contracts import AudioClip, EmotionVoter, UnderstandingRequest, VideoClip, Vote
from ..errors import CheckpointMismatchError, EngineUnavailableError
from ..settings import MAX_EMOTION_TOKENS
from ..weight_loading import one_thread_weight_loading
from .ola.cost import (CALL_SECONDS, DECODE_SECONDS_PER_TOKEN, PREFILL_SECONDS_PER_TOKEN, SPEECH_SECONDS_PER_CHUNK,
                       VISION_SECONDS_PER_PATCH)
from .prompts import Prompt, emotion_prompt, parse_emotion
from .sampling import Sampling

QWEN_OMNI_REPO = "Qwen/Qwen2.5-Omni-7B"
# What the thinker reads from the repository: its config and weights (the shards also hold the talker and
# token2wav, which are skipped) and the processor files. Not chat_template.json (the ChatML is built here)
# and not spk_dict.pt (speaker voices of the talker).
THINKER_FILES = ("config.json", "generation_config.json", "model.safetensors.index.json",
                 *(f"model-{index:05d}-of-00005.safetensors" for index in range(1, 6)),
                 "preprocessor_config.json", "added_tokens.json", "merges.txt", "special_tokens_map.json",
                 "tokenizer.json", "tokenizer_config.json", "vocab.json")
UNQUANTISED_MODULES = ("model.audio_tower", "model.visual", "lm_head")
VOTE_FRAMES = 4             # evenly spread stills: enough to read a face, cheap next to Ola's 48 frames
# Qwen's own bounds on one video frame's pixels (qwen-omni-utils VIDEO_MIN_PIXELS / VIDEO_MAX_PIXELS: 128 to 768
# merged 28x28 patches); the image processor's defaults are for photos and let a 1080p frame take 2,600 tokens.
FRAME_MIN_PIXELS, FRAME_MAX_PIXELS = 128 * 28 * 28, 768 * 28 * 28
# E3RG's table ran Qwen2.5-Omni-7B beside Ola zero-shot (its script is not public); it votes as Ola's emotion vote
# does: temperature 0.2, no nucleus cut, one beam, top-k and repetition penalty of the Qwen2.5 generation config.
VOTE_SAMPLING = Sampling(temperature=0.2, top_p=1.0, top_k=20, repetition_penalty=1.05)
ENGINE_NAME = "qwen2.5-omni-7b"


def nf4_config(compute_dtype: torch.dtype):
    """bitsandbytes NF4 for the LLM only (the skip list replaces transformers' default, so lm_head is named)."""
    from transformers import BitsAndBytesConfig
    return BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
                              bnb_4bit_compute_dtype=compute_dtype, llm_int8_skip_modules=list(UNQUANTISED_MODULES))


def download_thinker(repo_id: str = QWEN_OMNI_REPO, local_files_only: bool = False) -> Path:
    """The snapshot folder holding THINKER_FILES, fetched file by file (or found in the hub cache)."""
    from huggingface_hub import hf_hub_download
    try:
        paths = [Path(hf_hub_download(repo_id, name, local_files_only=local_files_only)) for name in THINKER_FILES]
    except Exception as error:      # offline, not cached, renamed: all mean the voter cannot run
        raise EngineUnavailableError(
            f"The files of {repo_id} are not available ({type(error).__name__}).") from error
    return paths[0].parent


def check_loading_info(info: dict) -> None:
    """Refuse a load that left weights unset or reshaped; only the talker's and token2wav's may go unused."""
    unexpected = [key for key in info.get("unexpected_keys", ()) if not key.startswith(("talker.", "token2wav."))]
    problems = {"missing": list(info.get("missing_keys", ())), "unexpected": unexpected,
                "shape differs": [str(item) for item in info.get("mismatched_keys", ())]}
    problems = {kind: keys for kind, keys in problems.items() if keys}
    if problems:
        raise CheckpointMismatchError("The Qwen2.5-Omni thinker checkpoint does not match its module: " + "; ".join(
            f"{kind}: {', '.join(keys[:5])}" + (f" (+{len(keys) - 5} more)" if len(keys) > 5 else "")
            for kind, keys in problems.items()))


def chatml(prompt: Prompt, media: str) -> str:
    """Qwen's chat format, the media placeholders leading the user turn as Qwen's own template puts them."""
    return (f"<|im_start|>system\n{prompt.system}<|im_end|>\n<|im_start|>user\n{media}{prompt.user}<|im_end|>\n"
            "<|im_start|>assistant\n")


def spread_frames(video: VideoClip, count: int) -> np.ndarray:
    """count frames evenly spread over the clip, first and last included."""
    indices = np.unique(np.linspace(0, len(video.frames) - 1, min(count, len(video.frames))).round().astype(int))
    return video.frames[indices]


class QwenOmniVoter(EmotionVoter):
    """Asks the Qwen2.5-Omni thinker for the one fine label that fits the speaker (VOTE_SAMPLING, a few tokens)."""
    name = ENGINE_NAME
    modality = "omni"
    priority = 5                # after Ola-Omni (E3RG's stronger omni model), before the lite voters

    def __init__(self, model, tokenizer, feature_extractor, image_processor):
        self.model, self.tokenizer = model, tokenizer
        self.feature_extractor, self.image_processor = feature_extractor, image_processor
        config, added = model.config, tokenizer.get_added_vocab()
        by_id = {token_id: token for token, token_id in added.items()}
        # The placeholders are the tokenizer's added tokens at the ids the thinker's config names.
        self.tokens = {role: by_id.get(token_id) for role, token_id in (
            ("audio_bos", config.audio_start_token_id), ("audio", config.audio_token_id),
            ("audio_eos", config.audio_end_token_id), ("vision_bos", getattr(config, "vision_start_token_id", None)),
            ("image", config.image_token_id), ("vision_eos", getattr(config, "vision_end_token_id", None)))}
        missing = [role for role, token in self.tokens.items() if token is None]
        if missing or not {"<|im_start|>", "<|im_end|>", "<|endoftext|>"} <= added.keys():
            raise CheckpointMismatchError(
                f"The tokenizer lacks the thinker's special tokens ({', '.join(missing) or 'ChatML'}).")
        self.stop_ids = [added["<|im_end|>"], added["<|endoftext|>"]]
        # generate() keeps the multimodal rope offsets on the model between steps: one vote at a time.
        self._lock = threading.Lock()

    @classmethod
    def from_pretrained(cls, source: str | Path = QWEN_OMNI_REPO, device: str | torch.device = "cuda",
                        quantize: bool = True, dtype: torch.dtype = torch.bfloat16,
                        local_files_only: bool = False) -> QwenOmniVoter:
        """Load from a repository id (THINKER_FILES) or a local folder, placed on device by the loader itself
        (a 4-bit model is never moved afterwards). Raises EngineUnavailableError / CheckpointMismatchError."""
        from transformers import AutoTokenizer, Qwen2_5OmniThinkerForConditionalGeneration, WhisperFeatureExtractor
        from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
        folder = Path(source)
        if not folder.is_dir():
            folder = download_thinker(str(source), local_files_only)
        with one_thread_weight_loading():
            model, info = Qwen2_5OmniThinkerForConditionalGeneration.from_pretrained(
                folder, dtype=dtype, device_map={"": str(device)}, output_loading_info=True,
                quantization_config=nf4_config(dtype) if quantize else None)
        check_loading_info(info)
        return cls(model.eval(), AutoTokenizer.from_pretrained(folder), WhisperFeatureExtractor.from_pretrained(folder),
                   Qwen2VLImageProcessorPil.from_pretrained(folder))

    # -- inputs ----------------------------------------------------------------------------------------
    def _audio(self, request: UnderstandingRequest) -> np.ndarray | None:
        clip: AudioClip | None = request.audio
        if clip is None or not len(clip.samples):
            return None
        if clip.sample_rate != self.feature_extractor.sampling_rate:
            raise ValueError(f"The Qwen2.5-Omni voter expects {self.feature_extractor.sampling_rate} Hz audio.")
        return clip.samples[: self.feature_extractor.n_samples]   # the feature extractor's window

    def _frames(self, request: UnderstandingRequest) -> np.ndarray | None:
        video = request.video
        return None if video is None or not len(video.frames) else spread_frames(video, VOTE_FRAMES)

    def _frame_size_bounds(self) -> dict[str, int]:
        """Qwen's video-frame pixel bounds, never beyond what the image processor itself allows."""
        largest = min(FRAME_MAX_PIXELS, self.image_processor.size["longest_edge"])
        return {"shortest_edge": min(FRAME_MIN_PIXELS, largest), "longest_edge": largest}

    def _audio_tokens(self, mel_frames: torch.Tensor) -> torch.Tensor:
        # The thinker's own rule for how many frames its audio encoder emits.
        return self.model.model.audio_tower._get_feat_extract_output_lengths(mel_frames)[1]

    def inputs(self, request: UnderstandingRequest) -> dict[str, torch.Tensor]:
        """The thinker's generate() inputs for this request, on the model's device."""
        media, tensors = "", {}
        samples, frames = self._audio(request), self._frames(request)
        if samples is not None:
            features = self.feature_extractor([samples], sampling_rate=self.feature_extractor.sampling_rate,
                                              padding="max_length", return_attention_mask=True, return_tensors="pt")
            count = int(self._audio_tokens(features["attention_mask"].sum(-1))[0])
            media += self.tokens["audio_bos"] + self.tokens["audio"] * count + self.tokens["audio_eos"]
            tensors["input_features"] = features["input_features"].to(self.model.model.audio_tower.dtype)
            tensors["feature_attention_mask"] = features["attention_mask"]
        if frames is not None:
            images = self.image_processor(images=list(frames), size=self._frame_size_bounds(), return_tensors="pt")
            merge = self.image_processor.merge_size ** 2
            media += "".join(self.tokens["vision_bos"] + self.tokens["image"] * int(grid.prod() // merge)
                             + self.tokens["vision_eos"] for grid in images["image_grid_thw"])
            tensors["pixel_values"] = images["pixel_values"].to(self.model.model.visual.dtype)
            tensors["image_grid_thw"] = images["image_grid_thw"]
        encoded = self.tokenizer(chatml(emotion_prompt(request), media), return_tensors="pt")
        tensors.update(input_ids=encoded["input_ids"], attention_mask=encoded["attention_mask"])
        return {key: value.to(self.model.device) for key, value in tensors.items()}

    # -- vote ------------------------------------------------------------------------------------------
    def vote(self, request: UnderstandingRequest) -> Vote:
        inputs = self.inputs(request)
        with self._lock, torch.inference_mode():
            ids = self.model.generate(**inputs, max_new_tokens=MAX_EMOTION_TOKENS, eos_token_id=self.stop_ids,
                                      pad_token_id=self.stop_ids[-1], **VOTE_SAMPLING.generate_kwargs())
        answer = self.tokenizer.decode(ids[0, inputs["input_ids"].shape[1]:], skip_special_tokens=True).strip()
        return Vote(voter=self.name, modality=self.modality, label=parse_emotion(answer).label, confidence=None,
                    raw=answer)

    def estimate_seconds(self, request: UnderstandingRequest) -> float:
        """GPU seconds of one vote, priced from its token counts like Ola's generations (the same Qwen2.5-7B
        LLM in NF4 on a ZeroGPU slice), without touching any pixel or sample."""
        prompt = emotion_prompt(request)
        tokens = len(self.tokenizer(chatml(prompt, "")).input_ids)
        patches = 0
        samples, frames = self._audio(request), self._frames(request)
        if samples is not None:
            mel_frames = math.ceil(len(samples) / self.feature_extractor.hop_length)
            tokens += int(self._audio_tokens(torch.tensor([mel_frames]))[0]) + 2
        if frames is not None:
            height, width = frames.shape[1:3]
            bounds = self._frame_size_bounds()
            per_frame = self.image_processor.get_number_of_image_patches(height, width, {
                "min_pixels": bounds["shortest_edge"], "max_pixels": bounds["longest_edge"]})
            patches = len(frames) * per_frame
            tokens += len(frames) * (per_frame // self.image_processor.merge_size ** 2 + 2)
        return (CALL_SECONDS + VISION_SECONDS_PER_PATCH * patches + SPEECH_SECONDS_PER_CHUNK * (samples is not None)
                + PREFILL_SECONDS_PER_TOKEN * tokens + DECODE_SECONDS_PER_TOKEN * MAX_EMOTION_TOKENS)
