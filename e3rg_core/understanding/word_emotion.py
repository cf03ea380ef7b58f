"""A second trained text reader: which words the speaker used, not what the sentence is about.

A logistic regression over TF-IDF words and word pairs, trained as the embedding head is (e3rg_dev/train_emotion.py);
its errors differ from that head's, which makes a vote between the two worth having. It reads the turn as
text_emotion.py does (`decay`, `listener_weight`), and gives the four MEAD-only labels 0 for the same reasons.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

import numpy as np

from ..contracts import EmotionVoter, UnderstandingRequest, Utterance, Vote
from ..emotions import ED_LABELS, FINE_LABELS
from ..errors import CheckpointMismatchError, EngineUnavailableError
from .voting import HEADS_REBUILD, probability_vote

HEAD_FILE = Path(__file__).with_name("word_emotion_head.safetensors")
FORMAT = "e3rg-word-emotion-head/1"
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_METADATA_KEYS = {"format", "labels", "vocabulary", "decay", "listener_weight", "temperature"}


def terms(text: str) -> list[str]:
    """Lower-cased words and adjacent word pairs."""
    words = _TOKEN.findall(text.lower().replace("\u2019", "'"))
    return words + [f"{a} {b}" for a, b in pairwise(words)]


@dataclass(frozen=True)
class WordReading:
    decay: float
    listener_weight: float


class WordVectoriser:
    """Unit TF-IDF vectors (sublinear term frequency) over a fixed vocabulary."""

    def __init__(self, vocabulary: tuple[str, ...], idf: np.ndarray):
        self.vocabulary, self.idf = vocabulary, idf
        self._index = {term: i for i, term in enumerate(vocabulary)}

    def sparse(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(columns, values) of the text's unit vector; empty when no known term occurs."""
        counts: dict[int, int] = {}
        for term in terms(text):
            column = self._index.get(term)
            if column is not None:
                counts[column] = counts.get(column, 0) + 1
        if not counts:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        columns = np.fromiter(counts, np.int64, len(counts))
        values = (1 + np.log(np.fromiter(counts.values(), np.float64, len(counts)))) * self.idf[columns]
        return columns, (values / np.linalg.norm(values)).astype(np.float32)

    def turn(self, history: tuple[Utterance, ...], reading: WordReading) -> np.ndarray | None:
        """The dense unit vector of a turn, or None when the speaker said no known word."""
        speaker = [u.utterance for u in history if u.role == "speaker" and u.utterance.strip()]
        listener = [u.utterance for u in history if u.role == "listener" and u.utterance.strip()]
        vector = np.zeros(len(self.vocabulary), np.float64)
        for steps_back, text in enumerate(reversed(speaker)):
            columns, values = self.sparse(text)
            vector[columns] += reading.decay ** steps_back * values
        if not vector.any():
            return None
        for text in listener:
            columns, values = self.sparse(text)
            vector[columns] += reading.listener_weight / len(listener) * values
        return (vector / np.linalg.norm(vector)).astype(np.float32)


