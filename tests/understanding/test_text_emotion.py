"""The trained text emotion heads (sentence embeddings; words) and their voters, on the shipped weights (no dataset
is needed here).

Every sentence below was written for these tests; none comes from EmpatheticDialogues.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import replace

import numpy as np
import pytest

from e3rg_core.contracts import UnderstandingRequest, Utterance
from e3rg_core.emotions import ED_LABELS, FINE_LABELS, MEAD_ONLY_LABELS, coarse_of
from e3rg_core.errors import CheckpointMismatchError, EngineUnavailableError
from e3rg_core.understanding import text_emotion
from e3rg_core.understanding.situation_voter import SituationEmotionVoter
from e3rg_core.understanding.text_emotion import (
    HEAD_FILE,
    TextEmotionHead,
    TextEmotionVoter,
    read_head_file,
)
from e3rg_core.understanding.voting import decide
from e3rg_core.understanding.word_emotion import HEAD_FILE as WORD_HEAD_FILE
from e3rg_core.understanding.word_emotion import (
    WordEmotionHead,
    WordEmotionVoter,
    load_word_head,
    terms,
)

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# (sentence, the fine labels a listener could fairly read in it): written for these tests, before any prediction
PROJECT_SENTENCES = [
    ("My coworker took credit for the report I spent a month writing.",
     {"angry", "furious", "annoyed", "jealous", "disappointed"}),
    ("Someone keyed my car in the parking lot and drove off laughing.", {"angry", "furious", "annoyed", "disgusted"}),
    ("We finally got tickets to the show I never thought we'd be able to see!",
     {"excited", "joyful", "surprised", "grateful", "anticipating", "happy", "content"}),
    ("Our old dog died this morning and the house feels so empty.", {"sad", "devastated", "lonely", "sentimental"}),
    ("I heard footsteps downstairs at 3 a.m. and I'm home alone.", {"afraid", "terrified", "anxious", "apprehensive"}),
    ("My daughter graduated top of her class and gave the speech.", {"proud", "joyful", "impressed", "content"}),
    ("I have my driving test tomorrow and I keep thinking I'll fail it.",
     {"anxious", "apprehensive", "afraid", "terrified"}),
    ("Nobody called me on my birthday this year.", {"lonely", "sad", "disappointed", "devastated"}),
]


def said(*utterances: str) -> tuple[Utterance, ...]:
    """A history that alternates speaker and listener, starting with the speaker."""
    return tuple(Utterance(i, "speaker" if i % 2 == 0 else "listener", text) for i, text in enumerate(utterances))


@pytest.fixture(scope="module")
def head() -> TextEmotionHead:
    return TextEmotionHead.from_pretrained()


def test_a_lone_sentence_gets_a_distribution_over_the_36_labels(head):
    probabilities = head.read_text("I can't believe they cancelled the trip we planned all year.")
    assert probabilities.shape == (len(FINE_LABELS),) == (36,)
    assert probabilities.sum() == pytest.approx(1.0, abs=1e-5)
    assert all(probabilities[FINE_LABELS.index(label)] == 0 for label in MEAD_ONLY_LABELS)
    assert all(probabilities[FINE_LABELS.index(label)] > 0 for label in ED_LABELS)


@pytest.fixture(scope="module")
def text_voters(head) -> list:
    """The lite tier's text voters, at their fitted weights."""
    return [TextEmotionVoter(head), WordEmotionVoter.from_pretrained(), SituationEmotionVoter.from_pretrained()]


def text_vote(voters, history):
    request = UnderstandingRequest(history=history)
    votes = [replace(vote, weight=voter.weight) for voter in voters if (vote := voter.vote(request))]
    return decide(votes, {voter.name: voter.priority for voter in voters})


def test_the_text_vote_reads_most_project_sentences_fairly(text_voters):
    # The sentences were written before any head was trained; the bar allows the few it misreads (the model card
    # says which and why) and keeps the others from regressing.
    read = {sentence: text_vote(text_voters, said(sentence)).fine for sentence, _ in PROJECT_SENTENCES}
    misread = {sentence: label for (sentence, fair), label in zip(PROJECT_SENTENCES, read.values())
               if label not in fair}
    assert len(misread) <= 2, misread


