"""Cross-modal self-check: do the generated voice and face carry the emotion that was chosen?

The lite voice voter reads the reply's speech and the lite face voter reads frames of the reply's video, the same
way they read a speaker's turn. What they read is reported beside the emotion the listener was to express; a voter
that finds no signal (no voiced speech, no face) reads nothing.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .contracts import EmotionVoter, UnderstandingRequest, Utterance
from .errors import InputError
from .media import load_audio, load_video

FRAMES_READ = 8     # frames of the generated video the face voter reads: enough for its majority, and quick


@dataclass(frozen=True)
class SelfCheck:
    chosen: str                 # the fine emotion the reply was made for
    expressed: str              # the expression the voice and face were asked for
    voice: str | None           # what the voice voter reads in the generated speech
    face: str | None            # what the face voter reads in the generated video

    def line(self) -> str:
        return (f"chosen: {self.chosen} · expressed as: {self.expressed} · voice reads: {self.voice or '—'} · "
                f"face reads: {self.face or '—'}")


def read_back(chosen: str, expressed: str, wav: Path | None, mp4: Path | None,
              voters: Sequence[EmotionVoter]) -> SelfCheck:
    """What the voice and face voters among voters read in the generated speech and video."""
    readers = {voter.modality: voter for voter in voters}
    readings = {}
    for modality, path in (("voice", wav), ("face", mp4)):
        voter = readers.get(modality)
        if voter is None or path is None:
            continue
        try:
            media = (dict(audio=load_audio(path)) if modality == "voice" else
                     dict(video=load_video(path, FRAMES_READ)[0]))
        except InputError:      # silent or unreadable output: nothing to read
            continue
        vote = voter.vote(UnderstandingRequest(history=(Utterance(0, "speaker", ""),), **media))
        readings[modality] = None if vote is None else vote.label
    return SelfCheck(chosen, expressed, readings.get("voice"), readings.get("face"))
