import json

import numpy as np
import pytest

from e3rg_core.dialogue import (Dialogue, Profile, Turn, Utterance, dialogue_to_json, load_dialogues, parse_history,
                                save_dialogues)
from e3rg_core.errors import DialogueFormatError
from e3rg_core.metrics import (coarse_confusion, corpus_distinct_n, distinct_n, fine_accuracy, hit_rate, macro_f1,
                               mean_words, opening, repeated_opening_share)
from e3rg_core.tiers.lite import EXAMPLE_DIALOGUES

AVAMERG = [{
    "conversation_id": "01118",
    "speaker_profile": {"age": "young", "gender": "male", "timbre": "high", "ID": 28},
    "listener_profile": {"age": "elderly", "gender": "female", "timbre": "mid", "ID": "42"},
    "topic": "work",
    "turns": [{"turn_id": 0, "context": "job loss",
               "dialogue_history": [{"index": 0, "role": "speaker", "utterance": "I lost my job."}],
               "response": "I'm sorry.",
               "chain_of_empathy": {"speaker_emotion": "worried", "emotion_cause": "job"}}],
}]


def test_avamerg_round_trip(tmp_path):
    path = tmp_path / "data.json"
    path.write_text(json.dumps(AVAMERG))
    [dialogue] = load_dialogues(path)
    assert dialogue.listener_profile == Profile("elderly", "female", "mid", 42)
    turn = dialogue.turns[0]
    assert turn.turn_id == "0" and turn.speaker_emotion == "worried" and turn.context == "job loss"
    assert turn.history == (Utterance(0, "speaker", "I lost my job."),)
    save_dialogues([dialogue], tmp_path / "again.json")
    assert load_dialogues(tmp_path / "again.json") == [dialogue]


def test_shipped_examples_load():
    dialogues = load_dialogues(EXAMPLE_DIALOGUES)
    assert len(dialogues) >= 12
    assert all(d.turns[-1].speaker_emotion and d.turns[-1].response for d in dialogues)


@pytest.mark.parametrize("content,message", [
    ("{not json", "not valid JSON"),
    ('[{"turns": [{"dialogue_history": []}]}]', "dialogue_history is empty"),
    ('[{"conversation_id": "1"}]', "missing field 'turns'"),
    ('[{"turns": [{"dialogue_history": [{"role": "narrator", "utterance": "x"}]}]}]', "role must be"),
    ('[{"turns": [{"dialogue_history": [{"role": "speaker"}]}]}]', "missing field 'utterance'"),
    ('[{"turns": [], "speaker_profile": {"ID": "abc"}}]', "ID should be an integer"),
    ('"just a string"', "expected a list"),
])
def test_malformed_files_give_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(DialogueFormatError, match=message):
        load_dialogues(path)


def test_missing_file_and_overlong_history(tmp_path):
    with pytest.raises(DialogueFormatError, match="No dialogue file"):
        load_dialogues(tmp_path / "nope.json")
    with pytest.raises(DialogueFormatError, match="at most"):
        parse_history([{"role": "speaker", "utterance": "hi"}] * 500)
    with pytest.raises(DialogueFormatError, match="longer than"):
        parse_history([{"role": "speaker", "utterance": "x" * 9000}])


def test_to_json_omits_unknown_profile_fields():
    dialogue = Dialogue("7", (Turn("0", (Utterance(0, "speaker", "hi"),)),), Profile(age="young"))
    assert dialogue_to_json(dialogue)["speaker_profile"] == {"age": "young"}


def test_hit_is_coarse_match_computed_by_hand():
    predicted = ["joyful", "sad", "anxious", "furious"]
    gold = ["excited", "lonely", "afraid", "furious"]
    # joyful/excited both happy (hit); sad/lonely both sad (hit); anxious(sad) vs afraid(fear) miss; exact hit
    assert hit_rate(predicted, gold) == 0.75
    assert fine_accuracy(predicted, gold) == 0.25
    confusion = coarse_confusion(predicted, gold)
    assert confusion["fear"]["sad"] == 1 and confusion["happy"]["happy"] == 1
    assert sum(sum(row.values()) for row in confusion.values()) == 4


def test_distinct_n_is_sentence_averaged_by_hand():
    responses = ["the cat the cat", "A b c", ""]
    # sentence 1: unigrams 2/4, bigrams {the cat, cat the} 2/3; sentence 2: 3/3, 2/2; empty skipped
    assert distinct_n(responses, 1) == pytest.approx((0.5 + 1.0) / 2)
    assert distinct_n(responses, 2) == pytest.approx((2 / 3 + 1.0) / 2)
    assert distinct_n(["one"], 2) == 0.0



# The measures that show what sentence-averaged Distinct-n hides
def test_corpus_distinct_counts_repeats_across_replies():
    replies = ["i am so sorry", "i am so sorry", "what great news"]
    # per sentence every reply is all-distinct; together 7 of 11 unigrams and 5 of 8 bigrams are new
    assert corpus_distinct_n(replies, 1) == pytest.approx(7 / 11)
    assert corpus_distinct_n(replies, 2) == pytest.approx(5 / 8)
    assert corpus_distinct_n([], 2) == 0.0


def test_repeated_openings_and_mean_words():
    replies = ["I'm so sorry to hear that.", "I'm so sorry, to lose him...", "That's wonderful news!", "Wow."]
    assert opening(replies[1]) == ("i'm", "so", "sorry", "to")
    assert repeated_opening_share(replies) == pytest.approx(2 / 4)
    assert mean_words(replies) == pytest.approx(np.mean([6, 6, 3, 1]))

def test_macro_f1_averages_every_label_alike():
    predicted, gold = ["sad", "sad", "joyful", "angry"], ["sad", "joyful", "joyful", "sad"]
    # sad: 1 hit, 2 guessed, 2 gold -> 0.5; joyful: 1, 1, 2 -> 2/3; angry: 0, 1, 0 -> 0; proud: never seen -> 0
    assert macro_f1(predicted, gold, ["sad", "joyful", "angry"]) == pytest.approx((0.5 + 2 / 3 + 0) / 3)
    assert macro_f1(predicted, gold, ["sad", "joyful", "angry", "proud"]) == pytest.approx((0.5 + 2 / 3) / 4)
    assert macro_f1(gold, gold, ["sad", "joyful"]) == 1.0