class WordEmotionHead:
    """Probabilities over FINE_LABELS from the words of a turn. Read-only once loaded."""

    def __init__(self, vectoriser: WordVectoriser, reading: WordReading, weight: np.ndarray, bias: np.ndarray,
                 labels: tuple[str, ...], temperature: float):
        self.vectoriser, self.reading, self.labels, self.temperature = vectoriser, reading, labels, temperature
        self._weight, self._bias = weight, bias
        self._columns = np.array([FINE_LABELS.index(label) for label in labels])

    @classmethod
    def from_pretrained(cls, path: Path | None = None) -> WordEmotionHead:
        """The shipped head (cached per process; it is never written to)."""
        return _cached_head(str(path or HEAD_FILE))

    def scores(self, vectors: np.ndarray) -> np.ndarray:
        """The head's own probabilities (rows over self.labels) for turn vectors (rows)."""
        logits = (vectors @ self._weight.T + self._bias) / self.temperature
        logits -= logits.max(1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(1, keepdims=True)

    def probabilities(self, history: tuple[Utterance, ...]) -> np.ndarray:
        """Shape (36,), FINE_LABELS order; all zeros when the speaker used no word the head knows."""
        out = np.zeros(len(FINE_LABELS), dtype=np.float32)
        vector = self.vectoriser.turn(history, self.reading)
        if vector is not None:
            out[self._columns] = self.scores(vector[None])[0]
        return out

    def read_text(self, text: str) -> np.ndarray:
        return self.probabilities((Utterance(0, "speaker", text),))


@lru_cache(maxsize=2)
def _cached_head(path: str) -> WordEmotionHead:
    return load_word_head(Path(path))


def load_word_head(path: Path) -> WordEmotionHead:
    """A missing file is EngineUnavailableError; any file that is not exactly such a head is
    CheckpointMismatchError."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    from .text_emotion import _metadata
    if not path.is_file():
        raise EngineUnavailableError(f"The word emotion head is missing ({path}); rebuild it with `{HEADS_REBUILD}`.")
    try:
        tensors = load_file(str(path))
        metadata = _metadata(path)
        vocabulary = tuple(json.loads(metadata.get("vocabulary", "[]")))
    except (SafetensorError, OSError, ValueError) as error:
        raise CheckpointMismatchError(f"{path.name} is not a readable word head: {error}") from None
    where = f"{path.name}:"
    missing = _METADATA_KEYS - set(metadata)
    if missing or metadata.get("format") != FORMAT:
        raise CheckpointMismatchError(f"{where} not a word emotion head of format {FORMAT} "
                                      f"(format {metadata.get('format')!r}, missing {sorted(missing)}).")
    labels = tuple(metadata["labels"].split(","))
    if sorted(labels) != sorted(ED_LABELS):
        raise CheckpointMismatchError(f"{where} its labels are not the 32 EmpatheticDialogues labels.")
    if set(tensors) != {"out.weight", "out.bias", "idf"}:
        raise CheckpointMismatchError(f"{where} unexpected tensors {sorted(tensors)}; expected out.weight, "
                                      "out.bias and idf.")
    expected = {"out.weight": (len(labels), len(vocabulary)), "out.bias": (len(labels),), "idf": (len(vocabulary),)}
    for name, shape in expected.items():
        if tensors[name].shape != shape:
            raise CheckpointMismatchError(f"{where} {name} has shape {tensors[name].shape}, expected {shape} "
                                          f"for {len(vocabulary)} terms.")
        if tensors[name].dtype != np.float32 or not np.isfinite(tensors[name]).all():
            raise CheckpointMismatchError(f"{where} {name} must hold finite float32 values.")
    if len(set(vocabulary)) != len(vocabulary) or not all(isinstance(t, str) and t for t in vocabulary):
        raise CheckpointMismatchError(f"{where} its vocabulary must be distinct non-empty terms.")
    try:
        reading = WordReading(float(metadata["decay"]), float(metadata["listener_weight"]))
        temperature = float(metadata["temperature"])
    except ValueError:
        raise CheckpointMismatchError(f"{where} its reading parameters are not numbers.") from None
    if not (0 < reading.decay <= 1 and 0 <= reading.listener_weight < math.inf and 0 < temperature < math.inf):
        raise CheckpointMismatchError(f"{where} reading parameters out of range: {reading}, T={temperature}.")
    return WordEmotionHead(WordVectoriser(vocabulary, tensors["idf"].astype(np.float64)), reading,
                           tensors["out.weight"], tensors["out.bias"], labels, temperature)


class WordEmotionVoter(EmotionVoter):
    """Votes the word head's best label for the whole turn; abstains when the speaker used no word it knows."""

    name = "word head (ED-trained)"
    modality = "text"
    priority = 6
    weight = 0.8        # fitted on ED's valid split with the other text voters (see TextEmotionVoter.weight)

    def __init__(self, head: WordEmotionHead):
        self.head = head

    @classmethod
    def from_pretrained(cls) -> WordEmotionVoter:
        return cls(WordEmotionHead.from_pretrained())

    def vote(self, request: UnderstandingRequest) -> Vote | None:
        return probability_vote(self, self.head.probabilities(request.history))
