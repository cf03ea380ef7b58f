"""Subtitles of the spoken reply: WebVTT (for the page's video player) and SRT (for sharing), timed to the speech.

No engine reports word timings, so each cue gets a share of the speech's length in proportion to its characters:
speech rate is steady within one reply, and a cue is a phrase (a sentence, or a piece of a long one cut at a
comma or between words), so the error stays within a phrase.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

MAX_CUE_CHARS = 84          # two lines of the usual 42-character subtitle width
MIN_CUE_SECONDS = 0.8       # long enough to read a short phrase


@dataclass(frozen=True)
class Cue:
    start: float
    end: float
    text: str


def phrases(text: str, max_chars: int = MAX_CUE_CHARS) -> list[str]:
    """The reply cut into readable pieces: sentences, and long sentences at commas or between words."""
    pieces = []
    for sentence in re.split(r"(?<=[.!?…])\s+", " ".join(text.split())):
        while len(sentence) > max_chars:
            window = sentence[:max_chars + 1]
            cut = max(window.rfind(", "), window.rfind("; "))
            cut = cut + 1 if cut > max_chars // 3 else window.rfind(" ")
            if cut <= 0:
                cut = max_chars
            pieces.append(sentence[:cut].strip())
            sentence = sentence[cut:].strip()
        if sentence:
            pieces.append(sentence)
    return pieces


def timed_cues(text: str, speech_seconds: float) -> list[Cue]:
    """Cues covering the speech, each lasting in proportion to its characters."""
    pieces = phrases(text)
    if not pieces or speech_seconds <= 0:
        return []
    total = sum(len(piece) for piece in pieces)
    cues, start = [], 0.0
    for piece in pieces:
        end = min(speech_seconds, start + max(MIN_CUE_SECONDS, speech_seconds * len(piece) / total))
        cues.append(Cue(start, end, piece))
        start = end
    return [Cue(cue.start, speech_seconds if cue is cues[-1] else cue.end, cue.text) for cue in cues if cue.end > cue.start]


def _stamp(seconds: float, decimal: str) -> str:
    millis = round(seconds * 1000)
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    secs, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{decimal}{millis:03d}"


def write_vtt(cues: list[Cue], path: Path) -> Path:
    blocks = [f"{_stamp(cue.start, '.')} --> {_stamp(cue.end, '.')}\n{cue.text}" for cue in cues]
    path.write_text("WEBVTT\n\n" + "\n\n".join(blocks) + "\n", encoding="utf-8")
    return path


def write_srt(cues: list[Cue], path: Path) -> Path:
    blocks = [f"{number}\n{_stamp(cue.start, ',')} --> {_stamp(cue.end, ',')}\n{cue.text}"
              for number, cue in enumerate(cues, start=1)]
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return path
