"""Train the lite tier's two text emotion heads on EmpatheticDialogues (ED), and convert ED files to the AvaMERG
layout.

    python -m e3rg_dev.train_emotion --data DIR [--out FOLDER] [--report REPORT.json]
    python -m e3rg_dev.train_emotion --data DIR --evaluate [--out FOLDER]
    python -m e3rg_dev.train_emotion --convert DIR/valid.csv --out DIR/valid.json

DIR holds ED's train and valid splits, never its test split: train.csv (ED's own utterance layout) or, where only
situations could be had, train_situations.csv (text,aug_text,label); and valid.csv in ED's own layout or the
utterance layout conv_id,utterance_idx,prompt,utterance,label. Commas may be written `_comma_` (ED's escape).
The training examples are every speaker-ending prefix of each train conversation (or each situation), labelled
with the conversation's emotion. Everything chosen here -- each head's kind and regularisation, how the turn is
read, the softmax temperatures and the vote's weights -- is chosen on valid. Sentence embeddings are cached under
DIR/cache, so a retrain re-embeds nothing. See e3rg_core/understanding/MODEL_CARD.md.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import itertools
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from e3rg_core.contracts import Dialogue, Profile, Turn, Utterance
from e3rg_core.dialogue import save_dialogues
from e3rg_core.emotions import ED_LABELS
from e3rg_core.errors import DialogueFormatError
from e3rg_core.metrics import coarse_confusion, fine_accuracy, hit_rate, macro_f1

# The integer order of the ED label column in the fetched utterance/situation files (the ChaShaoAn and HypEmo
# copies named in MODEL_CARD.md share it; checked against a copy that names each conversation's emotion).
ED_LABEL_ORDER: tuple[str, ...] = (
    "sad", "trusting", "terrified", "caring", "disappointed", "faithful", "joyful", "jealous", "disgusted",
    "surprised", "ashamed", "afraid", "impressed", "sentimental", "devastated", "excited", "anticipating", "annoyed",
    "anxious", "furious", "content", "lonely", "angry", "confident", "apprehensive", "guilty", "embarrassed",
    "grateful", "hopeful", "proud", "prepared", "nostalgic",
)
assert sorted(ED_LABEL_ORDER) == sorted(ED_LABELS)


@dataclass(frozen=True)
class Conversation:
    conv_id: str
    emotion: str
    situation: str
    utterances: tuple[str, ...]     # in order; the speaker (the situation's author) says the odd-numbered ones


def _unescape(text: str) -> str:
    return text.replace("_comma_", ",").strip()


def _label(raw: str, where: str) -> str:
    raw = raw.strip()
    if raw.isdigit() and int(raw) < len(ED_LABEL_ORDER):
        return ED_LABEL_ORDER[int(raw)]
    if raw in ED_LABELS:
        return raw
    raise DialogueFormatError(f"{where}: unknown emotion label {raw!r}.")


def read_conversations(path: Path) -> list[Conversation]:
    """ED conversations from an utterance-per-line CSV. ED escapes commas as `_comma_` and quotes nothing, so a
    line is split on commas and read by position: fields after the utterance are ignored, a line with too few
    fields or a non-numeric utterance index is skipped, and so is a conversation with a gap in its numbering."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise DialogueFormatError(f"{path.name} is empty.")
    header = lines[0].strip().split(",")
    if header[:6] == ["conv_id", "utterance_idx", "context", "prompt", "speaker_idx", "utterance"]:
        columns = {"label": 2, "prompt": 3, "utterance": 5}
    elif header[:5] == ["conv_id", "utterance_idx", "prompt", "utterance", "label"]:
        columns = {"prompt": 2, "utterance": 3, "label": 4}
    else:
        raise DialogueFormatError(f"{path.name}: unknown header {lines[0][:80]!r}.")
    width = max(columns.values()) + 1
    by_conv: dict[str, dict] = {}
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split(",")
        if len(fields) < width or not fields[1].strip().isdigit():
            continue
        conv = by_conv.setdefault(fields[0], {"label": _label(fields[columns["label"]], f"{path.name}:{number}"),
                                              "prompt": _unescape(fields[columns["prompt"]]), "turns": {}})
        conv["turns"][int(fields[1])] = _unescape(fields[columns["utterance"]])
    conversations = []
    for conv_id, conv in by_conv.items():
        ordered = [conv["turns"][i] for i in sorted(conv["turns"])]
        if sorted(conv["turns"]) == list(range(1, len(ordered) + 1)) and ordered[0]:
            conversations.append(Conversation(conv_id, conv["label"], conv["prompt"], tuple(ordered)))
    return conversations


