"""Reading EmpatheticDialogues' files and converting them to AvaMERG dialogues (e3rg_dev.train_emotion), on lines
written for these tests in ED's layouts."""
import pytest

from e3rg_core.dialogue import load_dialogues, save_dialogues
from e3rg_core.errors import DialogueFormatError
from e3rg_dev.train_emotion import histories, read_conversations, to_dialogue


def test_ed_files_are_read_in_both_layouts_and_converted_to_avamerg(tmp_path):
    original = tmp_path / "valid.csv"
    original.write_text(
        "conv_id,utterance_idx,context,prompt,speaker_idx,utterance,selfeval,tags\n"
        "hit:1_conv:1,1,proud,My bread won a ribbon_comma_ finally.,7,My bread won a ribbon at the fair!,5|5,\n"
        "hit:1_conv:1,2,proud,My bread won a ribbon_comma_ finally.,8,Wow_comma_ what kind of bread?,5|5,\n"
        "hit:1_conv:1,3,proud,My bread won a ribbon_comma_ finally.,7,Sourdough_comma_ after ten tries.,5|5,extra,x\n"
        "broken line without fields\n"
        "hit:1_conv:2,1,afraid,A dog chased me.,9,A big dog chased me home.,4|4,\n"
        "hit:1_conv:2,x,afraid,A dog chased me.,10,not a number,4|4,\n"
        "hit:1_conv:3,2,sad,Gap.,9,This conversation lacks its first line.,4|4,\n", encoding="utf-8")
    conversations = read_conversations(original)
    assert [(c.conv_id, c.emotion, len(c.utterances)) for c in conversations] == [("hit:1_conv:1", "proud", 3),
                                                                                 ("hit:1_conv:2", "afraid", 1)]
    assert conversations[0].utterances[1] == "Wow, what kind of bread?"
    assert [len(h) for h in histories(conversations[0])] == [1, 3]
    dialogue = to_dialogue(conversations[0])
    assert [t.response for t in dialogue.turns] == ["Wow, what kind of bread?", None]
    assert all(t.context == "" and t.speaker_emotion == "proud" for t in dialogue.turns)

    numbered = tmp_path / "numbered.csv"
    numbered.write_text("conv_id,utterance_idx,prompt,utterance,label\n"
                        "c1,1,Lost my keys.,I lost my keys again.,0\nc1,2,Lost my keys.,Where did you look?,0\n",
                        encoding="utf-8")
    (conversation,) = read_conversations(numbered)
    assert conversation.emotion == "sad" and conversation.utterances == ("I lost my keys again.",
                                                                         "Where did you look?")
    save_dialogues([to_dialogue(c) for c in conversations], tmp_path / "valid.json")
    loaded = load_dialogues(tmp_path / "valid.json")
    assert loaded[0].turns[-1].history[-1].utterance == "Sourdough, after ten tries."


def test_an_unknown_label_or_header_is_a_format_error(tmp_path):
    bad_label = tmp_path / "bad.csv"
    bad_label.write_text("conv_id,utterance_idx,prompt,utterance,label\nc1,1,p,u,99\n", encoding="utf-8")
    with pytest.raises(DialogueFormatError, match="unknown emotion label"):
        read_conversations(bad_label)
    bad_header = tmp_path / "header.csv"
    bad_header.write_text("a,b,c\n1,2,3\n", encoding="utf-8")
    with pytest.raises(DialogueFormatError, match="unknown header"):
        read_conversations(bad_header)
