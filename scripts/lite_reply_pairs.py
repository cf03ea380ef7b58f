"""Lite replies to ED valid turns as users get them, for the blind rating of ../shared/eval and the automatic counts.

    .venv/bin/python scripts/lite_reply_pairs.py /work/data/ed/valid.csv --turns 160 --seed 20 --out DIR

Starts `python app.py` on the lite tier (offline, localhost) and sends each chosen turn through gradio_client's
/respond with its conversation so far. The turns come from the dev slice frozen for issue 20 (the last 300
conversations of valid, docs/lite_replies.md): conversations in a seeded random order, one speaker turn each that
ED's listener answered, drawn with the same seed. Writes DIR/pairs.jsonl (blind_pairs.py's input: the dialogue, the
lite reply and ED's own listener reply) and DIR/counts.json (repeats, corpus Distinct-2 of all replies and of the
first RATED_TURNS, beside ED's listeners' over the same turns, words, speech seconds of
the wavs /respond returned, seconds per turn, replies from the writer's reflective fallback). `--slice rest` draws
from the other 2,470 conversations instead, for tuning.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from e3rg_dev.dev_slice import DEV_CONVERSATIONS


def conversations(path: Path) -> dict[str, list[str]]:
    """ED valid's conversations in file (conv_id) order: their utterances, "_comma_" restored."""
    found: dict[str, list[str]] = {}
    with open(path, newline="", encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            found.setdefault(row["conv_id"], []).append(row["utterance"].replace("_comma_", ",").strip())
    return found


def draw_turns(found: dict[str, list[str]], part: str, count: int, seed: int) -> list[dict]:
    """`count` turns, one per conversation, each a speaker turn with ED's listener reply after it."""
    ids = list(found)
    ids = ids[-DEV_CONVERSATIONS:] if part == "dev" else ids[:-DEV_CONVERSATIONS]
    rng = random.Random(seed)
    turns = []
    for conv_id in rng.sample(ids, len(ids)):
        utterances = found[conv_id]
        answered = list(range(0, len(utterances) - 1, 2))
        if not answered:
            continue
        index = rng.choice(answered)
        dialogue = [{"role": "speaker" if k % 2 == 0 else "listener", "text": utterances[k]} for k in range(index + 1)]
        turns.append({"id": f"{conv_id}#{index}", "dialogue": dialogue, "human": utterances[index + 1]})
        if len(turns) == count:
            break
    return turns


def fallbacks(turns: list[dict], replies: list[str]) -> tuple[int, int]:
    """How many replies came from the writer's fallback (the reflective writer) rather than the topic writer, found
    by writing each turn again in this process with the lite tier's vote and writer (the same code, so the same
    reply); and how many of the rewritten replies differ from what /respond gave (they should not)."""
    from e3rg_core.contracts import UnderstandingRequest, Utterance
    from e3rg_core.runner import cast_votes, tally
    from e3rg_core.tiers.lite import lite_engines
    engines, fallback, differ = lite_engines(), 0, 0
    for turn, reply in zip(turns, replies):
        request = UnderstandingRequest(history=tuple(Utterance(i, u["role"], u["text"])
                                                     for i, u in enumerate(turn["dialogue"])))
        text, from_writer = engines.writer.reply(request, tally(cast_votes(engines.voters, request, [])))
        fallback += not from_writer
        differ += text != reply
    return fallback, differ


# The first turns of a draw, the ones blind raters read. Corpus Distinct-2 falls as replies are added (ED's own
# listeners: about 0.92 over 48 of the dev slice's replies, 0.82 to 0.85 over 160), so both sizes are reported, each
# beside ED's listeners' figure over the same turns.
RATED_TURNS = 48


def repeated_share(replies: list[str]) -> float:
    repeated = Counter(replies)
    return sum(n for n in repeated.values() if n > 1) / len(replies)


def counts(replies: list[str], humans: list[str], speech: list[float], seconds: list[float]) -> dict:
    from e3rg_core.metrics import corpus_distinct_n
    rated = slice(0, RATED_TURNS)
    return {"replies": len(replies),
            "repeated_share": repeated_share(replies),
            f"repeated_share_first_{RATED_TURNS}": round(repeated_share(replies[rated]), 3),
            "most_repeated": Counter(replies).most_common(3),
            "corpus_distinct_2": round(corpus_distinct_n(replies, 2), 3),
            "human_corpus_distinct_2": round(corpus_distinct_n(humans, 2), 3),
            f"corpus_distinct_2_first_{RATED_TURNS}": round(corpus_distinct_n(replies[rated], 2), 3),
            f"human_corpus_distinct_2_first_{RATED_TURNS}": round(corpus_distinct_n(humans[rated], 2), 3),
            "mean_words": round(statistics.mean(len(r.split()) for r in replies), 1),
            "max_words": max(len(r.split()) for r in replies),
            "mean_speech_s": round(statistics.mean(speech), 2), "max_speech_s": round(max(speech), 2),
            "speech_8s_or_more": sum(s >= 8 for s in speech),
            "respond_median_s": round(statistics.median(seconds), 2), "respond_max_s": round(max(seconds), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("valid", type=Path)
    parser.add_argument("--turns", type=int, default=160)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--slice", choices=("dev", "rest"), default="dev")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    import soundfile
    from gradio_client import Client

    from e3rg_dev.hub_rehearsal.app_run import RunningApp
    from e3rg_core.settings import TIER_VARIABLE
    turns = draw_turns(conversations(args.valid), args.slice, args.turns, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, TIER_VARIABLE: "lite", "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"}
    replies, speech, seconds = [], [], []
    with tempfile.TemporaryDirectory() as folder, RunningApp.start(environment, Path(folder) / "app.log") as app:
        client = Client(app.url, verbose=False, download_files=folder)
        with open(args.out / "pairs.jsonl", "w", encoding="utf-8") as pairs:
            for turn in turns:
                *history, latest = turn["dialogue"]
                history_json = json.dumps([{"role": u["role"], "utterance": u["text"]} for u in history])
                started = time.perf_counter()
                _, reply, wav, *_ = client.predict(text=latest["text"], history_json=history_json,
                                                   api_name="/respond")
                seconds.append(time.perf_counter() - started)
                replies.append(reply)
                speech.append(soundfile.info(wav).duration)
                pairs.write(json.dumps({"id": turn["id"], "dialogue": turn["dialogue"], "system": reply,
                                        "human": turn["human"]}) + "\n")
        client.close()
    fallback, differ = fallbacks(turns, replies)
    summary = {"slice": args.slice, "seed": args.seed,
               **counts(replies, [turn["human"] for turn in turns], speech, seconds[1:] or seconds),
               "fallback_replies": fallback, "rewritten_replies_that_differ": differ}
    (args.out / "counts.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
