"""Subtitles of the spoken reply: phrases a viewer can read, timed across the whole speech, and burned into a copy of
the video."""
import numpy as np
import pytest

from e3rg_core.media import decode_audio, read_frames, write_mp4, write_wav
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.subtitles import (MAX_CUE_CHARS, Cue, burn_captions, phrases, read_vtt, timed_cues, write_srt,
                                 write_vtt)

REPLY = ("That sounds so frustrating, especially after all the work you put into it, and I would be upset too. "
         "Did you get a chance to talk to your manager about it?")


def test_phrases_keep_every_word_and_stay_readable():
    pieces = phrases(REPLY)
    assert " ".join(pieces).split() == REPLY.split()
    assert len(pieces) >= 3 and all(len(piece) <= MAX_CUE_CHARS for piece in pieces)
    assert pieces[-1] == "Did you get a chance to talk to your manager about it?"


def test_cues_cover_the_speech_in_order():
    cues = timed_cues(REPLY, 9.0)
    assert cues[0].start == 0 and cues[-1].end == pytest.approx(9.0)
    assert all(a.end == b.start for a, b in zip(cues, cues[1:])) and all(c.end > c.start for c in cues)
    # longer phrases are shown longer
    by_length = sorted(cues, key=lambda cue: len(cue.text))
    assert by_length[-1].end - by_length[-1].start > by_length[0].end - by_length[0].start
    assert timed_cues("", 3.0) == [] and timed_cues(REPLY, 0.0) == []


def test_vtt_and_srt_files(tmp_path):
    cues = timed_cues("I'm so happy for you! Tell me everything.", 3.5)
    vtt = write_vtt(cues, tmp_path / "r.vtt").read_text()
    srt = write_srt(cues, tmp_path / "r.srt").read_text()
    assert vtt.startswith("WEBVTT\n\n00:00:00.000 --> ") and "00:00:03.500\nTell me everything." in vtt
    assert srt.startswith("1\n00:00:00,000 --> ") and "2\n" in srt and srt.rstrip().endswith("Tell me everything.")


def test_vtt_reads_back_as_written(tmp_path):
    cues = timed_cues(REPLY, 9.0)
    read = read_vtt(write_vtt(cues, tmp_path / "r.vtt"))
    assert [cue.text for cue in read] == [cue.text for cue in cues]
    assert [t for cue in read for t in (cue.start, cue.end)] == pytest.approx(
        [t for cue in cues for t in (cue.start, cue.end)], abs=5e-4)


def test_captions_burned_in_show_each_cue_while_it_is_spoken_and_keep_frames_and_audio(tmp_path):
    portrait = AvatarStore().get("ava").portrait()[::2, ::2]     # a real face, 256 px
    fps, seconds = 25.0, 3.0
    tone = 0.3 * np.sin(2 * np.pi * 220 * np.arange(int(seconds * 16_000)) / 16_000)
    wav = write_wav(tmp_path / "reply.wav", tone.astype(np.float32), 16_000)
    # The head drifts sideways, so that every frame differs from the next as a talking head's do.
    source = write_mp4((np.roll(portrait, shift, axis=1) for shift in range(int(seconds * fps))), fps, wav,
                       tmp_path / "reply.mp4")
    cue = Cue(1.0, 2.0, "That sounds wonderful, tell me everything about it!")
    burned = burn_captions(source, [cue], wav, tmp_path / "captioned.mp4")

    _, before = read_frames(source)
    burned_fps, after = read_frames(burned)
    before, after = np.stack(list(before)).astype(np.float32), np.stack(list(after)).astype(np.float32)
    assert burned_fps == fps and after.shape == before.shape
    change = np.abs(after - before).mean(axis=-1)               # per pixel, over colour
    band = slice(int(0.75 * portrait.shape[0]), None)           # the bottom quarter, where captions sit
    spoken = (np.arange(len(before)) / fps >= cue.start) & (np.arange(len(before)) / fps < cue.end)
    assert change[spoken][:, band].mean(axis=(1, 2)).min() > 15         # the words and their backing show ...
    assert change[spoken][:, :band.start].mean(axis=(1, 2)).max() < 3  # ... only in the caption band ...
    assert change[~spoken].mean(axis=(1, 2)).max() < 3                 # ... and only while the cue is spoken
    heard = decode_audio(burned, 16_000, 10, "the captioned video")
    assert heard is not None and len(heard) == pytest.approx(len(tone), abs=0.05 * 16_000)
    assert np.corrcoef(heard[2000:40_000], tone[2000:40_000])[0, 1] > 0.9
