"""The contracts of a turn: what every stage takes and returns, and the four engine kinds a tier is built from.

Lite and full engines implement the same interfaces, so the runner never knows which tier it runs. No I/O and no
package imports at run time: media, dialogue files and avatar storage depend on this module, never the reverse.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:       # the taxonomy is plain data too; imported for the hints only, so nothing loads at run time
    from .emotions import Expression


@dataclass(frozen=True)
class Profile:
    age: str | None = None
    gender: str | None = None
    timbre: str | None = None
    id: int | None = None


@dataclass(frozen=True)
class Utterance:
    index: int
    role: str
    utterance: str


@dataclass(frozen=True)
class Turn:
    """One listener response opportunity: everything said so far, and what the listener answered."""
    turn_id: str
    history: tuple[Utterance, ...]
    context: str = ""
    response: str | None = None
    chain_of_empathy: dict[str, str] | None = None

    @property
    def speaker_emotion(self) -> str | None:
        return (self.chain_of_empathy or {}).get("speaker_emotion")


@dataclass(frozen=True)
class Dialogue:
    conversation_id: str
    turns: tuple[Turn, ...]
    speaker_profile: Profile = field(default_factory=Profile)
    listener_profile: Profile = field(default_factory=Profile)
    topic: str = ""


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
    top: tuple[tuple[str, float], ...] = ()     # the voter's best labels with their probabilities, best first
    weight: float = 1.0         # the say the vote had in the tally (its voter's weight)


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
    expression_mode: str = "listener"      # one of emotions.EXPRESSION_MODES: how the voice and face answer
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
    # frames kept as they were encoded, spread over the clip, for the self-check to read without decoding the mp4
    stills: VideoClip | None = None


class ListenerAvatar(Protocol):
    """The listener as the engines see it (memory.avatars.Avatar is the stored one)."""
    name: str
    profile: Profile

    def portrait(self) -> np.ndarray: ...

    def reference_voice(self, sample_rate: int) -> AudioClip: ...

    def feature(self, key: str, compute: Callable[[], np.ndarray]) -> np.ndarray: ...


class EmotionVoter(ABC):
    name: str
    modality: str
    priority: int = 100         # lower wins a tie that the labels cannot settle
    weight: float = 1.0         # the voter's say in the vote

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
    def synthesize(self, text: str, emotion: str | Expression, avatar: ListenerAvatar,
                   settings: GenerationSettings) -> Speech:
        """Speak text in the avatar's voice with the listener's expression (a bare coarse label is mirrored)."""


class VideoEngine(ABC):
    name: str
    supported_settings: frozenset[str] = frozenset()

    @abstractmethod
    def animate(self, portrait: np.ndarray, speech: Speech, emotion: str | Expression,
                settings: GenerationSettings) -> Animation:
        """The frames of an RGB portrait speaking the speech with the listener's expression (a bare coarse label
        is mirrored; media.render_video encodes them)."""


@dataclass
class EngineSet:
    voters: list[EmotionVoter]
    writer: ReplyWriter
    speech: SpeechEngine
    video: VideoEngine
