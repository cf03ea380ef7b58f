"""The evaluation CLI on real lite engines: E3RG's HIT and Dist-n, and gold labels outside the taxonomy."""
import json

from e3rg_core import evaluate
from e3rg_core.emotions import COARSE_LABELS
from e3rg_core.tiers.lite import EXAMPLE_DIALOGUES


def test_report_has_the_measures_and_they_agree_with_the_confusion_matrix(tmp_path, capsys):
    out = tmp_path / "report.json"
    assert evaluate.main([str(EXAMPLE_DIALOGUES), "--limit", "4", "--k-shot", "1", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["n"] == 4 and report["unmapped_gold"] == 0
    assert 0 <= report["fine_accuracy"] <= report["hit"] <= 1
    confusion = report["confusion"]
    assert report["hit"] == sum(confusion[c][c] for c in COARSE_LABELS) / 4
    turns = sum(len(d["turns"]) for d in json.loads(EXAMPLE_DIALOGUES.read_text())[:4])
    assert report["replies"] == turns > 4      # every turn of the four conversations gets a reply
    assert 0 < report["dist1"] <= 1 and 0 < report["dist2"] <= 1
    assert 0 < report["corpus_dist2"] <= report["dist2"] and 0 <= report["repeated_openings"] <= 1
    assert 0 < report["mean_speech_s"] <= report["max_speech_s"] and report["mean_words"] > 0
    for reader in ("stance_fit", "stance_fit_word_head"):
        assert 0 <= report[reader] <= 1
        assert all(0 <= turn[reader] <= 1 for turn in report["turns"])
    assert report["hedged"] == sum(turn["stance"] == "acknowledge" for turn in report["turns"]) / turns
    assert '"hit"' in capsys.readouterr().out


def test_out_of_list_gold_labels_never_crash(tmp_path):
    data = json.loads(EXAMPLE_DIALOGUES.read_text())[:3]
    data[0]["turns"][-1]["chain_of_empathy"]["speaker_emotion"] = "worried"     # AvaMERG word -> anxious
    data[1]["turns"][-1]["chain_of_empathy"]["speaker_emotion"] = "banana"      # names no emotion
    del data[2]["turns"][-1]["chain_of_empathy"]                                 # test split: no gold at all
    path = tmp_path / "data.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "report.json"
    assert evaluate.main([str(path), "--emotion-only", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["n"] == 1 and report["unmapped_gold"] == 2
    assert "dist1" not in report and report["unmapped_gold_labels"] == ["None", "banana"]


def test_malformed_data_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("[{")
    assert evaluate.main([str(path), "--out", str(tmp_path / "r.json")]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_stance_valence_counts_cheer_at_negative_gold_before_and_after_the_hedge():
    from e3rg_core.contracts import EmotionResult, Vote
    from e3rg_core.emotions import coarse_of

    def voted(fine: str, *top: tuple[str, float]) -> EmotionResult:
        votes = tuple(Vote(f"v{i}", "text", label, p, top=((label, p),)) for i, (label, p) in enumerate(top))
        return EmotionResult(fine, coarse_of(fine), votes, "test")

    emotions = [voted("impressed", ("impressed", 0.6), ("annoyed", 0.5)),     # torn: hedges
                voted("joyful", ("joyful", 0.9)),                             # cheers at a sad gold
                voted("sad", ("sad", 0.9)),                                   # no cheer at a happy gold
                voted("proud", ("proud", 0.9))]                               # right
    figures = evaluate.stance_valence(emotions, ["furious", "lonely", "excited", "proud"])
    assert figures["hedged"] == 0.25
    assert figures["winner"] == {"cheer_at_negative": 0.5, "no_cheer_at_happy": 0.25}
    assert figures["used"] == {"cheer_at_negative": 0.25, "no_cheer_at_happy": 0.25}