def test_the_embedding_head_alone_reads_most_project_sentences_in_the_right_coarse_class(head):
    read = [FINE_LABELS[int(np.argmax(head.read_text(sentence)))] for sentence, _ in PROJECT_SENTENCES]
    right = [coarse_of(label) in {coarse_of(f) for f in fair} for label, (_, fair) in zip(read, PROJECT_SENTENCES)]
    assert sum(right) >= 6, list(zip(read, right))


def test_stolen_credit_and_vandalism_are_never_read_as_pride_or_joy(text_voters):
    for sentence, _ in PROJECT_SENTENCES[:2]:
        result = text_vote(text_voters, said(sentence))
        assert coarse_of(result.fine) != "happy", (sentence, result.fine)


def test_the_whole_turn_is_read_not_only_the_latest_utterance(head):
    latest = "Yes, it all happened on Saturday."
    loss = head.probabilities(said("My grandfather passed away last week.", "Oh no, when was the funeral?", latest))
    win = head.probabilities(said("I won first prize in the state baking contest!", "When was the contest?", latest))
    alone = head.probabilities(said(latest))
    top = {name: FINE_LABELS[int(np.argmax(p))] for name, p in (("loss", loss), ("win", win), ("alone", alone))}
    assert coarse_of(top["loss"]) == "sad" and coarse_of(top["win"]) in {"happy", "surprised"}, top
    assert not np.allclose(loss, alone) and not np.allclose(win, alone)


def coarse_mass(probabilities: np.ndarray, coarse: str) -> float:
    return float(sum(p for label, p in zip(FINE_LABELS, probabilities) if coarse_of(label) == coarse))


def test_the_latest_speaker_utterance_counts_most(head):
    worry, news = "I was so nervous about the job interview.", "They called back this morning: I got the job!"
    news_last = head.probabilities(said(worry, "How did it go?", news))
    worry_last = head.probabilities(said(news, "How did it go?", worry))
    assert coarse_mass(news_last, "happy") > coarse_mass(worry_last, "happy")


def test_voter_votes_top_three_and_abstains_without_speaker_words(head):
    voter = TextEmotionVoter(head)
    vote = voter.vote(UnderstandingRequest(history=said("Our old dog died this morning.")))
    assert vote is not None and vote.modality == "text" and len(vote.top) == 3
    assert vote.label == vote.top[0][0] and vote.confidence == vote.top[0][1]
    assert [p for _, p in vote.top] == sorted((p for _, p in vote.top), reverse=True)
    assert voter.vote(UnderstandingRequest(history=said("   "))) is None
    assert voter.vote(UnderstandingRequest(history=())) is None


# -- strict loading ------------------------------------------------------------------------------------------------

def test_the_shipped_head_is_a_valid_head_file():
    _, layers, labels, temperature = read_head_file(HEAD_FILE)
    assert sorted(labels) == sorted(ED_LABELS) and temperature > 0
    assert layers["out.weight"].shape[0] == 32


def test_a_missing_head_is_unavailable_with_the_rebuild_command(tmp_path):
    with pytest.raises(EngineUnavailableError, match="train_emotion"):
        read_head_file(tmp_path / "absent.safetensors")


def test_a_corrupt_head_is_a_checkpoint_mismatch(tmp_path):
    garbage = tmp_path / "garbage.safetensors"
    garbage.write_bytes(b"not a safetensors file at all")
    with pytest.raises(CheckpointMismatchError):
        read_head_file(garbage)
    truncated = tmp_path / "truncated.safetensors"
    truncated.write_bytes(HEAD_FILE.read_bytes()[:-100])
    with pytest.raises(CheckpointMismatchError):
        read_head_file(truncated)


def _rewritten(tmp_path, change_layers=None, change_metadata=None):
    from safetensors.numpy import save_file
    _, layers, _, _ = read_head_file(HEAD_FILE)
    metadata = text_emotion._metadata(HEAD_FILE)
    layers, metadata = dict(layers), dict(metadata)
    if change_layers:
        change_layers(layers)
    if change_metadata:
        change_metadata(metadata)
    path = tmp_path / "changed.safetensors"
    save_file(layers, str(path), metadata=metadata)
    return path