def read_situations(path: Path) -> list[tuple[str, str, str]]:
    """(situation, paraphrase, emotion) rows of a text,aug_text,label CSV."""
    import csv
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if not rows or rows[0][:3] != ["text", "aug_text", "label"]:
        raise DialogueFormatError(f"{path.name}: expected the header text,aug_text,label.")
    return [(row[0].strip(), row[1].strip(), _label(row[2], f"{path.name}:{n}"))
            for n, row in enumerate(rows[1:], start=2) if len(row) >= 3 and row[0].strip()]


def histories(conversation: Conversation) -> list[tuple[Utterance, ...]]:
    """Every prefix of the conversation that ends with a speaker utterance."""
    utterances = tuple(Utterance(i, "speaker" if i % 2 == 0 else "listener", text)
                       for i, text in enumerate(conversation.utterances))
    return [utterances[:end + 1] for end in range(0, len(utterances), 2)]


def to_dialogue(conversation: Conversation) -> Dialogue:
    """AvaMERG layout: one turn per speaker utterance, answered by the next listener utterance (none after the
    last one when the speaker had the last word). The situation stays out of `context`: no voter may read it."""
    turns = []
    for number, history in enumerate(histories(conversation)):
        end = history[-1].index + 1
        response = conversation.utterances[end] if end < len(conversation.utterances) else None
        turns.append(Turn(str(number), history, "", response, {"speaker_emotion": conversation.emotion}))
    return Dialogue(conversation.conv_id, tuple(turns), Profile(), Profile(), "")


# -- embeddings, cached ------------------------------------------------------------------------------------------

class EmbeddingCache:
    """Unit embeddings of texts, kept in DIR/cache keyed by the encoder's version and the exact texts."""

    def __init__(self, folder: Path):
        from e3rg_core.understanding.situation_voter import ENCODER_PACKAGE
        from e3rg_core.understanding.text_emotion import shared_encoder
        self.folder, self.encoder = folder, shared_encoder()
        self.version = f"{ENCODER_PACKAGE} {importlib.metadata.version(ENCODER_PACKAGE)}"

    def __call__(self, texts: list[str], name: str) -> np.ndarray:
        unique = sorted(set(texts))
        key = hashlib.sha256("\n".join([self.version, *unique]).encode()).hexdigest()[:16]
        path = self.folder / f"{name}-{key}.npy"
        if path.is_file():
            table = np.load(path, allow_pickle=False)
        else:
            from tqdm import tqdm
            # batches of similar length waste little on padding
            order = sorted(range(len(unique)), key=lambda i: len(unique[i]))
            table = np.empty((len(unique), self.encoder.model.config.hidden_size), dtype=np.float32)
            for start in tqdm(range(0, len(order), 64), desc=f"embedding {name}"):
                batch = order[start:start + 64]
                table[batch] = self.encoder([unique[i] for i in batch])
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.folder, suffix=".npy", delete=False) as handle:
                np.save(handle, table)
            os.replace(handle.name, path)
        row = {text: i for i, text in enumerate(unique)}
        return table[[row[text] for text in texts]]


@dataclass
class TurnSet:
    """Turns embedded piecewise, so any TurnReading can be applied without re-embedding."""
    speaker: list[np.ndarray]       # per turn: the speaker's utterance embeddings, oldest first
    joined: np.ndarray              # per turn: the embedding of the speaker's words read together
    listener: list[np.ndarray]      # per turn: the listener's utterance embeddings (maybe none)
    labels: np.ndarray              # index into ED_LABELS
    last: np.ndarray                # True for each conversation's last turn (what the evaluation scores)

    def vectors(self, reading) -> np.ndarray:
        return np.stack([reading.combine(s, j, l) for s, j, l in zip(self.speaker, self.joined, self.listener)])


