"""Turning one understanding request into Ola's inputs (frames, audio chunks, a ChatML prompt), in memory.

Ola's inference settings (inference/infer.py at Ola-Omni/Ola f681820; mm_utils.resize_video), with two changes: every
uniformly sampled frame is kept (its script drops most, issue #44), up to MAX_VIDEO_FRAMES_SAMPLED, the most Ola saw
in training (its script's 64 frames would fill the 16k context).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from PIL import Image

from ...contracts import AudioClip, UnderstandingRequest, VideoClip
from ...errors import TextTooLongError
from ...settings import AUDIO_SAMPLE_RATE, MAX_REPLY_TOKENS, MAX_VIDEO_FRAMES_SAMPLED
from ..prompts import Prompt
from .config import IMAGE_PLACEHOLDER_ID, SPEECH_PLACEHOLDER_ID, OlaConfig

VIDEO_STRIDE = 64                   # frame sides are multiples of this (2x2 pooled 16 px patches, twice)
VIDEO_MAX_SIDE, VIDEO_MIN_SIDE = 480, 288   # frames are scaled into [288^2, 480^2] pixels of area
IMAGE_STRIDE = 32
IMAGE_LOWRES_SIDE, IMAGE_MAX_SIDE = 384, 1536
PAD_GREY = 127
POOLED_PATCH = 32                   # pixels per LLM token side: 16 px ViT patches pooled 2x2

CHUNK_SAMPLES = 30 * AUDIO_SAMPLE_RATE      # Whisper's 30 s window
N_FFT, HOP = 400, 160
N_MELS = 128


# Frames ---------------------------------------------------------------------------------------------------

def uniform_frame_indices(total: int, count: int) -> np.ndarray:
    """count indices spread evenly over 0..total-1, both ends included (Ola's sampling)."""
    return np.linspace(0, total - 1, count, dtype=int)


def _fit(width: int, height: int, stride: int, target_side: float | None, *,
         shrink_only: bool = False, grow_below: float | None = None) -> tuple[int, int, bool]:
    """The size an image gets: scaled to an area of target_side^2 with sides floored to the stride, or, when
    no scaling applies, padded up to the stride. Returns (width, height, scaled)."""
    area = width * height
    if target_side is not None and (not shrink_only or area > target_side ** 2):
        scale = math.sqrt(target_side ** 2 / area)
    elif grow_below is not None and area < grow_below ** 2:
        scale = math.sqrt(grow_below ** 2 / area)
    else:
        return math.ceil(width / stride) * stride, math.ceil(height / stride) * stride, False
    return (max(int(width * scale / stride) * stride, stride),
            max(int(height * scale / stride) * stride, stride), True)


def video_frame_size(width: int, height: int) -> tuple[int, int, bool]:
    """Ola's video frame size: areas above 480^2 shrink to it, below 288^2 grow to it, sides floored to 64;
    frames in between keep their pixels and are padded up to multiples of 64."""
    return _fit(width, height, VIDEO_STRIDE, VIDEO_MAX_SIDE, shrink_only=True, grow_below=VIDEO_MIN_SIDE)


def image_view_sizes(width: int, height: int) -> tuple[tuple[int, int, bool], tuple[int, int, bool]]:
    """Ola's two views of a still image, (low-res, high-res). The high-res view is only shrunk (beyond 1536^2
    of area), else padded to multiples of 32; the low-res view is that high-res view scaled to 384^2."""
    highres = _fit(width, height, IMAGE_STRIDE, IMAGE_MAX_SIDE, shrink_only=True)
    return _fit(highres[0], highres[1], IMAGE_STRIDE, IMAGE_LOWRES_SIDE), highres


def _resize_or_pad(image: np.ndarray, size: tuple[int, int, bool]) -> np.ndarray:
    width, height, scaled = size
    picture = Image.fromarray(image)
    if scaled:
        return np.asarray(picture.resize((width, height), Image.Resampling.BICUBIC))
    canvas = Image.new("RGB", (width, height), (PAD_GREY,) * 3)
    canvas.paste(picture, ((width - picture.width) // 2, (height - picture.height) // 2))
    return np.asarray(canvas)


def normalise_pixels(images: np.ndarray) -> torch.Tensor:
    """(N, H, W, 3) uint8 -> (N, 3, H, W) float32 in [-1, 1], rounded exactly as CLIP's processor rounds."""
    scaled = (images.astype(np.float64) * (1 / 255)).astype(np.float32)
    return torch.from_numpy((scaled - np.float32(0.5)) / np.float32(0.5)).permute(0, 3, 1, 2).contiguous()


def video_pixels(frames: np.ndarray) -> torch.Tensor:
    """Same-sized RGB frames (N, H, W, 3) -> Ola's frame tensor (N, 3, H', W')."""
    size = video_frame_size(frames.shape[2], frames.shape[1])
    return normalise_pixels(np.stack([_resize_or_pad(frame, size) for frame in frames]))


def image_pixels(image: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """An RGB image (H, W, 3) -> its low-res and high-res views, each (3, h, w)."""
    lowres_size, highres_size = image_view_sizes(image.shape[1], image.shape[0])
    highres = _resize_or_pad(image, highres_size)
    lowres = _resize_or_pad(highres, lowres_size)
    return normalise_pixels(lowres[None])[0], normalise_pixels(highres[None])[0]


def frame_tokens(height: int, width: int) -> int:
    """LLM tokens of one video frame: 2x2-pooled patch rows, a newline per row, one separator."""
    rows, cols = height // POOLED_PATCH, width // POOLED_PATCH
    return rows * (cols + 1) + 1


# Audio ----------------------------------------------------------------------------------------------------

def _mel_filters() -> torch.Tensor:
    import librosa
    return torch.from_numpy(librosa.filters.mel(sr=AUDIO_SAMPLE_RATE, n_fft=N_FFT, n_mels=N_MELS))


def log_mel(chunk: torch.Tensor, filters: torch.Tensor) -> torch.Tensor:
    """Whisper's log-mel of one 30 s chunk: (3000, 128), clipped to 8 decades below its peak."""
    spectrum = torch.stft(chunk, N_FFT, HOP, window=torch.hann_window(N_FFT), return_complex=True)
    power = spectrum[..., :-1].abs() ** 2
    decades = torch.clamp(filters @ power, min=1e-10).log10()
    decades = torch.maximum(decades, decades.max() - 8.0)
    return ((decades + 4.0) / 4.0).T


def audio_chunks(clip: AudioClip) -> tuple[torch.Tensor, torch.Tensor]:
    """Audio -> (chunks, 3000, 128) Whisper log-mels and (chunks, 480000) waveforms: consecutive 30 s
    chunks, the last zero-padded."""
    samples = clip.samples.astype(np.float32)
    if clip.sample_rate != AUDIO_SAMPLE_RATE:
        import librosa
        samples = librosa.resample(samples, orig_sr=clip.sample_rate, target_sr=AUDIO_SAMPLE_RATE)
    chunks = max(1, math.ceil(len(samples) / CHUNK_SAMPLES))
    waveforms = torch.zeros(chunks * CHUNK_SAMPLES)
    waveforms[:len(samples)] = torch.from_numpy(samples)
    waveforms = waveforms.reshape(chunks, CHUNK_SAMPLES)
    filters = _mel_filters()
    return torch.stack([log_mel(chunk, filters) for chunk in waveforms]), waveforms


# Prompt ---------------------------------------------------------------------------------------------------

def chat_chunks(system: str, user: str, placeholders: bool) -> tuple[str, str]:
    """Ola's qwen_1_5 ChatML prompt, split where the placeholder ids go (after "user\\n")."""
    head = f"<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n"
    tail = ("\n" if placeholders else "") + f"{user}<|im_end|>\n<|im_start|>assistant\n"
    return head, tail


def placeholder_ids(video: bool, audio: bool) -> tuple[int, ...]:
    """Ola's prompt layouts: "<speech><image>" for video with sound, "<speech>" or "<image>" alone."""
    return (SPEECH_PLACEHOLDER_ID,) * audio + (IMAGE_PLACEHOLDER_ID,) * video


def encode_chat(tokenizer, prompt: Prompt, placeholders: tuple[int, ...]) -> list[int]:
    """Token ids of the chat with the placeholder ids spliced in; each text chunk is tokenised on its own,
    as Ola does. Control tokens typed into the dialogue are removed so that it cannot close its turn."""
    controls = [token.content for token in tokenizer.added_tokens_decoder.values()]

    def plain(text: str) -> str:
        for control in controls:
            text = text.replace(control, "")
        return text

    head, tail = chat_chunks(plain(prompt.system), plain(prompt.user), bool(placeholders))
    if not placeholders:
        return tokenizer(head + tail).input_ids
    return tokenizer(head).input_ids + list(placeholders) + tokenizer(tail).input_ids


# Request ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class InputPlan:
    """What a request becomes, before any pixel or sample is touched: enough to price it."""
    input_ids: tuple[int, ...]              # the prompt, with placeholder ids
    frame_indices: np.ndarray | None        # which of the clip's frames are used
    frame_size: tuple[int, int] | None      # (height, width) after Ola's resize
    speech_chunks: int
    sequence_tokens: int                    # length after the features are spliced in

    @property
    def frames(self) -> int:
        return 0 if self.frame_indices is None else len(self.frame_indices)

    @property
    def vit_tokens(self) -> int:
        if self.frame_size is None:
            return 0
        patch = POOLED_PATCH // 2
        return self.frames * (self.frame_size[0] // patch) * (self.frame_size[1] // patch)


@dataclass(frozen=True)
class OlaInputs:
    plan: InputPlan
    input_ids: torch.Tensor                 # (L,)
    frames: torch.Tensor | None             # (N, 3, H, W)
    mels: torch.Tensor | None               # (chunks, 3000, 128)
    waveforms: torch.Tensor | None          # (chunks, 480000)


class OlaProcessor:
    """Builds Ola's inputs for a prompt about a request, keeping the merged sequence inside Ola's context:
    the video gets as many uniformly spread frames as fit after the text, the audio and the reply."""

    def __init__(self, tokenizer, config: OlaConfig, max_frames: int = MAX_VIDEO_FRAMES_SAMPLED,
                 reply_tokens: int = MAX_REPLY_TOKENS) -> None:
        self.tokenizer = tokenizer
        self.context_tokens = config.context_tokens
        self.speech_tokens_per_chunk = config.whisper.n_audio_ctx // config.speech_encoder_ds_rate + 1
        self.max_frames = max_frames
        self.reply_tokens = reply_tokens

    def plan(self, request: UnderstandingRequest, prompt: Prompt) -> InputPlan:
        audio, video = _audio_of(request), _video_of(request)
        chunks = 0 if audio is None else max(1, math.ceil(_resampled_length(audio) / CHUNK_SAMPLES))
        speech_tokens = chunks * self.speech_tokens_per_chunk + 2 if chunks else 0
        ids = encode_chat(self.tokenizer, prompt, placeholder_ids(video is not None, audio is not None))
        indices = size = None
        if video is not None:
            height, width = video.frames.shape[1:3]
            resized_width, resized_height, _ = video_frame_size(width, height)
            size = (resized_height, resized_width)
            budget = self.context_tokens - len(ids) - speech_tokens - self.reply_tokens - 2
            count = min(len(video.frames), self.max_frames, budget // frame_tokens(*size))
            if count >= 1:
                indices = uniform_frame_indices(len(video.frames), count)
            else:
                size = None
                ids = encode_chat(self.tokenizer, prompt, placeholder_ids(False, audio is not None))
        video_tokens = 0 if indices is None else len(indices) * frame_tokens(*size) + 2
        sequence = len(ids) - (indices is not None) - (audio is not None) + video_tokens + speech_tokens
        if sequence + self.reply_tokens > self.context_tokens:
            raise TextTooLongError("The dialogue is too long for the omni model; please shorten it.")
        return InputPlan(tuple(ids), indices, size, chunks, sequence)

    def __call__(self, request: UnderstandingRequest, prompt: Prompt) -> OlaInputs:
        return self.inputs(request, self.plan(request, prompt))

    @staticmethod
    def inputs(request: UnderstandingRequest, plan: InputPlan) -> OlaInputs:
        """The pixels and audio chunks a plan of this request asks for."""
        frames = mels = waveforms = None
        if plan.frame_indices is not None:
            frames = video_pixels(request.video.frames[plan.frame_indices])
        if plan.speech_chunks:
            mels, waveforms = audio_chunks(request.audio)
        return OlaInputs(plan, torch.tensor(plan.input_ids), frames, mels, waveforms)


def _audio_of(request: UnderstandingRequest) -> AudioClip | None:
    return request.audio if request.audio is not None and len(request.audio.samples) else None


def _video_of(request: UnderstandingRequest) -> VideoClip | None:
    return request.video if request.video is not None and len(request.video.frames) else None


def _resampled_length(clip: AudioClip) -> int:
    return math.ceil(len(clip.samples) * AUDIO_SAMPLE_RATE / clip.sample_rate)
