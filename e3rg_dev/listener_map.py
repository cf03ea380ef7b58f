"""Fit the lite writer's listener map: a ridge map from a turn's MiniLM embedding to the embedding of the reply ED's
own listener wrote to it (e3rg_core/understanding/reply_ranker.py; the card: LISTENER_MAP.md beside it).

    python -m e3rg_dev.listener_map --data DIR [--out FILE] [--report REPORT.json]

DIR/valid.csv is ED valid in ED's own layout or conv_id,utterance_idx,prompt,utterance,label. Only the conversations
before its frozen dev slice are read (e3rg_dev.dev_slice); ED train's dialogues are not whole in any reachable copy
and its test split is never read. The ridge strength and the weight of the context are chosen on a fifth of those
conversations held out, then the map is refitted on all of them. Embeddings are cached under DIR/cache.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import sys
from pathlib import Path

import numpy as np

from e3rg_core.understanding.reply_ranker import FORMAT, MAP_FILE, turn_texts, unit
from e3rg_dev.dev_slice import DEV_CONVERSATIONS
from e3rg_dev.train_emotion import EmbeddingCache, histories, read_conversations

RIDGES = (1.0, 3.0, 10.0, 30.0, 100.0)
CONTEXT_WEIGHTS = (0.0, 0.25, 0.5, 1.0)
HELD_OUT_EVERY = 5          # every fifth tuning conversation chooses the ridge and the context weight


def answered_turns(path: Path) -> tuple[list[tuple[str, str, str]], list[int]]:
    """(latest speaker utterance, the last utterances read together (`turn_texts`), the listener's reply) for every
    answered speaker turn of the tuning conversations, and each one's conversation number."""
    conversations = read_conversations(path)[:-DEV_CONVERSATIONS]
    rows, owners = [], []
    for number, conversation in enumerate(conversations):
        for history in histories(conversation):
            end = history[-1].index + 1
            if end < len(conversation.utterances) and conversation.utterances[end]:
                rows.append((*turn_texts(history), conversation.utterances[end]))
                owners.append(number)
    return rows, owners


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    return np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ y).astype(np.float32)


def build(data: Path, out: Path) -> dict:
    from safetensors.numpy import save_file

    from e3rg_core.understanding.situation_voter import ENCODER_PACKAGE
    rows, owners = answered_turns(data / "valid.csv")
    cache = EmbeddingCache(data / "cache")
    latest = cache([r[0] for r in rows], "map-latest")
    context = cache([r[1] for r in rows], "map-context")
    replies = cache([r[2] for r in rows], "map-replies")
    held_out = np.array([owner % HELD_OUT_EVERY == 0 for owner in owners])
    baseline = float((replies[held_out] @ unit(replies[~held_out].mean(0))).mean())
    searched = []
    for weight in CONTEXT_WEIGHTS:
        x = unit(latest + weight * context)
        for ridge in RIDGES:
            predicted = unit(x[held_out] @ fit(x[~held_out], replies[~held_out], ridge))
            searched.append((float((predicted * replies[held_out]).sum(1).mean()), weight, ridge))
            print(f"context {weight:<5} ridge {ridge:<6} held-out cosine {searched[-1][0]:.4f}", file=sys.stderr)
    cosine, weight, ridge = max(searched)
    source = data / "valid.csv"
    metadata = {"format": FORMAT, "encoder": f"{ENCODER_PACKAGE} {importlib.metadata.version(ENCODER_PACKAGE)}",
                "context_weight": repr(weight), "ridge": repr(ridge), "turns": str(len(rows)),
                "source": f"EmpatheticDialogues valid minus its last {DEV_CONVERSATIONS} conversations",
                "source_sha256": hashlib.sha256(source.read_bytes()).hexdigest(), "licence": "CC BY-NC 4.0"}
    save_file({"weight": fit(unit(latest + weight * context), replies, ridge)}, str(out), metadata=metadata)
    return {"turns": len(rows), "held_out_turns": int(held_out.sum()), "context_weight": weight, "ridge": ridge,
            "held_out_cosine": round(cosine, 4), "mean_reply_cosine": round(baseline, 4),
            "weights_sha256": hashlib.sha256(out.read_bytes()).hexdigest()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m e3rg_dev.listener_map", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="folder with ED's valid.csv")
    parser.add_argument("--out", type=Path, default=MAP_FILE, help="the map's file (default: the package's)")
    parser.add_argument("--report", type=Path, default=None, help="write the summary as JSON here")
    args = parser.parse_args(argv)
    try:
        summary = build(args.data, args.out)
    except FileNotFoundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.report:
        args.report.write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
