"""Reading and writing media safely: size and length caps, clear errors, ffmpeg from imageio-ffmpeg.

ffmpeg is always called with an argument list (never a shell string) and a timeout.
"""
from __future__ import annotations

import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from .contracts import Animation, AudioClip, GenerationSettings, RenderedVideo, Speech, VideoClip, VideoEngine
from .errors import (CorruptMediaError, FileTooLargeError, MediaTooLongError, MissingInputError,
                     SilentAudioError, UnsupportedMediaError)
from .settings import (AUDIO_SAMPLE_RATE, MAX_INPUT_AUDIO_SECONDS, MAX_INPUT_VIDEO_SECONDS, MAX_PORTRAIT_PIXELS,
                     MAX_UPLOAD_BYTES, MAX_VIDEO_FRAMES_SAMPLED, MIN_AUDIO_RMS)

AUDIO_SUFFIXES = frozenset({".wav", ".mp3", ".flac", ".ogg", ".m4a", ".aac", ".webm", ".opus"})
VIDEO_SUFFIXES = frozenset({".mp4", ".mov", ".webm", ".mkv", ".avi", ".m4v"})
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp", ".bmp"})
_FFMPEG_TIMEOUT_S = 120
_VIDEO_MAX_SIDE = 640   # frames are scaled down on decode; no consumer needs more


def ffmpeg_exe() -> str:
    import imageio_ffmpeg
    return imageio_ffmpeg.get_ffmpeg_exe()


def suffix_by_content(file: Path) -> str | None:
    """The usual suffix of a file's audio or video container, read from its first bytes (None if unknown)."""
    with file.open("rb") as handle:
        head = handle.read(12)
    if head[:4] == b"RIFF":
        return {b"WAVE": ".wav", b"AVI ": ".avi"}.get(head[8:12])
    if head[4:8] == b"ftyp":
        return ".mp4"
    if head[:4] == b"\x1aE\xdf\xa3":      # Matroska / WebM
        return ".webm"
    if head[:3] == b"ID3" or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return ".mp3"
    return {b"fLaC": ".flac", b"OggS": ".ogg"}.get(head[:4])


def check_file(path: str | Path | None, suffixes: frozenset[str], kind: str) -> Path:
    """The path of an existing, non-empty, not-too-large file with an accepted suffix. A file without any suffix
    (an upload sent as a nameless blob, as @gradio/client sends a file from Node) is judged by its content."""
    if path is None or str(path) == "":
        raise MissingInputError(f"No {kind} file was given.")
    file = Path(path)
    if not file.is_file():
        raise MissingInputError(f"The {kind} file {file.name} does not exist.")
    if (file.suffix.lower() or suffix_by_content(file)) not in suffixes:
        raise UnsupportedMediaError(
            f"{file.name}: {file.suffix or 'no extension'} is not a supported {kind} format "
            f"(use {', '.join(sorted(suffixes))}).")
    size = file.stat().st_size
    if size == 0:
        raise CorruptMediaError(f"The {kind} file {file.name} is empty.")
    if size > MAX_UPLOAD_BYTES:
        raise FileTooLargeError(
            f"{file.name} is {size / 2**20:.0f} MB; the limit is {MAX_UPLOAD_BYTES / 2**20:.0f} MB.")
    return file


class _NoStream(Exception):
    pass


