"""Cross-modal self-check: do the generated voice and face carry the emotion that was chosen?

The lite voice voter reads the reply's speech and the lite face voter reads frames of the reply's video (kept as they
were encoded, media.encode_animation), the same way they read a speaker's turn. What they read is reported beside
the emotion the listener was to express; a voter that finds no signal (no voiced speech, no face) reads nothing.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .contracts import EmotionVoter, UnderstandingRequest, Utterance, VideoClip
from .errors import InputError
from .media import load_audio


@dataclass(frozen=True)
class SelfCheck:
    chosen: str                 # the fine emotion the reply was made for
    expressed: str              # the expression the voice and face were asked for
    voice: str | None           # what the voice voter reads in the generated speech
    face: str | None            # what the face voter reads in the generated video

    def line(self) -> str:
        return (f"chosen: {self.chosen} · expressed as: {self.expressed} · voice reads: {self.voice or '—'} · "
                f"face reads: {self.face or '—'}")


def read_back(chosen: str, expressed: str, wav: Path | None, stills: VideoClip | None,
              voters: Sequence[EmotionVoter]) -> SelfCheck:
    """What the voice and face voters among voters read in the generated speech and the video's stills."""
    readers = {voter.modality: voter for voter in voters}
    media: dict[str, dict] = {}
    if wav is not None and "voice" in readers:
        try:
            media["voice"] = dict(audio=load_audio(wav))
        except InputError:      # silent or unreadable speech: nothing to read
            pass
    if stills is not None and "face" in readers:
        media["face"] = dict(video=stills)
    readings = {}
    for modality, given in media.items():
        vote = readers[modality].vote(UnderstandingRequest(history=(Utterance(0, "speaker", ""),), **given))
        readings[modality] = None if vote is None else vote.label
    return SelfCheck(chosen, expressed, readings.get("voice"), readings.get("face"))
