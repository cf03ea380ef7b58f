"""Subtitles of the spoken reply: phrases a viewer can read, timed across the whole speech."""
import pytest

from e3rg_core.subtitles import MAX_CUE_CHARS, phrases, timed_cues, write_srt, write_vtt

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
