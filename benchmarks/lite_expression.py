"""Does the lite listener show the feeling? The self-check's readings of the voice and face, through /respond.

    .venv/bin/python benchmarks/lite_expression.py --valid /work/data/ed/valid.csv [--conversations 32]
        [--avatar NAME] [--mode mirror] [--out benchmarks/results/lite_expression.json]

`python app.py` runs on the lite tier, offline; each conversation's last speaker turn, with the turns before it as
the dialogue so far, goes to /respond as an API caller sends it (gradio_client), in "mirror" mode by default (the
avatar shows the speaker's voted emotion). The self-check in the reply says what the voice voter heard in the
generated speech and what the face voter saw in the generated video; both are mapped to the 8 coarse classes and
set against the chosen (voted) coarse class. Accuracy is averaged over the chosen classes, so that one class the
rig renders well cannot carry the figure (issue 21's target: face >= 60 %, voice >= 40 %). In "listener" mode the
avatar does not show the chosen class (it meets fear with a concerned face and a soft voice), so the readings are
also set against the class each engine was asked to show (emotions.expression_for: lite_face, lite_voice).

The conversations are the project's frozen dev slice (docs/lite_replies.md: the last 300 of ED valid in file
order, e3rg_dev.dev_slice.DEV_CONVERSATIONS), of which the first --conversations are used. ED's test split
is never read. The JSON keeps conversation ids and labels, not the dataset's text.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def dev_conversations(valid_csv: Path, count: int) -> list[tuple[str, list[str]]]:
    """(conv_id, utterances in order) for the first `count` conversations of the frozen dev slice."""
    from e3rg_dev.dev_slice import DEV_CONVERSATIONS
    from e3rg_dev.train_emotion import read_conversations
    return [(c.conv_id, list(c.utterances)) for c in read_conversations(valid_csv)[-DEV_CONVERSATIONS:][:count]]


def turn_of(utterances: list[str]) -> tuple[list[dict], str]:
    """The dialogue so far and the speaker's last turn (ED's speaker says the odd-numbered utterances)."""
    last = len(utterances) - 1 if len(utterances) % 2 == 1 else len(utterances) - 2
    history = [{"role": "speaker" if i % 2 == 0 else "listener", "utterance": text}
               for i, text in enumerate(utterances[:last])]
    return history, utterances[last]


def coarse(fine: str | None) -> str | None:
    from e3rg_core.emotions import coarse_of, normalise_label
    if fine is None:
        return None
    label = normalise_label(fine)
    return coarse_of(label) if label else None


def class_averaged(rows: list[dict], reader: str, target: str = "chosen") -> tuple[float, dict[str, float]]:
    """How often the reader read the target class, per target class, and the mean over those classes."""
    per_class = {}
    for wanted in sorted({row[target] for row in rows}):
        mine = [row for row in rows if row[target] == wanted]
        per_class[wanted] = sum(row[reader] == wanted for row in mine) / len(mine)
    return statistics.mean(per_class.values()), per_class


def confusion(rows: list[dict], reader: str) -> dict[str, dict[str, int]]:
    table: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        table[row["chosen"]][row[reader] or "none"] += 1
    return {chosen: dict(counts) for chosen, counts in sorted(table.items())}


def print_confusion(title: str, table: dict[str, dict[str, int]]) -> None:
    columns = sorted({label for counts in table.values() for label in counts})
    print(f"\n{title} (rows: chosen, columns: read)")
    print(" | ".join(f"{h:>10}" for h in ["chosen", *columns, "n"]))
    for chosen, counts in table.items():
        print(" | ".join(f"{v!s:>10}" for v in [chosen, *(counts.get(c, 0) for c in columns), sum(counts.values())]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--valid", type=Path, default=Path("/work/data/ed/valid.csv"))
    parser.add_argument("--conversations", type=int, default=32)
    parser.add_argument("--avatar", default="")
    parser.add_argument("--mode", default="mirror")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "lite_expression.json")
    args = parser.parse_args()
    from gradio_client import Client

    from e3rg_core.emotions import expression_for
    from e3rg_dev.hub_rehearsal.app_run import RunningApp
    from e3rg_core.settings import TIER_VARIABLE
    conversations = dev_conversations(args.valid, args.conversations)
    environment = {**os.environ, TIER_VARIABLE: "lite", "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    rows = []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder, RunningApp.start(environment, Path(folder) / "app.log") as app:
        client = Client(app.url, verbose=False, download_files=folder)
        for conv_id, utterances in conversations:
            history, text = turn_of(utterances)
            started = time.perf_counter()
            _, reply, *_, details = client.predict(text=text, history_json=json.dumps(history),
                                                   avatar=args.avatar or None, expression=args.mode,
                                                   api_name="/respond")
            seconds = time.perf_counter() - started
            check = json.loads(details)["self_check"]
            shown = expression_for(check["chosen"], args.mode)
            row = {"conversation_id": conv_id, "chosen_fine": check["chosen"], "chosen": coarse(check["chosen"]),
                   "face_asked": shown.lite_face, "voice_asked": shown.lite_voice,
                   "expressed": check["expressed"], "voice_fine": check["voice"], "voice": coarse(check["voice"]),
                   "face_fine": check["face"], "face": coarse(check["face"]), "seconds": round(seconds, 2),
                   "reply_words": len(reply.split())}
            rows.append(row)
            print(f"{conv_id:>16} chosen {row['chosen']:>9} voice {row['voice']!s:>9} face {row['face']!s:>9} "
                  f"{seconds:5.1f} s", flush=True)
        client.close()
    face, face_classes = class_averaged(rows, "face")
    voice, voice_classes = class_averaged(rows, "voice")
    summary = {"conversations": len(rows), "mode": args.mode, "avatar": args.avatar or "default",
               "chosen": dict(Counter(row["chosen"] for row in rows)),
               "face_class_averaged": round(face, 3), "voice_class_averaged": round(voice, 3),
               "face_per_class": face_classes, "voice_per_class": voice_classes,
               "face_plain": round(sum(r["face"] == r["chosen"] for r in rows) / len(rows), 3),
               "voice_plain": round(sum(r["voice"] == r["chosen"] for r in rows) / len(rows), 3),
               "face_vs_asked_class_averaged": round(class_averaged(rows, "face", "face_asked")[0], 3),
               "voice_vs_asked_class_averaged": round(class_averaged(rows, "voice", "voice_asked")[0], 3),
               "face_confusion": confusion(rows, "face"), "voice_confusion": confusion(rows, "voice"),
               "median_turn_s": statistics.median(r["seconds"] for r in rows),
               "load_average_at_start": round(load_before, 2), "load_average_at_end": round(os.getloadavg()[0], 2)}
    print_confusion("face voter", summary["face_confusion"])
    print_confusion("voice voter", summary["voice_confusion"])
    print(f"\nclass-averaged: face reads the chosen class {face:.0%} (target >= 60 %), voice {voice:.0%} "
          f"(target >= 40 %); per class face {face_classes}, voice {voice_classes}")
    print(f"against what each engine was asked to show ({args.mode} mode): face "
          f"{summary['face_vs_asked_class_averaged']:.0%}, voice {summary['voice_vs_asked_class_averaged']:.0%}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "turns": rows}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