def test_a_head_of_the_wrong_shape_or_labels_is_refused(tmp_path):
    def drop_a_label(layers):
        layers["out.weight"], layers["out.bias"] = layers["out.weight"][:-1], layers["out.bias"][:-1]
    with pytest.raises(CheckpointMismatchError, match="out.weight"):
        read_head_file(_rewritten(tmp_path, change_layers=drop_a_label))

    def extra_tensor(layers):
        layers["stray"] = np.zeros(3, np.float32)
    with pytest.raises(CheckpointMismatchError, match="stray"):
        read_head_file(_rewritten(tmp_path, change_layers=extra_tensor))

    def other_labels(metadata):
        metadata["labels"] = metadata["labels"].replace("jealous", "neutral")
    with pytest.raises(CheckpointMismatchError, match="labels"):
        read_head_file(_rewritten(tmp_path, change_metadata=other_labels))

    def other_encoder(metadata):
        metadata["encoder"] = "some_other_encoder"
    with pytest.raises(CheckpointMismatchError, match="some_other_encoder"):
        read_head_file(_rewritten(tmp_path, change_metadata=other_encoder))

    def not_a_number(layers):
        layers["out.bias"] = np.full_like(layers["out.bias"], np.nan)
    with pytest.raises(CheckpointMismatchError, match="finite"):
        read_head_file(_rewritten(tmp_path, change_layers=not_a_number))


def test_a_head_of_another_format_is_refused(tmp_path):
    def old_format(metadata):
        metadata["format"] = "e3rg-text-emotion-head/0"
    with pytest.raises(CheckpointMismatchError, match="format"):
        read_head_file(_rewritten(tmp_path, change_metadata=old_format))


def test_a_copy_of_the_shipped_head_loads_and_reads_alike(tmp_path, head):
    copy = tmp_path / "copy.safetensors"
    shutil.copy(HEAD_FILE, copy)
    again = TextEmotionHead.load(copy, head.encoder)
    sentence = "Nobody called me on my birthday this year."
    np.testing.assert_allclose(again.read_text(sentence), head.read_text(sentence), atol=1e-6)


def test_the_model_card_names_the_weights_hashes():
    import hashlib
    card = (HEAD_FILE.parent / "MODEL_CARD.md").read_text(encoding="utf-8")
    for weights in (HEAD_FILE, WORD_HEAD_FILE):
        assert f"`{weights.name}` | {hashlib.sha256(weights.read_bytes()).hexdigest()}" in card, weights.name
    assert "CC BY-NC 4.0" in card and "python -m e3rg_dev.train_emotion --data" in card


# -- the word head -------------------------------------------------------------------------------------------------

def test_word_terms_are_words_and_word_pairs():
    assert terms("Took CREDIT, didn\u2019t he?") == ["took", "credit", "didn't", "he", "took credit",
                                                    "credit didn't", "didn't he"]


def test_word_head_reads_a_distribution_and_abstains_on_unknown_words():
    head = WordEmotionHead.from_pretrained()
    probabilities = head.read_text("Our old dog died this morning.")
    assert probabilities.shape == (36,) and probabilities.sum() == pytest.approx(1.0, abs=1e-5)
    assert all(probabilities[FINE_LABELS.index(label)] == 0 for label in MEAD_ONLY_LABELS)
    assert not head.read_text("zzqx vvbnm").any()
    assert WordEmotionVoter(head).vote(UnderstandingRequest(history=said("zzqx vvbnm"))) is None
    earlier = head.probabilities(said("My grandfather passed away.", "I'm so sorry.", "It was on Saturday."))
    assert not np.allclose(earlier, head.read_text("It was on Saturday."))


def test_word_head_loading_is_strict(tmp_path):
    from safetensors.numpy import load_file, save_file

    from e3rg_core.understanding import word_emotion
    with pytest.raises(EngineUnavailableError, match="train_emotion"):
        load_word_head(tmp_path / "absent.safetensors")
    garbage = tmp_path / "garbage.safetensors"
    garbage.write_bytes(b"\x00" * 64)
    with pytest.raises(CheckpointMismatchError):
        load_word_head(garbage)
    tensors, metadata = load_file(str(word_emotion.HEAD_FILE)), text_emotion._metadata(word_emotion.HEAD_FILE)
    shorter = tmp_path / "shorter.safetensors"
    one_term_less = json.dumps(json.loads(metadata["vocabulary"])[:-1])
    save_file(tensors, str(shorter), metadata=metadata | {"vocabulary": one_term_less})
    with pytest.raises(CheckpointMismatchError, match="terms"):
        load_word_head(shorter)
    embedding_head = tmp_path / "embedding.safetensors"
    shutil.copy(HEAD_FILE, embedding_head)
    with pytest.raises(CheckpointMismatchError, match="format"):
        load_word_head(embedding_head)
