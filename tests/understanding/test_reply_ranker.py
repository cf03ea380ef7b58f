"""The listener map that orders the lite writer's lines (reply_ranker): it loads strictly, and it puts the line a
listener would say to turns written for these tests above lines for other situations. That the ranked writer still
says only its own lines is checked in test_topic_writer, whose writer is the ranked one."""
from __future__ import annotations

import numpy as np
import pytest
from safetensors.numpy import save_file
from support.dialogues import said

from e3rg_core.errors import CheckpointMismatchError
from e3rg_core.understanding.reply_ranker import EMBEDDING_SIZE, FORMAT, ReplyRanker

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# One reaction per situation, each written for one of the turns below.
REACTIONS = {
    "grief": "I'm so sorry for your loss.",
    "joy": "Congratulations, that's wonderful news!",
    "disgust": "Ew, that's so gross!",
    "fear": "Oh no, that sounds so scary!",
    "anger": "Ugh, that's so unfair!",
}
TURNS = [
    ("My grandfather passed away on Sunday, and the funeral is this week.", "grief"),
    ("My dad died last month and I still can't believe he's gone.", "grief"),
    ("I got accepted into the nursing program I applied to!", "joy"),
    ("We just found out we're having our first baby!", "joy"),
    ("There were maggots all over the trash can in my kitchen this morning.", "disgust"),
    ("I bit into my sandwich and there was a hair in it.", "disgust"),
    ("Someone was trying to open my front door at two in the morning.", "fear"),
    ("A huge spider crawled across my pillow while I was trying to sleep.", "fear"),
    ("My manager gave the promotion to his friend who just started last month.", "anger"),
    ("The landlord kept my whole deposit for a scratch that was already there.", "anger"),
]


@pytest.fixture(scope="module")
def ranker():
    return ReplyRanker.from_pretrained()


def test_the_line_for_the_situation_ranks_first(ranker):
    """Well above chance (2 in 10): the shipped map puts the situation's own line first for 7 of these 10 turns. It
    reads the promotion given to another as good news and the kept deposit as gross; in the writer it only orders
    lines of the stance the vote and the turn's words chose."""
    texts = list(REACTIONS.values())
    first = []
    for turn, situation in TURNS:
        scores = ranker.scores(ranker.expected(said(turn).history), texts)
        first.append(texts[int(np.argmax(scores))] == REACTIONS[situation])
        print(f"{turn}\n    -> {texts[int(np.argmax(scores))]}")
    assert sum(first) >= 6, first


def test_scores_are_the_same_remembered_or_not(ranker):
    expected = ranker.expected(said(TURNS[0][0]).history)
    texts = ["How are you holding up?", "What kind of car was it?"]
    first = ranker.scores(expected, texts)
    again = ranker.scores(expected, list(reversed(texts)))[::-1]
    assert np.allclose(first, again, atol=1e-5)


@pytest.mark.parametrize("tensors, metadata", [
    ({"weight": np.zeros((EMBEDDING_SIZE, EMBEDDING_SIZE), np.float32), "bias": np.zeros(EMBEDDING_SIZE, np.float32)},
     {"format": FORMAT, "context_weight": "1.0"}),
    ({"weight": np.zeros((EMBEDDING_SIZE, 16), np.float32)}, {"format": FORMAT, "context_weight": "1.0"}),
    ({"weight": np.zeros((EMBEDDING_SIZE, EMBEDDING_SIZE), np.float32)}, {"format": "other/1", "context_weight": "1"}),
])
def test_a_map_of_another_layout_is_refused(tmp_path, tensors, metadata):
    path = tmp_path / "map.safetensors"
    save_file(tensors, str(path), metadata=metadata)
    with pytest.raises(CheckpointMismatchError):
        ReplyRanker.from_pretrained(path, encoder=object())
