"""The full-tier video engine: DICE-Talk renders the avatar's portrait speaking the reply with an emotion."""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import torch

from ...emotions import Expression, as_expression
from ...contracts import Animation, GenerationSettings, Speech, VideoEngine
from ...errors import InputError, MediaTooLongError, MissingInputError
from ...settings import MAX_SPEECH_SECONDS, MAX_VIDEO_STEPS
from .emotion_priors import load_emotion_priors, prior_vector
from .pipeline import OUTPUT_FPS, DiceTalkPipeline, output_frame_count
from .portrait import SHORT_SIDE
from .sampler import SamplerSettings
from .speech_features import SAMPLE_RATE


class DiceTalkVideoEngine(VideoEngine):
    name = "full: DICE-Talk (SVD-xt diffusion)"
    supported_settings = frozenset({"video_steps", "identity_scale", "emotion_scale", "seed"})

    def __init__(self, pipeline: DiceTalkPipeline, priors: Mapping[str, np.ndarray], crop: bool = True,
                 short_side: int = SHORT_SIDE):
        self.pipeline = pipeline
        self.priors = {name: prior_vector(values) for name, values in priors.items()}
        self.crop = crop        # a square face crop keeps the cost at 512x512 whatever the photo's shape
        self.short_side = short_side

    @classmethod
    def from_pretrained(cls, device: str | torch.device = "cuda", dtype: torch.dtype = torch.float16,
                        local_files_only: bool = False, cache_dir: Path | None = None,
                        short_side: int = SHORT_SIDE) -> DiceTalkVideoEngine:
        """Weights from the hub (checkpoints.hub_files()); the emotion priors from cache_dir, else the shipped ones
        (cache_dir defaults to the data folder; see emotion_priors); frames rendered with short_side pixels on their
        short side."""
        from ...settings import data_dir
        pipeline = DiceTalkPipeline.from_pretrained(device, dtype, local_files_only)
        return cls(pipeline, load_emotion_priors(cache_dir or data_dir()), short_side=short_side)

    def animate(self, portrait: np.ndarray, speech: Speech, emotion: str | Expression,
                settings: GenerationSettings) -> Animation:
        """The portrait speaking with the expression's emotion prior (an emotion label alone is mirrored)."""
        try:
            prior = self.priors[as_expression(emotion).dicetalk_emotion]
        except KeyError:
            raise InputError(f"DICE-Talk cannot render the emotion {emotion!r}.") from None
        return self.animate_prior(portrait, speech, prior, settings)

    def animate_prior(self, portrait: np.ndarray, speech: Speech, prior, settings: GenerationSettings) -> Animation:
        """animate() with any 256-float emotion prior instead of a named emotion."""
        import librosa
        prior = prior_vector(prior)
        if not isinstance(portrait, np.ndarray) or portrait.dtype != np.uint8 or portrait.ndim != 3 \
                or portrait.shape[2] != 3:
            raise InputError("The portrait must be an RGB image.")
        if speech.seconds > MAX_SPEECH_SECONDS:
            raise MediaTooLongError(f"The speech is {speech.seconds:.0f} s long; the talking-head video is limited "
                                    f"to {MAX_SPEECH_SECONDS:.0f} s.")
        if not 1 <= settings.video_steps <= MAX_VIDEO_STEPS:
            raise InputError(f"Video steps must be between 1 and {MAX_VIDEO_STEPS}.")
        samples = np.asarray(speech.samples, np.float32)
        if speech.sample_rate != SAMPLE_RATE:
            samples = librosa.resample(samples, orig_sr=speech.sample_rate, target_sr=SAMPLE_RATE)
        frame_count = output_frame_count(len(samples))
        if frame_count == 0:
            raise MissingInputError("The speech is too short to animate.")
        seed = settings.seed if settings.seed is not None else secrets.randbelow(2 ** 31)
        sampler = SamplerSettings(steps=settings.video_steps, identity_scale=settings.identity_scale,
                                  emotion_scale=settings.emotion_scale)
        frames = self.pipeline.render_frames(portrait, samples, prior, sampler, seed, self.crop, self.short_side)
        return Animation(frames, OUTPUT_FPS, frame_count, speech)
