"""Make the example turns that ship in examples/: a speaker's audio turn and video turn, spoken by hibari-tts
(Apache-2.0) and, for the video, animated on the flipped scikit-image astronaut portrait (public domain).

    .venv/bin/python scripts/make_examples.py
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

AUDIO_TURN = "I've been so stressed about my exams that I can't sleep at night."
VIDEO_TURN = "My best friend is moving away next week, and I'm going to miss her so much."


def main() -> None:
    import skimage.data
    from hibari import SAMPLE_RATE, Hibari

    from e3rg_core.contracts import GenerationSettings, Speech
    from e3rg_core.generation.lite_video import LiteTalkingPortrait
    from e3rg_core.media import render_video, write_wav

    out = ROOT / "examples"
    voice = Hibari()
    write_wav(out / "turn_audio.wav", voice(AUDIO_TURN, seed=1), SAMPLE_RATE)
    speech = Speech(np.asarray(voice(VIDEO_TURN, seed=2), dtype=np.float32), SAMPLE_RATE, "hibari-tts")
    portrait = np.ascontiguousarray(skimage.data.astronaut()[:, ::-1])
    render_video(LiteTalkingPortrait(), portrait, speech, "sad", GenerationSettings(seed=2), out / "turn_video.mp4")
    for leftover in out.glob("turn_video*.wav"):
        leftover.unlink()
    print("wrote", *(p.name for p in sorted(out.glob("turn_*"))))


if __name__ == "__main__":
    main()
