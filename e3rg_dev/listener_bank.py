"""Builds the lite writer's listener bank (e3rg_core/understanding/listener_bank.py) from ED valid.

    .venv/bin/python -m e3rg_dev.listener_bank /work/data/ed/valid.csv

Every listener reply of ED valid's conversations outside the frozen dev slice (the last DEV_CONVERSATIONS in file
order, which the writer is measured on) that could be said to another speaker at all (listener_bank.speakable),
keyed by listener_bank.turn_key over the conversation it answered, labelled with the stance its situation called
for (reflective_writer.situation_stance at the conversation's gold label). The words listeners use whatever the
story (in replies of GENERIC_CONVERSATIONS or more conversations, and at least as often in replies as in the
turns they answer) are stored too: a reply may use them anywhere.
"""
from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import numpy as np

from e3rg_core.contracts import Utterance
from e3rg_core.understanding.listener_bank import BANK_FILE, FORMAT, key_texts, speakable, stems, turn_key
from e3rg_core.understanding.prompts import LISTENER_STANCE
from e3rg_core.understanding.reflection import tidy
from e3rg_core.understanding.reflective_writer import situation_stance
from e3rg_core.understanding.situation_voter import shared_encoder
from e3rg_dev.train_emotion import read_conversations

DEV_CONVERSATIONS = 300         # docs/lite_replies.md: frozen before issue 20's tuning
GENERIC_CONVERSATIONS = 12
BATCH = 64


def generic_words(answered: list[tuple[str, str, str]]) -> list[str]:
    """Stems of the words listeners use whatever the story, from (conversation, turn, reply) triples."""
    in_replies: dict[str, set[str]] = {}
    in_turns: dict[str, set[str]] = {}
    for conv_id, turn, reply in answered:
        for word in stems(reply):
            in_replies.setdefault(word, set()).add(conv_id)
        for word in stems(turn):
            in_turns.setdefault(word, set()).add(conv_id)
    return sorted(word for word, convs in in_replies.items()
                  if len(convs) >= GENERIC_CONVERSATIONS and len(convs) >= len(in_turns.get(word, ())))


def build(valid_csv: Path, out: Path) -> None:
    conversations = read_conversations(valid_csv)[:-DEV_CONVERSATIONS]
    encoder = shared_encoder()
    answered, texts, replies, stances, opening = [], [], [], [], []
    for conversation in conversations:
        for index in range(1, len(conversation.utterances), 2):
            turn, reply = conversation.utterances[index - 1], conversation.utterances[index]
            answered.append((conversation.conv_id, turn, reply))
            if not speakable(reply):
                continue
            history = tuple(Utterance(k, "speaker" if k % 2 == 0 else "listener", text)
                            for k, text in enumerate(conversation.utterances[:index]))
            texts.extend(key_texts(history))
            replies.append(reply)
            stances.append(situation_stance(tidy(turn), LISTENER_STANCE[conversation.emotion]))
            opening.append(index == 1)
    vectors = np.concatenate([encoder(texts[start:start + BATCH]) for start in range(0, len(texts), BATCH)])
    keys = [turn_key(latest, joined) for latest, joined in zip(vectors[0::2], vectors[1::2])]
    source = hashlib.sha256(valid_csv.read_bytes()).hexdigest()
    np.savez_compressed(out, format=np.array(FORMAT), keys=np.stack(keys).astype(np.float16),
                        replies=np.array(replies), stances=np.array(stances), opening_turn=np.array(opening),
                        generic=np.array(generic_words(answered)), source_sha256=np.array(source))
    print(f"{len(replies)} replies of {len(answered)} from {len(conversations)} conversations -> {out}")
    print(f"sha256 {hashlib.sha256(out.read_bytes()).hexdigest()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("valid_csv", type=Path, help="ED valid in the utterance layout (LISTENER_BANK.md)")
    parser.add_argument("--out", type=Path, default=BANK_FILE)
    args = parser.parse_args()
    build(args.valid_csv, args.out)


if __name__ == "__main__":
    main()
