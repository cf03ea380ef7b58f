"""Subtitles of the spoken reply: WebVTT (for the page's video player) and SRT (for sharing), timed to the speech,
and a copy of the reply's video with them burned in (for players and sites that show no subtitle files).

No engine reports word timings, so each cue gets a share of the speech's length in proportion to its characters:
speech rate is steady within one reply, and a cue is a phrase (a sentence, or a piece of a long one cut at a
comma or between words), so the error stays within a phrase.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .media import read_frames, write_mp4

MAX_CUE_CHARS = 84          # two lines of the usual 42-character subtitle width
MIN_CUE_SECONDS = 0.8       # long enough to read a short phrase
CAPTION_TEXT_HEIGHT = 1 / 20    # of the frame's height: readable on a phone, two lines leave the face clear
CAPTION_BACKING_ALPHA = 0.6     # the dark box behind the words, so they read on any background


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
    return [Cue(cue.start, speech_seconds if cue is cues[-1] else cue.end, cue.text)
            for cue in cues if cue.end > cue.start]


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


def read_vtt(path: Path) -> list[Cue]:
    """The cues of a WebVTT file that write_vtt wrote."""
    cues = []
    for block in path.read_text(encoding="utf-8").split("\n\n")[1:]:
        timing, _, text = block.strip().partition("\n")
        if " --> " in timing:
            start, end = (_seconds(stamp) for stamp in timing.split(" --> "))
            cues.append(Cue(start, end, text))
    return cues


def _seconds(stamp: str) -> float:
    hours, minutes, seconds = stamp.replace(",", ".").split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def burn_captions(video: Path, cues: Sequence[Cue], audio: Path, out: Path) -> Path:
    """The video with each cue drawn at the bottom of the frames shown while it is spoken, muxed with the audio.

    Drawn with Pillow's own scalable font rather than ffmpeg's subtitles filter: libass finds its fonts through
    fontconfig, and a Space's image need not have any font installed."""
    fps, frames = read_frames(video)
    return write_mp4(_captioned(frames, fps, cues), fps, audio, out)


def _captioned(frames: Iterable[np.ndarray], fps: float, cues: Sequence[Cue]) -> Iterator[np.ndarray]:
    drawn: dict[Cue, tuple[np.ndarray, np.ndarray]] = {}     # each cue is drawn once, then blended into its frames
    for index, frame in enumerate(frames):
        time = index / fps
        cue = next((cue for cue in cues if cue.start <= time < cue.end), None)
        if cue is None:
            yield frame
            continue
        if cue not in drawn:
            drawn[cue] = _caption_layer(cue.text, frame.shape[1], frame.shape[0])
        colour, alpha = drawn[cue]
        rows = slice(frame.shape[0] - len(alpha), None)
        blended = frame.astype(np.float32)
        blended[rows] = blended[rows] * (1 - alpha) + colour * alpha
        yield blended.round().astype(np.uint8)


def _caption_layer(text: str, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """The caption as the bottom rows of a frame: white words on a dark translucent box, centred; its colour
    (rows, width, 3) and opacity (rows, width, 1)."""
    from PIL import Image, ImageDraw, ImageFont
    font = ImageFont.load_default(size=max(10, round(height * CAPTION_TEXT_HEIGHT)))
    lines = _wrapped(text, font, width * 0.9)
    line_height = round(font.size * 1.25)
    pad = max(2, font.size // 3)
    rows = line_height * len(lines) + 3 * pad
    layer = Image.new("RGBA", (width, rows), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    widest = max(font.getlength(line) for line in lines)
    draw.rectangle(((width - widest) / 2 - pad, pad, (width + widest) / 2 + pad, rows - pad),
                   fill=(0, 0, 0, round(255 * CAPTION_BACKING_ALPHA)))
    for number, line in enumerate(lines):
        draw.text((width / 2, 1.5 * pad + number * line_height), line, font=font, fill=(255, 255, 255, 255),
                  anchor="ma")
    pixels = np.asarray(layer, dtype=np.float32)
    return pixels[..., :3], pixels[..., 3:] / 255


def _wrapped(text: str, font, max_width: float) -> list[str]:
    """The words in lines no wider than max_width (a single longer word keeps a line of its own)."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines
