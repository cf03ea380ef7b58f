"""The respond command line: one turn in, reply.json, reply.wav and reply.mp4 out; bad input exits 2."""
import json

import imageio_ffmpeg
import numpy as np
import pytest
import soundfile

from e3rg_core import respond
from e3rg_core.emotions import COARSE_LABELS, FINE_LABELS
from e3rg_core.media import decode_audio, write_wav
from e3rg_core.tiers.lite import EXAMPLE_DIALOGUES

EXAMPLES = EXAMPLE_DIALOGUES.parent


def _run(tmp_path, *args):
    out = tmp_path / "out"
    code = respond.main([*args, "--out", str(out)])
    return code, out


def _check_outputs(out):
    report = json.loads((out / "reply.json").read_text())
    emotion = report["emotion"]
    assert emotion["fine"] in FINE_LABELS and emotion["coarse"] in COARSE_LABELS
    assert all(v["label"] in FINE_LABELS for v in emotion["votes"])
    assert len(report["reply"].split()) >= 3
    assert set(report["engines"]) >= {"emotion", "text", "speech", "video"}
    assert all(report["seconds"][k] > 0 for k in ("emotion", "text", "speech", "video"))
    samples, rate = soundfile.read(out / "reply.wav")
    assert 1.0 < len(samples) / rate < 30 and np.abs(samples).max() > 0.05
    reader = imageio_ffmpeg.read_frames(str(out / "reply.mp4"))
    meta = next(reader)
    frames = sum(1 for _ in reader)
    assert meta["fps"] == pytest.approx(25) and frames == pytest.approx(len(samples) / rate * 25, abs=2)
    track = decode_audio(out / "reply.mp4", 16_000, 60, "reply audio")
    assert track is not None and len(track) / 16_000 == pytest.approx(len(samples) / rate, abs=0.15)
    return report


def test_text_turn(tmp_path):
    code, out = _run(tmp_path, "--text", "I just lost my job and I feel completely hopeless.")
    assert code == 0
    report = _check_outputs(out)
    assert report["emotion"]["coarse"] == "sad"
    votes = report["emotion"]["votes"]
    # A real vote of independent text readers; no face and no voice to judge, so those abstain.
    assert len(votes) >= 2 and {v["modality"] for v in votes} == {"text"}
    assert {"MiniLM head (ED-trained)", "word head (ED-trained)"} <= {v["voter"] for v in votes}
    assert report["engines"]["emotion"] == " + ".join(v["voter"] for v in votes)     # only the voters that voted


def test_audio_turn_is_transcribed_and_heard(tmp_path):
    code, out = _run(tmp_path, "--audio", str(EXAMPLES / "turn_audio.wav"), "--k-shot", "1")
    assert code == 0
    report = _check_outputs(out)
    assert report["transcribed"] and "exam" in report["heard_text"].lower()
    assert {"text", "voice"} <= {v["modality"] for v in report["emotion"]["votes"]}


def test_video_turn_uses_face_and_its_audio(tmp_path):
    history = tmp_path / "history.json"
    history.write_text(json.dumps([{"role": "speaker", "utterance": "Can I tell you something?"},
                                   {"role": "listener", "utterance": "Of course, I'm listening."}]))
    code, out = _run(tmp_path, "--video", str(EXAMPLES / "turn_video.mp4"), "--dialogue", str(history),
                     "--k-shot", "3")
    assert code == 0
    report = _check_outputs(out)
    assert {"face", "voice", "text"} <= {v["modality"] for v in report["emotion"]["votes"]}
    assert [u["role"] for u in report["history"]] == ["speaker", "listener", "speaker"]


def test_avamerg_dialogue_file_supplies_the_turn(tmp_path):
    code, out = _run(tmp_path, "--dialogue", str(EXAMPLE_DIALOGUES))
    assert code == 0
    report = json.loads((out / "reply.json").read_text())
    # the last turn's final speaker utterance is the turn; what came before it is the dialogue so far
    assert report["heard_text"] == "I've been working toward it for three years."
    assert [u["role"] for u in report["history"]] == ["speaker", "listener", "speaker"]


def _bad_inputs(tmp_path):
    corrupt = tmp_path / "corrupt.mp4"
    corrupt.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 20)
    silent = write_wav(tmp_path / "silent.wav", np.zeros(48_000, np.float32), 16_000)
    long = tmp_path / "long.wav"
    soundfile.write(long, (0.2 * np.sin(np.arange(8_000 * 600) / 3)).astype(np.float32), 8_000)
    return {
        "20k-char text": (["--text", "sad " * 5_000], "limit is 2000"),
        "missing everything": ([], "Give your latest turn"),
        "corrupt mp4": (["--video", str(corrupt)], "could not be"),
        "silent audio": (["--audio", str(silent)], "silent"),
        "10-minute audio": (["--audio", str(long)], "longer than 60 s"),
        "unknown avatar": (["--text", "hi", "--avatar", "nobody"], "no avatar called"),
        "bad dialogue": (["--text", "hi", "--dialogue", str(corrupt)], "not valid JSON"),
    }


def test_bad_inputs_exit_2_with_one_line(tmp_path, capsys):
    for name, (args, message) in _bad_inputs(tmp_path).items():
        code, _ = _run(tmp_path, *args)
        err = capsys.readouterr().err
        assert code == 2, name
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, (name, err)
