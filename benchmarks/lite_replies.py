"""The lite tier's vote and reply on EmpatheticDialogues valid, for this checkout or an earlier one, measured alike.

    .venv/bin/python benchmarks/lite_replies.py VALID.json [--limit 40] [--code DIR] [--out FILE]

VALID.json is ED's valid split in the AvaMERG layout (`python -m e3rg_core.train_emotion --convert`). For each of
the first `--limit` conversations the last speaker turn is read and answered by the lite engines of the code in
`--code` (default: this checkout; an earlier commit's worktree gives the "before"), in a child process, through
the runner's own understand and write stages. The replies are then measured by this checkout's code
(`evaluate.reply_measures`: E3RG's Dist-1/2 per sentence and over all replies together, repeated openings, mean
words, speech seconds, stance fit), with HIT and fine accuracy of the vote. The JSON holds each turn's
conversation id, gold and voted emotion and reply: no dataset text.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ("hit", "fine_accuracy", "dist1", "dist2", "corpus_dist1", "corpus_dist2", "repeated_openings",
            "mean_words", "mean_speech_s", "max_speech_s", "stance_fit", "stance_fit_word_head")


def collect(data: Path, limit: int) -> list[dict]:
    """Runs in the child process, on whichever e3rg_core is first on its path; uses only what every version has."""
    from dataclasses import replace

    from e3rg_core.contracts import GenerationSettings, UnderstandingRequest
    from e3rg_core.dialogue import load_dialogues
    from e3rg_core.runner import TurnJob, understand, write
    from e3rg_core.tiers.lite import lite_engines
    engines, turns = lite_engines(), []
    for dialogue in load_dialogues(str(data))[:limit]:
        turn = dialogue.turns[-1]
        job = TurnJob(UnderstandingRequest(history=turn.history, context=turn.context), avatar=None, portrait=None,
                      settings=GenerationSettings(), workdir=Path("."))
        (voted,) = understand(job, engines)
        *_, written = write(replace(job, emotion=voted.emotion), engines)
        turns.append({"conversation_id": dialogue.conversation_id, "gold": turn.speaker_emotion,
                      "emotion": voted.emotion.fine, "votes": len(voted.emotion.votes), "reply": written.text})
    return turns


def measure(turns: list[dict]) -> dict:
    from e3rg_core.emotions import normalise_label
    from e3rg_core.evaluate import reply_measures
    from e3rg_core.metrics import fine_accuracy, hit_rate
    from e3rg_core.tiers.lite import lite_engines
    gold = [normalise_label(turn["gold"]) for turn in turns]
    predicted = [turn["emotion"] for turn in turns]
    return {"n": len(turns), "hit": hit_rate(predicted, gold), "fine_accuracy": fine_accuracy(predicted, gold),
            **reply_measures(turns, lite_engines()), "turns": turns}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose lite engines answer")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "lite_replies.json")
    parser.add_argument("--collect", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.collect:
        print(json.dumps(collect(args.data, args.limit)))
        return
    env = os.environ | {"PYTHONPATH": str(args.code.resolve())}
    child = subprocess.run([sys.executable, __file__, str(args.data.resolve()), "--limit", str(args.limit),
                            "--collect"], cwd=args.code, env=env, check=True, capture_output=True, text=True)
    turns = json.loads(child.stdout.strip().splitlines()[-1])
    report = measure(turns)
    print(" | ".join(f"{name:>17}" for name in MEASURES))
    print(" | ".join(f"{report[name]:>17.3f}" if isinstance(report[name], float) else f"{report[name]!s:>17}"
                     for name in MEASURES))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"code": str(args.code), "data": args.data.name, **report}, indent=2),
                        encoding="utf-8")


if __name__ == "__main__":
    main()