def embed_turns(conversations: list[Conversation], cache: EmbeddingCache, name: str) -> TurnSet:
    from e3rg_core.understanding.text_emotion import TurnReading
    reader = TurnReading(1.0, 0.0, 0.0)
    turns = [(h, c.emotion, i == len(histories(c)) - 1) for c in conversations for i, h in enumerate(histories(c))]
    split = [reader.texts(h) for h, _, _ in turns]
    utterances = cache([t for s, l in split for t in s + l], f"{name}-utterances")
    joined = cache([" ".join(s) for s, _ in split], f"{name}-joined")
    speaker, listener, at = [], [], 0
    for s, l in split:
        speaker.append(utterances[at:at + len(s)])
        listener.append(utterances[at + len(s):at + len(s) + len(l)])
        at += len(s) + len(l)
    return TurnSet(speaker, joined, listener, np.array([ED_LABELS.index(e) for _, e, _ in turns]),
                   np.array([last for _, _, last in turns]))


# -- the head ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HeadChoice:
    hidden: int             # 0: logistic regression
    weight_decay: float
    epochs: int


def train_head(x: np.ndarray, y: np.ndarray, choice: HeadChoice, seed: int = 0) -> dict[str, np.ndarray]:
    """Softmax regression or a one-hidden-layer MLP, full-batch-free Adam over shuffled minibatches."""
    import torch
    torch.manual_seed(seed)
    layers: list[torch.nn.Module] = []
    width = x.shape[1]
    if choice.hidden:
        layers += [torch.nn.Linear(width, choice.hidden), torch.nn.ReLU(), torch.nn.Dropout(0.3)]
        width = choice.hidden
    layers.append(torch.nn.Linear(width, len(ED_LABELS)))
    model = torch.nn.Sequential(*layers)
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=choice.weight_decay)
    features, targets = torch.from_numpy(x), torch.from_numpy(y).long()
    generator = torch.Generator().manual_seed(seed)
    # Inputs are unit vectors; a fixed gain lets logistic regression reach confident logits without huge weights.
    gain = 10.0
    for _ in range(choice.epochs):
        model.train()
        for batch in torch.randperm(len(features), generator=generator).split(256):
            loss = torch.nn.functional.cross_entropy(model(gain * features[batch]), targets[batch],
                                                     label_smoothing=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    linear = [m for m in model if isinstance(m, torch.nn.Linear)]
    out = {"out.weight": linear[-1].weight * (1 if choice.hidden else gain), "out.bias": linear[-1].bias}
    if choice.hidden:
        out |= {"hidden.weight": linear[0].weight * gain, "hidden.bias": linear[0].bias}
    return {k: v.detach().numpy().astype(np.float32).copy() for k, v in out.items()}


def head_probabilities(layers: dict[str, np.ndarray], x: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    if "hidden.weight" in layers:
        x = np.maximum(x @ layers["hidden.weight"].T + layers["hidden.bias"], 0)
    logits = (x @ layers["out.weight"].T + layers["out.bias"]) / temperature
    logits -= logits.max(1, keepdims=True)
    odds = np.exp(logits)
    return odds / odds.sum(1, keepdims=True)


def fit_temperature(layers: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> float:
    """The softmax temperature with the lowest negative log-likelihood on valid."""
    grid = np.exp(np.linspace(np.log(0.3), np.log(3.0), 40))
    nll = [-np.log(head_probabilities(layers, x, t)[np.arange(len(y)), y] + 1e-12).mean() for t in grid]
    return float(grid[int(np.argmin(nll))])


def figures(predicted: list[str], gold: list[str]) -> dict:
    return {"n": len(gold), "fine_accuracy": round(fine_accuracy(predicted, gold), 4),
            "hit": round(hit_rate(predicted, gold), 4), "macro_f1": round(macro_f1(predicted, gold, ED_LABELS), 4),
            "confusion": coarse_confusion(predicted, gold)}


def save_head(path: Path, layers: dict[str, np.ndarray], reading, temperature: float) -> None:
    from safetensors.numpy import save_file

    from e3rg_core.understanding.situation_voter import ENCODER_PACKAGE
    from e3rg_core.understanding.text_emotion import FORMAT
    metadata = {"format": FORMAT, "labels": ",".join(ED_LABELS), "encoder": ENCODER_PACKAGE,
                "decay": repr(reading.decay), "join_weight": repr(reading.join_weight),
                "listener_weight": repr(reading.listener_weight), "temperature": repr(round(temperature, 4))}
    save_file(layers, str(path), metadata=metadata)


# -- the word head ---------------------------------------------------------------------------------------------

def build_vocabulary(texts: list[str], min_df: int, max_terms: int) -> tuple[tuple[str, ...], np.ndarray]:
    """The max_terms terms found in the most texts (at least min_df), and their smoothed IDF."""
    from collections import Counter

    from e3rg_core.understanding.word_emotion import terms
    document_frequency = Counter(term for text in texts for term in set(terms(text)))
    kept = sorted((t for t, n in document_frequency.items() if n >= min_df),
                  key=lambda t: (-document_frequency[t], t))[:max_terms]
    df = np.array([document_frequency[t] for t in kept], dtype=np.float64)
    return tuple(kept), np.log((1 + len(texts)) / (1 + df)) + 1


def sparse_rows(vectoriser, texts: list[str]):
    """The texts' unit TF-IDF vectors as a CSR matrix."""
    from scipy.sparse import csr_matrix
    rows = [vectoriser.sparse(text) for text in texts]
    pointer = np.cumsum([0] + [len(c) for c, _ in rows])
    columns = np.concatenate([c for c, _ in rows]) if rows else np.zeros(0, np.int64)
    values = np.concatenate([v for _, v in rows]) if rows else np.zeros(0, np.float32)
    return csr_matrix((values, columns, pointer), shape=(len(texts), len(vectoriser.vocabulary)))


def word_turns(vectoriser, conversations: list[Conversation], reading):
    """CSR matrix of each speaker-ending prefix's turn vector (as WordVectoriser.turn reads it), and the labels and
    last-turn mask of those prefixes."""
    from scipy.sparse import csr_matrix, diags
    texts = [u for c in conversations for u in c.utterances]
    utterances = sparse_rows(vectoriser, texts)
    rows, columns, weights, labels, last, start, turn = [], [], [], [], [], 0, 0
    for conversation in conversations:
        prefixes = histories(conversation)
        for number, history in enumerate(prefixes):
            end = history[-1].index
            listeners = [i for i in range(1, end, 2)]
            for i in range(0, end + 1, 2):
                rows.append(turn), columns.append(start + i), weights.append(reading.decay ** ((end - i) // 2))
            for i in listeners:
                rows.append(turn), columns.append(start + i), weights.append(reading.listener_weight / len(listeners))
            labels.append(ED_LABELS.index(conversation.emotion)), last.append(number == len(prefixes) - 1)
            turn += 1
        start += len(conversation.utterances)
    mix = csr_matrix((weights, (rows, columns)), shape=(turn, len(texts)))
    combined = (mix @ utterances).tocsr()
    norms = np.sqrt(np.asarray(combined.multiply(combined).sum(1)).ravel())
    return diags(1 / np.maximum(norms, 1e-12)) @ combined, np.array(labels), np.array(last)


def train_word_head(x, y: np.ndarray, l2: float, steps: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression on sparse unit vectors with an L2 penalty on the weights, full-batch Adam."""
    import torch
    torch.manual_seed(0)
    coo = x.tocoo()
    features = torch.sparse_coo_tensor(np.vstack([coo.row, coo.col]), coo.data.astype(np.float32), coo.shape,
                                       check_invariants=True)
    targets = torch.from_numpy(y).long()
    weight = torch.zeros(len(ED_LABELS), x.shape[1], requires_grad=True)
    bias = torch.zeros(len(ED_LABELS), requires_grad=True)
    optimiser = torch.optim.Adam([weight, bias], lr=0.05)
    gain = 10.0     # unit-length inputs: the gain lets the logits grow without huge raw weights
    for _ in range(steps):
        logits = gain * torch.sparse.mm(features, weight.T) + bias
        loss = torch.nn.functional.cross_entropy(logits, targets) + l2 * (gain * weight).pow(2).sum()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return (gain * weight).detach().numpy().astype(np.float32), bias.detach().numpy().astype(np.float32)


def sparse_probabilities(weight: np.ndarray, bias: np.ndarray, x, temperature: float = 1.0) -> np.ndarray:
    logits = (np.asarray(x @ weight.T) + bias) / temperature
    logits -= logits.max(1, keepdims=True)
    odds = np.exp(logits)
    return odds / odds.sum(1, keepdims=True)


def train_words(data: Path, out: Path) -> dict:
    """The word head: vocabulary and regularisation, then reading and temperature, chosen on valid's last turns."""
    from safetensors.numpy import save_file

    from e3rg_core.understanding.word_emotion import FORMAT, WordReading, WordVectoriser
    valid = read_conversations(data / "valid.csv")
    if (data / "train.csv").is_file():
        train_conversations = read_conversations(data / "train.csv")
        texts = [" ".join(c.utterances[::2]) for c in train_conversations]
        y = np.array([ED_LABELS.index(c.emotion) for c in train_conversations])
    else:
        rows = read_situations(data / "train_situations.csv")
        texts, y = [r[0] for r in rows], np.array([ED_LABELS.index(r[2]) for r in rows])

    def merit(probabilities: np.ndarray, gold: np.ndarray) -> float:
        predicted, truth = [ED_LABELS[i] for i in probabilities.argmax(1)], [ED_LABELS[i] for i in gold]
        return fine_accuracy(predicted, truth) + hit_rate(predicted, truth)

    base_reading = WordReading(0.7, 0.15)
    searched = []
    for min_df, max_terms in itertools.product((2,), (12_000, 24_000)):
        vectoriser = WordVectoriser(*build_vocabulary(texts, min_df, max_terms))
        x_train = sparse_rows(vectoriser, texts)
        x_valid, y_valid, last = word_turns(vectoriser, valid, base_reading)
        for l2 in (3e-6, 1e-5, 3e-5):
            weight, bias = train_word_head(x_train, y, l2)
            searched.append((merit(sparse_probabilities(weight, bias, x_valid[last]), y_valid[last]),
                             (min_df, max_terms, l2), vectoriser, weight, bias))
            print(f"words {searched[-1][1]} {searched[-1][0] / 2:.4f}", file=sys.stderr)
    _, choice, vectoriser, weight, bias = max(searched, key=lambda s: s[0])
    readings = []
    for decay, listener in itertools.product((0.5, 0.7, 0.85), (0.0, 0.15, 0.3)):
        x_valid, y_valid, last = word_turns(vectoriser, valid, WordReading(decay, listener))
        readings.append((merit(sparse_probabilities(weight, bias, x_valid[last]), y_valid[last]),
                         WordReading(decay, listener)))
    _, reading = max(readings, key=lambda r: r[0])
    x_valid, y_valid, last = word_turns(vectoriser, valid, reading)
    grid = np.exp(np.linspace(np.log(0.3), np.log(3.0), 40))
    nll = [-np.log(sparse_probabilities(weight, bias, x_valid[last], t)[np.arange(last.sum()), y_valid[last]]
                   + 1e-12).mean() for t in grid]
    temperature = float(grid[int(np.argmin(nll))])
    metadata = {"format": FORMAT, "labels": ",".join(ED_LABELS), "vocabulary": json.dumps(list(vectoriser.vocabulary)),
                "decay": repr(reading.decay), "listener_weight": repr(reading.listener_weight),
                "temperature": repr(round(temperature, 4))}
    save_file({"out.weight": weight, "out.bias": bias, "idf": vectoriser.idf.astype(np.float32)}, str(out),
              metadata=metadata)
    predicted = [ED_LABELS[i] for i in sparse_probabilities(weight, bias, x_valid[last], temperature).argmax(1)]
    return {"vocabulary": {"min_df": choice[0], "max_terms": choice[1], "terms": len(vectoriser.vocabulary)},
            "l2": choice[2], "reading": vars(reading), "temperature": temperature,
            "weights_sha256": hashlib.sha256(out.read_bytes()).hexdigest(),
            "valid_last_turns": figures(predicted, [ED_LABELS[i] for i in y_valid[last]])}


def train(data: Path, folder: Path) -> dict:
    """Both heads, written into folder under their shipped names, then the vote fitted on valid."""
    from e3rg_core.understanding import text_emotion, word_emotion
    folder.mkdir(parents=True, exist_ok=True)
    summary = {"embedding_head": train_embedding_head(data, folder / text_emotion.HEAD_FILE.name),
               "word_head": train_words(data, folder / word_emotion.HEAD_FILE.name)}
    summary["vote"] = evaluate_voters(data, folder)
    return summary


def train_embedding_head(data: Path, out: Path) -> dict:
    from e3rg_core.understanding.text_emotion import TurnReading
    cache = EmbeddingCache(data / "cache")
    valid = embed_turns(read_conversations(data / "valid.csv"), cache, "valid")
    if (data / "train.csv").is_file():
        train_turns = embed_turns(read_conversations(data / "train.csv"), cache, "train")
        y_train = train_turns.labels
        # the reading of the training turns is fixed at the middle of the grid searched below
        sources = {"turns": train_turns.vectors(TurnReading(0.7, 0.5, 0.15))}
    else:
        rows = read_situations(data / "train_situations.csv")
        situations = cache([r[0] for r in rows], "train-situations")
        paraphrases = cache([r[1] or r[0] for r in rows], "train-paraphrases")
        y_train = np.array([ED_LABELS.index(r[2]) for r in rows])
        sources = {"situations": situations, "situations+paraphrases": np.concatenate([situations, paraphrases])}
    gold_last = [ED_LABELS[i] for i in valid.labels[valid.last]]

    def score(probabilities: np.ndarray) -> float:
        predicted = [ED_LABELS[i] for i in probabilities.argmax(1)]
        return fine_accuracy(predicted, gold_last) + hit_rate(predicted, gold_last)

    # The reading first, with a plain logistic regression; then the head, on the chosen reading.
    base = HeadChoice(0, 1e-4, 8)
    searched = []
    for source, x in sources.items():
        y = y_train if len(x) == len(y_train) else np.concatenate([y_train, y_train])
        layers = train_head(x, y, base)
        # In a live chat the feeling can turn, so the latest utterance must count most: decay stays below 1 and
        # the all-words embedding (which weighs every utterance alike) below the whole. ED's valid split alone
        # would take either to the end, its label holding for the whole conversation, for under a point.
        for decay, join, listener in itertools.product((0.3, 0.5, 0.7, 0.85), (0.0, 0.25, 0.5, 0.75),
                                                       (0.0, 0.15, 0.3)):
            reading = TurnReading(decay, join, listener)
            searched.append((score(head_probabilities(layers, valid.vectors(reading)[valid.last])), source, reading))
            print(f"{source:24s} {reading} {searched[-1][0] / 2:.4f}", file=sys.stderr)
    _, source, reading = max(searched, key=lambda s: s[0])
    x = sources[source]
    y = y_train if len(x) == len(y_train) else np.concatenate([y_train, y_train])
    x_valid_last = valid.vectors(reading)[valid.last]
    heads = []
    for choice in (HeadChoice(0, 1e-4, 8), HeadChoice(0, 1e-2, 8), HeadChoice(0, 1e-4, 20),
                   HeadChoice(256, 1e-2, 10), HeadChoice(512, 1e-2, 10), HeadChoice(512, 5e-2, 20)):
        layers = train_head(x, y, choice)
        heads.append((score(head_probabilities(layers, x_valid_last)), choice, layers))
        print(f"{choice} {heads[-1][0] / 2:.4f}", file=sys.stderr)
    _, choice, layers = max(heads, key=lambda h: h[0])
    temperature = fit_temperature(layers, x_valid_last, valid.labels[valid.last])
    save_head(out, layers, reading, temperature)
    predicted = [ED_LABELS[i] for i in head_probabilities(layers, x_valid_last, temperature).argmax(1)]
    summary = {"source": source, "reading": vars(reading), "head": vars(choice), "temperature": temperature,
               "weights_sha256": hashlib.sha256(out.read_bytes()).hexdigest(),
               "valid_last_turns": figures(predicted, gold_last)}
    all_predicted = [ED_LABELS[i] for i in head_probabilities(layers, valid.vectors(reading), temperature).argmax(1)]
    summary["valid_all_turns"] = figures(all_predicted, [ED_LABELS[i] for i in valid.labels])
    return summary


def evaluate_voters(data: Path, folder: Path) -> dict:
    """The lite tier's three text voters on valid's last turns, each alone and in the weighted vote. The embedding
    head's weight is 1; the word head's and the situation voter's are the ones under which the vote scores best
    (fine accuracy + HIT) on valid; set them as the voters' `weight`."""
    from dataclasses import replace

    import torch
    from tqdm import tqdm

    from .contracts import UnderstandingRequest
    from e3rg_core.understanding import text_emotion, word_emotion
    from e3rg_core.understanding.situation_voter import SituationEmotionVoter
    from e3rg_core.understanding.voting import decide
    torch.set_num_threads(1)    # one request's worth of work at a time, as the lite tier runs it
    voters = (text_emotion.TextEmotionVoter(text_emotion.TextEmotionHead.from_pretrained(
                  folder / text_emotion.HEAD_FILE.name)),
              word_emotion.WordEmotionVoter(word_emotion.WordEmotionHead.from_pretrained(
                  folder / word_emotion.HEAD_FILE.name)),
              SituationEmotionVoter.from_pretrained())
    turns = [(histories(c)[-1], c.emotion) for c in read_conversations(data / "valid.csv")]
    gold = [emotion for _, emotion in turns]
    cast = [tuple(v.vote(UnderstandingRequest(history=h)) for v in voters)
            for h, _ in tqdm(turns, desc="voting on valid")]
    priorities = {v.name: v.priority for v in voters}

    def voted(weights: tuple[float, ...]) -> list[str]:
        return [decide([replace(v, weight=w) for v, w in zip(votes, weights) if v is not None], priorities).fine
                for votes in cast]

    def merit(predicted: list[str]) -> float:
        return fine_accuracy(predicted, gold) + hit_rate(predicted, gold)

    grid = [(1.0, round(w, 2), s) for w in np.linspace(0.0, 2.0, 21) for s in (0.0, 0.1, 0.2, 0.3, 0.5)]
    scored = {weights: merit(voted(weights)) for weights in tqdm(grid, desc="fitting the vote weights")}
    best = max(grid, key=lambda weights: (scored[weights], -sum(weights)))
    alone = {v.name: figures([votes[i].label if votes[i] else "neutral" for votes in cast], gold)
             for i, v in enumerate(voters)}
    return {"weights": dict(zip((v.name for v in voters), best)), "alone": alone,
            "weighted_vote": figures(voted(best), gold),
            "equal_weights": figures(voted((1.0, 1.0, 1.0)), gold),
            "merit_by_word_weight": {w: round(scored[(1.0, w, best[2])] / 2, 4) for _, w, s in grid[::5]}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m e3rg_dev.train_emotion", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, help="folder with ED's train and valid files")
    parser.add_argument("--convert", type=Path, help="an ED CSV to write as AvaMERG-layout JSON (needs --out)")
    parser.add_argument("--out", type=Path, default=None,
                        help="with --convert: the JSON file; else the folder for the two heads (default: the package)")
    parser.add_argument("--report", type=Path, default=None, help="write the valid figures as JSON here")
    parser.add_argument("--evaluate", action="store_true",
                        help="train nothing: score the heads in --out (default: the shipped ones) and the vote")
    args = parser.parse_args(argv)
    try:
        if args.convert:
            if args.out is None:
                parser.error("--convert needs --out")
            conversations = read_conversations(args.convert)
            save_dialogues([to_dialogue(c) for c in conversations], args.out)
            print(f"{len(conversations)} conversations -> {args.out}")
            return 0
        if args.data is None:
            parser.error("give --data DIR or --convert FILE")
        from e3rg_core.understanding.text_emotion import HEAD_FILE
        folder = args.out or HEAD_FILE.parent
        summary = {"vote": evaluate_voters(args.data, folder)} if args.evaluate else train(args.data, folder)
    except (DialogueFormatError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.report:
        args.report.write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print(json.dumps(_headline(summary), indent=1))
    return 0


def _headline(summary: dict) -> dict:
    """The summary without confusion matrices."""
    if isinstance(summary, dict):
        return {k: _headline(v) for k, v in summary.items() if k != "confusion"}
    return summary


if __name__ == "__main__":
    sys.exit(main())
