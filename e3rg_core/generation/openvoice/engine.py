"""The full-tier speech engine: emotion-styled English speech in the avatar's own voice.

expression (emotions.expression_for) -> OpenVoice V1 style -> base speaker speech (style strength = the
expression's intensity x emotion_intensity) -> tone colour conversion from the base voice to the avatar's reference
voice -> 22,050 Hz Speech.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ...emotions import Expression, as_expression
from ...contracts import GenerationSettings, ListenerAvatar, Speech, SpeechEngine
from ...errors import CheckpointMismatchError, MissingInputError
from ...settings import MAX_SPEECH_SECONDS
from ..lite_speech import speakable_text
from .checkpoints import directory_resolver, hub_resolver
from .converter import DEFAULT_TAU, ToneColorConverter
from .synthesizer import BaseSpeakerTTS
from .voice import target_tone_color

# VITS' length scale sounds natural within about this factor of the trained pace.
SPEED_RANGE = (0.5, 2.0)


class OpenVoiceSpeechEngine(SpeechEngine):
    """Speaks in one of the V1 base speaker's styles, then converts the voice to the avatar's tone colour.

    The converter's version picks the source tone colour: V1 uses the colours shipped with the base speaker
    (en_default_se for the default style, en_style_se for the others); V2 measures the base speech itself.
    """

    supported_settings = frozenset({"emotion_intensity", "speech_speed", "seed"})

    def __init__(self, base: BaseSpeakerTTS, converter: ToneColorConverter):
        if base.default_se.shape != (1, converter.config.gin_channels, 1):
            raise CheckpointMismatchError("The base speaker's tone colours do not fit the converter's embedding size.")
        self.base = base
        self.converter = converter
        self.name = f"full: OpenVoice V1 styles + {converter.version} tone colour converter"

    @classmethod
    def from_pretrained(cls, device: str | torch.device = "cpu", local_files_only: bool = False,
                        converter_version: str = "v1", weights_dir: str | Path | None = None) -> OpenVoiceSpeechEngine:
        """Load the official weights (see checkpoints.required_hub_files) onto device.

        local_files_only uses only the hub cache, so the engine can serve any tier whenever the files were
        preloaded; weights_dir reads an offline copy laid out as weights_dir/<repo_id>/<filename> instead.
        Raises EngineUnavailableError when a file is missing, CheckpointMismatchError when one does not fit.
        """
        resolve = directory_resolver(weights_dir) if weights_dir is not None else hub_resolver(local_files_only)
        return cls(BaseSpeakerTTS.from_pretrained(device, resolve=resolve),
                   ToneColorConverter.from_pretrained(converter_version, device, resolve=resolve))

    def _source_tone_color(self, speech: np.ndarray, style: str, intensity: float) -> torch.Tensor:
        # The tone colours shipped with the base speaker were measured by the V1 converter; any other converter
        # measures the base speech itself.
        if self.converter.version == "v1":
            return self.base.source_tone_color(style, intensity)
        return self.converter.extract_se([speech], self.base.sample_rate)

    def synthesize(self, text: str, emotion: str | Expression, avatar: ListenerAvatar,
                   settings: GenerationSettings) -> Speech:
        """Speech of `text` in the expression's style (an emotion label alone is mirrored)."""
        text = speakable_text(text)
        expression = as_expression(emotion)
        style = expression.openvoice_style
        intensity = float(np.clip(settings.emotion_intensity * expression.intensity, 0.0, 1.0))
        speed = float(np.clip(settings.speech_speed, *SPEED_RANGE))
        # The reference voice is checked before any synthesis, so a bad one fails fast.
        target = target_tone_color(avatar, self.converter)
        speech = self.base.synthesize(text, style, intensity, speed, seed=settings.seed,
                                      max_seconds=MAX_SPEECH_SECONDS)
        if not len(speech):
            raise MissingInputError("The reply has nothing that can be spoken.")
        source = self._source_tone_color(speech, style, intensity)
        voiced = self.converter.convert(speech, source, target, tau=DEFAULT_TAU, sample_rate=self.base.sample_rate,
                                        seed=settings.seed)
        return Speech(samples=voiced.astype(np.float32), sample_rate=self.converter.sample_rate, engine=self.name)
