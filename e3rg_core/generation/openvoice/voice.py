"""Voice memory: the avatar's tone colour, measured once from its reference voice and kept with the avatar.

Upstream finds speech with silero VAD from torch.hub or with faster-whisper, both downloads. Here silence is
cut by energy (librosa's split, relative to the loudest frame), which is enough for a reference recording, and
the speech is embedded in chunks of about ten seconds whose embeddings are averaged, as upstream does.
"""
from __future__ import annotations

import numpy as np
import torch

from ...contracts import AudioClip, ListenerAvatar
from ...errors import InputError
from ...settings import MIN_REFERENCE_SPEECH_SECONDS
from .converter import ToneColorConverter

SILENCE_TOP_DB = 30             # frames this far below the loudest one count as silence
CHUNK_SECONDS = 10.0            # upstream embeds the reference in pieces of about this length
_FRAME, _HOP = 1024, 256


def speech_only(clip: AudioClip) -> np.ndarray:
    """The clip with its silent stretches removed."""
    import librosa
    intervals = librosa.effects.split(clip.samples, top_db=SILENCE_TOP_DB, frame_length=_FRAME, hop_length=_HOP)
    if not len(intervals):
        return np.zeros(0, dtype=np.float32)
    return np.concatenate([clip.samples[start:end] for start, end in intervals]).astype(np.float32)


def reference_chunks(speech: np.ndarray, sample_rate: int) -> list[np.ndarray]:
    """Speech cut into equal chunks of about CHUNK_SECONDS (one chunk when shorter)."""
    count = max(1, round(len(speech) / sample_rate / CHUNK_SECONDS))
    return list(np.array_split(speech, count))


def measure_tone_color(clip: AudioClip, converter: ToneColorConverter) -> np.ndarray:
    """[gin] tone colour of the speech in clip; InputError when it holds too little speech to clone."""
    speech = speech_only(clip)
    seconds = len(speech) / clip.sample_rate
    if seconds < MIN_REFERENCE_SPEECH_SECONDS:
        raise InputError(f"The reference voice has only {seconds:.1f} s of speech; cloning a voice needs at "
                         f"least {MIN_REFERENCE_SPEECH_SECONDS:.0f} s. Please record a longer sample.")
    embedding = converter.extract_se(reference_chunks(speech, clip.sample_rate), clip.sample_rate)
    return embedding.reshape(-1).float().cpu().numpy()


def target_tone_color(avatar: ListenerAvatar, converter: ToneColorConverter) -> torch.Tensor:
    """The avatar's tone colour [1, gin, 1] for this converter, computed on first use and cached with the avatar
    (the key names the converter's weights, so another converter never reuses it)."""
    key = f"openvoice.tone_color.{converter.version}.{converter.fingerprint}"
    value = avatar.feature(key, lambda: measure_tone_color(avatar.reference_voice(converter.sample_rate),
                                                           converter))
    return torch.from_numpy(np.asarray(value, dtype=np.float32)).reshape(1, -1, 1)
