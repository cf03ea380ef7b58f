"""What every engine takes and returns, and the four engine kinds the pipeline is built from.

Lite (CPU, package-shipped models) and full (GPU ports) engines implement the same interfaces, so the
pipeline never knows which tier it runs.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .dialogue import Dialogue, Utterance

if TYPE_CHECKING:
    from .memory.avatars import Avatar


@dataclass(frozen=True)
class AudioClip:
    """Mono float32 samples in [-1, 1]."""
    samples: np.ndarray
    sample_rate: int

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.sample_rate


@dataclass(frozen=True)
class VideoClip:
    """Frames sampled uniformly over the clip: (N, H, W, 3) uint8 RGB, with their times in seconds."""
    frames: np.ndarray
    times: np.ndarray
    duration: float
    fps: float


@dataclass(frozen=True)
class UnderstandingRequest:
    """Everything the understanding stage may look at for one turn.

    history ends with the speaker's latest utterance (its text may be empty for a wordless clip).
    examples are k-shot dialogues drawn from other conversations, never the query.
    """
    history: tuple[Utterance, ...]
    context: str = ""
    audio: AudioClip | None = None
    video: VideoClip | None = None
    examples: tuple[Dialogue, ...] = ()

    @property
    def latest_text(self) -> str:
        return self.history[-1].utterance if self.history else ""


@dataclass(frozen=True)
class Vote:
    voter: str
    modality: str               # "text", "face", "voice" or "omni"
    label: str                  # a fine label of the taxonomy
    confidence: float | None
    raw: str = ""               # what the voter actually said or scored, for the UI


@dataclass(frozen=True)
class EmotionResult:
    fine: str
    coarse: str
    votes: tuple[Vote, ...]
    decided_by: str             # which rule of the vote settled it

    @property
    def voted_by(self) -> str:
        """The engines behind this result: the voters that cast a vote (others abstained or could not read the turn)."""
        return " + ".join(vote.voter for vote in self.votes) or "no voter (neutral by default)"


@dataclass(frozen=True)
class GenerationSettings:
    """Per-request knobs. Each engine lists the names it honours in supported_settings."""
    emotion_intensity: float = 1.0
    speech_speed: float = 1.0
    video_steps: int = 25
    identity_scale: float = 3.0
    emotion_scale: float = 6.0
    seed: int | None = None
    # The full tier's talking head by diffusion (DICE-Talk), most of a turn's GPU time. Off, the GPU call ends after
    # the speech and the lite portrait animates the reply: a turn a visitor with little GPU quota can still be given.
    diffusion_video: bool = True


@dataclass(frozen=True)
class Speech:
    samples: np.ndarray         # mono float32
    sample_rate: int
    engine: str

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.sample_rate


@dataclass(frozen=True)
class Animation:
    """A video engine's frames before encoding: RGB uint8, all one even-sided size, possibly made as they are
    consumed; `speech` is the audio they were animated to (cut to what was animated)."""
    frames: Iterable[np.ndarray]
    fps: float
    frame_count: int
    speech: Speech


@dataclass(frozen=True)
class RenderedVideo:
    path: Path
    fps: float
    frame_count: int
    engine: str


class EmotionVoter(ABC):
    name: str
    modality: str
    priority: int = 100         # lower wins a tie that the labels cannot settle

    @abstractmethod
    def vote(self, request: UnderstandingRequest) -> Vote | None:
        """A fine-label vote, or None to abstain (e.g. its modality is absent)."""


class ReplyWriter(ABC):
    name: str

    @abstractmethod
    def write(self, request: UnderstandingRequest, emotion: EmotionResult,
              max_new_tokens: int) -> Iterator[str]:
        """Yield the reply in pieces; their concatenation is the reply."""


class SpeechEngine(ABC):
    name: str
    supported_settings: frozenset[str] = frozenset()

    @abstractmethod
    def synthesize(self, text: str, emotion: str, avatar: Avatar,
                   settings: GenerationSettings) -> Speech:
        """Speak text in the avatar's voice with the style of a coarse emotion."""


class VideoEngine(ABC):
    name: str
    supported_settings: frozenset[str] = frozenset()

    @abstractmethod
    def animate(self, portrait: np.ndarray, speech: Speech, emotion: str,
                settings: GenerationSettings) -> Animation:
        """The frames of an RGB portrait speaking the speech with a coarse emotion."""

    def render(self, portrait: np.ndarray, speech: Speech, emotion: str,
               settings: GenerationSettings, out_path: Path) -> RenderedVideo:
        """animate(), encoded as an H.264 mp4 with the speech muxed in as AAC."""
        return self.encode(self.animate(portrait, speech, emotion, settings), out_path)

    def encode(self, animation: Animation, out_path: Path) -> RenderedVideo:
        from .media import write_mp4, write_wav     # media reads this module's clip types
        out_path = Path(out_path)
        wav = write_wav(out_path.with_suffix(".wav"), animation.speech.samples, animation.speech.sample_rate)
        write_mp4(animation.frames, animation.fps, wav, out_path)
        return RenderedVideo(out_path, animation.fps, animation.frame_count, self.name)


@dataclass
class EngineSet:
    voters: list[EmotionVoter]
    writer: ReplyWriter
    speech: SpeechEngine
    video: VideoEngine
    tier: str = "lite"
    notices: list[str] = field(default_factory=list)