def _run_ffmpeg(args: list[str], what: str) -> bytes:
    command = [ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-nostdin", *args]
    try:
        done = subprocess.run(command, capture_output=True, timeout=_FFMPEG_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise CorruptMediaError(f"Decoding {what} took too long; the file may be damaged.") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace")
        if "does not contain any stream" in message:
            raise _NoStream
        reason = message.strip().splitlines()
        raise CorruptMediaError(f"{what} could not be decoded ({reason[-1] if reason else 'ffmpeg failed'}).")
    return done.stdout


def decode_audio(file: Path, sample_rate: int, max_seconds: float, what: str) -> np.ndarray | None:
    """Mono float32 samples of a file's first audio stream, or None when it has no audio stream."""
    # Decoding a little past the cap tells an over-long file from one exactly at it without reading it all.
    try:
        raw = _run_ffmpeg(["-i", str(file), "-map", "0:a:0?", "-vn", "-ac", "1", "-ar", str(sample_rate),
                           "-t", f"{max_seconds + 0.5:.3f}", "-f", "f32le", "-"], what)
    except _NoStream:
        return None
    if not raw:
        return None
    samples = np.frombuffer(raw, dtype=np.float32).copy()
    if len(samples) > max_seconds * sample_rate + 1:
        raise MediaTooLongError(f"{what} is longer than {max_seconds:.0f} s; please trim it.")
    return samples


def require_sound(clip: AudioClip, what: str) -> AudioClip:
    if clip.seconds < 0.2 or float(np.sqrt(np.mean(clip.samples ** 2))) < MIN_AUDIO_RMS:
        raise SilentAudioError(f"{what} is silent or too short to hear anything.")
    return clip


def load_audio(path: str | Path | None, sample_rate: int = AUDIO_SAMPLE_RATE,
               max_seconds: float = MAX_INPUT_AUDIO_SECONDS, what: str = "The audio") -> AudioClip:
    """Decode an audio file to mono float32 at sample_rate, rejecting missing, corrupt, silent or long input."""
    file = check_file(path, AUDIO_SUFFIXES | VIDEO_SUFFIXES, "audio")
    samples = decode_audio(file, sample_rate, max_seconds, what)
    if samples is None:
        raise CorruptMediaError(f"{what} ({file.name}) contains no audio stream.")
    return require_sound(AudioClip(samples=samples, sample_rate=sample_rate), what)


def load_video(path: str | Path | None, frame_count: int = MAX_VIDEO_FRAMES_SAMPLED,
               max_seconds: float = MAX_INPUT_VIDEO_SECONDS,
               sample_rate: int = AUDIO_SAMPLE_RATE) -> tuple[VideoClip, AudioClip | None]:
    """Frames sampled uniformly over the clip (scaled to at most 640 px), and its audio track if it has one."""
    import imageio_ffmpeg
    file = check_file(path, VIDEO_SUFFIXES, "video")
    scale = f"scale='min({_VIDEO_MAX_SIDE},iw)':'min({_VIDEO_MAX_SIDE},ih)':force_original_aspect_ratio=decrease"
    frames, times = [], []
    try:
        reader = imageio_ffmpeg.read_frames(str(file), output_params=["-vf", scale + ",pad=ceil(iw/2)*2:ceil(ih/2)*2"])
        try:
            meta = next(reader)      # the source's duration and fps, known before any frame is decoded
            duration = float(meta.get("duration") or 0.0)
            fps = float(meta.get("fps") or 0.0)
            if duration <= 0 or fps <= 0:
                raise CorruptMediaError(f"The video {file.name} has no readable frames.")
            if duration > max_seconds + 0.5:
                raise MediaTooLongError(f"The video is {duration:.0f} s long; the limit is {max_seconds:.0f} s.")
            size = meta["size"]
            targets = (np.arange(frame_count) + 0.5) * (duration / frame_count)
            next_target = 0
            for index, buffer in enumerate(reader):
                time = index / fps
                if next_target < len(targets) and time + 0.5 / fps >= targets[next_target]:
                    frame = np.frombuffer(buffer, dtype=np.uint8).reshape(size[1], size[0], 3)
                    while next_target < len(targets) and time + 0.5 / fps >= targets[next_target]:
                        next_target += 1
                    frames.append(frame)
                    times.append(time)
        finally:
            reader.close()
    except (RuntimeError, OSError, StopIteration) as error:
        raise CorruptMediaError(f"The video {file.name} could not be decoded ({str(error).splitlines()[0]}).") from None
    if not frames:
        raise CorruptMediaError(f"The video {file.name} has no readable frames.")
    clip = VideoClip(frames=np.stack(frames), times=np.asarray(times), duration=duration, fps=fps)
    samples = decode_audio(file, sample_rate, max_seconds, "The video's audio")
    audio = AudioClip(samples, sample_rate) if samples is not None and len(samples) else None
    return clip, audio


def load_image(path: str | Path | None, what: str = "portrait") -> np.ndarray:
    """An RGB uint8 image, rejecting missing, corrupt, huge and unsupported files."""
    from PIL import Image, UnidentifiedImageError
    file = check_file(path, IMAGE_SUFFIXES, what)
    try:
        with Image.open(file) as image:
            if image.width * image.height > MAX_PORTRAIT_PIXELS:
                raise FileTooLargeError(f"The {what} is {image.width}x{image.height}; please use a smaller image.")
            return np.asarray(image.convert("RGB"))
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError):
        raise CorruptMediaError(f"The {what} {file.name} is not a readable image.") from None


def write_wav(path: str | Path, samples: np.ndarray, sample_rate: int) -> Path:
    import soundfile
    soundfile.write(str(path), np.clip(samples, -1.0, 1.0).astype(np.float32), sample_rate, subtype="PCM_16")
    return Path(path)


def write_mp4(frames: Iterable[np.ndarray], fps: float, audio_path: str | Path | None,
              out_path: str | Path) -> Path:
    """Encode RGB uint8 frames (all the same even-sided size) as H.264, muxed with the audio as AAC."""
    import imageio_ffmpeg
    iterator = iter(frames)
    first = next(iterator)
    height, width = first.shape[:2]
    writer = imageio_ffmpeg.write_frames(
        str(out_path), (width, height), fps=fps, codec="libx264", pix_fmt_out="yuv420p", macro_block_size=2,
        quality=None, bitrate=None, output_params=["-crf", "20", "-preset", "veryfast", "-movflags", "+faststart"],
        audio_path=None if audio_path is None else str(audio_path), audio_codec="aac", ffmpeg_log_level="error")
    writer.send(None)
    writer.send(np.ascontiguousarray(first))
    for frame in iterator:
        writer.send(np.ascontiguousarray(frame))
    writer.close()
    return Path(out_path)


def read_frames(path: str | Path) -> tuple[float, Iterator[np.ndarray]]:
    """A video's frame rate and every one of its frames (RGB uint8), decoded as they are consumed; for videos made
    here (load_video reads what users upload)."""
    import imageio_ffmpeg
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    width, height = meta["size"]

    def frames() -> Iterator[np.ndarray]:
        try:
            for buffer in reader:
                yield np.frombuffer(buffer, dtype=np.uint8).reshape(height, width, 3)
        finally:
            reader.close()
    return float(meta["fps"]), frames()


STILLS_KEPT = 8      # frames an encode keeps for the self-check's face reading: enough for its majority
# Their short side: the face voter reads 64-px faces, and a talking head's face fills over a third of its frame.
# At 160 px its readings of 12 lite replies were those of the full frames, in 40 % of the time.
STILL_SHORT_SIDE = 160


def encode_animation(animation: Animation, out_path: str | Path, engine: str) -> RenderedVideo:
    """A video engine's frames as an H.264 mp4, with the speech they were animated to muxed in as AAC, and
    STILLS_KEPT of them, spread over the clip, kept as they went to the encoder."""
    out_path = Path(out_path)
    wav = write_wav(out_path.with_suffix(".wav"), animation.speech.samples, animation.speech.sample_rate)
    count = animation.frame_count
    wanted = set(((np.arange(STILLS_KEPT) + 0.5) * count / STILLS_KEPT).astype(int).tolist()) if count else set()
    kept: dict[int, np.ndarray] = {}

    def keeping() -> Iterator[np.ndarray]:
        import cv2
        for index, frame in enumerate(animation.frames):
            if index in wanted:
                scale = min(1.0, STILL_SHORT_SIDE / min(frame.shape[:2]))
                kept[index] = cv2.resize(np.asarray(frame), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            yield frame
    write_mp4(keeping(), animation.fps, wav, out_path)
    stills = None
    if kept:
        order = sorted(kept)
        stills = VideoClip(np.stack([kept[i] for i in order]), np.asarray(order) / animation.fps,
                           count / animation.fps, animation.fps)
    return RenderedVideo(out_path, animation.fps, animation.frame_count, engine, stills)


def render_video(engine: VideoEngine, portrait: np.ndarray, speech: Speech, emotion: str,
                 settings: GenerationSettings, out_path: str | Path) -> RenderedVideo:
    """The engine's animation of the portrait speaking, encoded as frames are made."""
    return encode_animation(engine.animate(portrait, speech, emotion, settings), out_path, engine.name)
