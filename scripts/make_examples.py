"""Make the example turns that ship in examples/: a speaker's audio turn and video turns in three emotions.

    .venv/bin/python scripts/make_examples.py

The audio turn is hibari-tts's (Apache-2.0) own voice. The video turns show a speaker who is not the default
listener: the 'grace' avatar's photo (Grace Hopper, US Navy, public domain; assets/README.md) speaking in her
voice, with the lite engines' emotional speaking style and face, so the face and voice voters have the turn's
emotion to read rather than the listener's own expression.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

AUDIO_TURN = "I've been so stressed about my exams that I can't sleep at night."
SPEAKER = "grace"
# file name: (what the speaker says, the emotion her voice and face show); the speaker shows it more strongly than
# the listener's default intensity, as people telling news they feel strongly about do.
SPEAKER_INTENSITY = 1.5
VIDEO_TURNS = {
    "turn_video.mp4": ("My best friend is moving away next week, and I'm going to miss her so much.", "sad"),
    "turn_video_angry.mp4": ("Someone dented my car in the parking lot and just drove off without leaving a note!",
                             "angry"),
    "turn_video_happy.mp4": ("My granddaughter called this morning, she's getting married in the spring!",
                             "happy"),
}


def main() -> None:
    from hibari import SAMPLE_RATE, Hibari

    from e3rg_core.contracts import GenerationSettings
    from e3rg_core.generation.lite_speech import LiteSpeechEngine
    from e3rg_core.generation.lite_video import LiteTalkingPortrait
    from e3rg_core.media import render_video, write_wav
    from e3rg_core.memory.avatars import AvatarStore

    out = ROOT / "examples"
    write_wav(out / "turn_audio.wav", Hibari()(AUDIO_TURN, seed=1), SAMPLE_RATE)
    speaker = AvatarStore().get(SPEAKER)
    portrait = speaker.portrait()
    voice, face = LiteSpeechEngine(), LiteTalkingPortrait()
    for seed, (name, (text, emotion)) in enumerate(VIDEO_TURNS.items(), start=2):
        settings = GenerationSettings(seed=seed, emotion_intensity=SPEAKER_INTENSITY)
        speech = voice.synthesize(text, emotion, speaker, settings)
        render_video(face, np.ascontiguousarray(portrait), speech, emotion, settings, out / name)
        out.joinpath(name).with_suffix(".wav").unlink()
    print("wrote", *(p.name for p in sorted(out.glob("turn_*"))))


if __name__ == "__main__":
    main()
