"""Fitting the listener map (e3rg_dev.listener_map) on a valid.csv written for this test: only the conversations
before the frozen dev slice are read, and the file loads as the lite writer's ranker with its source and licence."""
import pytest
from safetensors import safe_open
from support.dialogues import said

from e3rg_core.understanding.reply_ranker import ReplyRanker
from e3rg_dev.dev_slice import DEV_CONVERSATIONS
from e3rg_dev.listener_map import answered_turns, build

pytestmark = pytest.mark.usefixtures("one_torch_thread")

TUNING = [("My bread won a ribbon at the fair!", "Wow, what kind of bread?", "Sourdough, after ten tries.",
           "That's worth every try!"),
          ("A big dog chased me home last night.", "Oh no, are you okay?"),
          ("I lost my keys again.", "Ugh, where did you find them?", "In the fridge, of all places.")]


def _write_valid(path):
    lines = ["conv_id,utterance_idx,prompt,utterance,label"]
    dev = [("Dev slice turn that must not be read.", "Dev slice reply that must not be read.")] * DEV_CONVERSATIONS
    for number, utterances in enumerate(TUNING + dev):
        lines += [f"hit:{number}_conv:{number},{i},situation,{text.replace(',', '_comma_')},5"
                  for i, text in enumerate(utterances, start=1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_only_the_tuning_conversations_are_read_and_the_map_loads(tmp_path):
    _write_valid(tmp_path / "valid.csv")
    rows, owners = answered_turns(tmp_path / "valid.csv")
    assert [row[2] for row in rows] == ["Wow, what kind of bread?", "That's worth every try!", "Oh no, are you okay?",
                                        "Ugh, where did you find them?"]
    assert owners == [0, 0, 1, 2]
    assert rows[1][1] == "My bread won a ribbon at the fair! Wow, what kind of bread? Sourdough, after ten tries."

    out = tmp_path / "map.safetensors"
    summary = build(tmp_path, out)
    assert summary["turns"] == 4 and summary["held_out_turns"] == 2
    with safe_open(str(out), "numpy") as tensors:
        metadata = tensors.metadata()
    assert metadata["licence"] == "CC BY-NC 4.0" and f"last {DEV_CONVERSATIONS}" in metadata["source"]
    ranker = ReplyRanker.from_pretrained(out)
    assert ranker.scores(ranker.expected(said(TUNING[1][0]).history), ["Oh no!", "Wow!"]).shape == (2,)
