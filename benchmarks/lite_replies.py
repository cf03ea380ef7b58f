"""The lite tier's `evaluate` on EmpatheticDialogues valid, for this checkout or an earlier one, measured alike.

    .venv/bin/python benchmarks/lite_replies.py VALID.json [--limit 150] [--code DIR] [--out FILE]

VALID.json is ED's valid split in the AvaMERG layout (`python -m e3rg_dev.train_emotion --convert`). The code in
`--code` (default: this checkout; a worktree of an earlier commit gives a "before") runs its own
`evaluate.evaluate` over the first `--limit` conversations in a child process, as `python -m e3rg_core.evaluate`
does: a reply for every speaker turn, HIT and fine accuracy on each conversation's last turn. Its runner's `write`
is recorded, because older versions of evaluate do not list their replies. This checkout then measures those
replies (`evaluate.reply_measures`), and the human listener replies of the same turns by the same code, their
stance read against the gold emotion. The JSON keeps ids, labels and the tier's replies, never the dataset's text:
a reply that repeats seven words in a row of its own conversation is measured, then withheld from the JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VOTE_MEASURES = ("hit", "fine_accuracy")
REPLY_MEASURES = ("replies", "dist1", "dist2", "corpus_dist1", "corpus_dist2", "repeated_openings", "mean_words",
                  "mean_speech_s", "max_speech_s", "hedged", "stance_fit", "stance_fit_word_head")
COPIED_WORDS = 7
WITHHELD = f"[withheld: copies {COPIED_WORDS} or more words of the conversation itself]"


def collect(data: Path, limit: int) -> dict:
    """Runs in the child, on whichever e3rg_core is first on its path: that version's evaluate, replies recorded."""
    from e3rg_core import evaluate as evaluation
    from e3rg_core.dialogue import load_dialogues
    from e3rg_core.tiers.lite import lite_engines
    from e3rg_core.understanding import prompts
    if not Path(evaluation.__file__).resolve().is_relative_to(Path.cwd().resolve()):
        raise SystemExit(f"e3rg_core was imported from {evaluation.__file__}, not from the checkout {Path.cwd()}")
    written, runner_write = [], evaluation.write

    def stance(emotion) -> str:
        """The stance that checkout writes with: before prompts.listener_stance, always the voted winner's."""
        if hasattr(prompts, "listener_stance"):
            return prompts.listener_stance(emotion).name
        return prompts.LISTENER_STANCE[emotion.fine].name

    def recorded_write(job, engines):
        events = list(runner_write(job, engines))
        written.append({"emotion": job.emotion.fine, "stance": stance(job.emotion), "reply": events[-1].text})
        return events

    evaluation.write = recorded_write
    dialogues = load_dialogues(str(data))[:limit]
    report = evaluation.evaluate(lite_engines(), dialogues, dialogues, 0, False, progress=False)
    return {"hit": report["hit"], "fine_accuracy": report["fine_accuracy"], "n": report["n"],
            "voters": report["voters"], "writer": report["writer"], "written": written}


def spans(text: str) -> set[tuple[str, ...]]:
    """Every run of COPIED_WORDS words in the text, lower-cased and without punctuation."""
    tokens = re.findall(r"[a-z0-9']+", text.lower())
    return {tuple(tokens[i:i + COPIED_WORDS]) for i in range(len(tokens) - COPIED_WORDS + 1)}


def turns_of(data: Path, limit: int, written: list[dict]) -> tuple[list[dict], list[dict]]:
    """The recorded replies with their turns' ids and gold labels (evaluate's order), and the human replies."""
    from e3rg_core.dialogue import load_dialogues
    from e3rg_core.emotions import normalise_label
    from e3rg_core.understanding.prompts import LISTENER_STANCE
    turns, human = [], []
    spoken = [(dialogue, turn) for dialogue in load_dialogues(str(data))[:limit] for turn in dialogue.turns]
    if len(spoken) != len(written):
        raise SystemExit(f"{len(written)} replies recorded for {len(spoken)} turns")
    for (dialogue, turn), reply in zip(spoken, written):
        said = set().union(*(spans(u.utterance) for t in dialogue.turns for u in t.history),
                           *(spans(t.response or "") for t in dialogue.turns))
        turns.append({"conversation_id": dialogue.conversation_id, "turn_id": turn.turn_id,
                      "last": turn is dialogue.turns[-1], "gold": turn.speaker_emotion, **reply,
                      "copies_dataset": bool(spans(reply["reply"]) & said)})
        gold = normalise_label(turn.speaker_emotion or "")
        if turn.response and gold:
            human.append({"reply": turn.response, "emotion": gold, "stance": LISTENER_STANCE[gold].name})
    return turns, human


def cell(value) -> str:
    if value is None:
        return " " * 8
    return f"{value:>8.3f}" if isinstance(value, float) else f"{value:>8}"


def table(report: dict) -> str:
    rows = [f"{'measure':<22} | {'tier':>8} | {'human':>8}"]
    rows += [f"{name:<22} | {cell(report.get(name))} | {cell(report['human'].get(name))}"
             for name in VOTE_MEASURES + REPLY_MEASURES]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose lite tier answers")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "lite_replies.json")
    parser.add_argument("--collect", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.collect:
        print(json.dumps(collect(args.data, args.limit)))
        return
    code = args.code.resolve()
    # The child imports the checkout's package (PYTHONPATH and cwd), not the editable install of this one.
    child = subprocess.run([sys.executable, str(Path(__file__).resolve()), str(args.data.resolve()), "--limit",
                            str(args.limit), "--collect"], cwd=code, env=os.environ | {"PYTHONPATH": str(code)},
                           check=True, stdout=subprocess.PIPE, text=True)
    collected = json.loads(child.stdout.strip().splitlines()[-1])
    turns, human = turns_of(args.data, args.limit, collected.pop("written"))

    from e3rg_core.evaluate import reply_measures
    from e3rg_core.tiers.lite import lite_engines
    engines = lite_engines()
    commit = subprocess.run(["git", "-C", str(code), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    report = {"commit": commit.strip(), "data": args.data.name, "limit": args.limit, **collected,
              **reply_measures(turns, engines), "human": reply_measures(human, engines), "turns": turns}
    for turn in turns:
        if turn.pop("copies_dataset"):
            turn["reply"] = WITHHELD
    print(table(report))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
