"""Trained text emotion head: all-MiniLM-L6-v2 embeddings of the whole turn, read by a small classifier trained on
EmpatheticDialogues train (tuned on valid; see MODEL_CARD.md).

The turn is one vector: the speaker's utterances weighted by `decay` per step back, blended with all their words
read together (`join_weight`) and a little of the listener's (`listener_weight`). The four MEAD-only labels get 0: no
ED conversation names them; the vote reaches them through their coarse neighbours or the situation voter.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..contracts import EmotionVoter, UnderstandingRequest, Utterance, Vote
from ..emotions import ED_LABELS, FINE_LABELS
from ..errors import CheckpointMismatchError, EngineUnavailableError
from .voting import HEADS_REBUILD, probability_vote
from .situation_voter import ENCODER_PACKAGE, SentenceEncoder, shared_encoder

HEAD_FILE = Path(__file__).with_name("text_emotion_head.safetensors")
FORMAT = "e3rg-text-emotion-head/1"
EMBEDDING_SIZE = 384        # all-MiniLM-L6-v2's hidden size
_PARAMETER_NAMES = {"out.weight", "out.bias", "hidden.weight", "hidden.bias"}
_METADATA_KEYS = {"format", "labels", "encoder", "decay", "join_weight", "listener_weight", "temperature"}


@dataclass(frozen=True)
class TurnReading:
    """How a turn becomes one vector (fixed at training time, stored with the weights)."""
    decay: float                # weight of a speaker utterance relative to the one after it
    join_weight: float          # share of the all-speaker-words embedding in the speaker part
    listener_weight: float      # the listener's utterances, as context

    def texts(self, history: tuple[Utterance, ...]) -> tuple[list[str], list[str]]:
        """(speaker utterances, listener utterances), empty ones left out, in order."""
        speaker = [u.utterance.strip() for u in history if u.role == "speaker" and u.utterance.strip()]
        listener = [u.utterance.strip() for u in history if u.role == "listener" and u.utterance.strip()]
        return speaker, listener

    def combine(self, speaker: np.ndarray, joined: np.ndarray | None, listener: np.ndarray) -> np.ndarray:
        """One unit vector from the speaker's utterance embeddings (oldest first, at least one), the embedding of
        their words read together (None when join_weight is 0) and the listener's utterance embeddings (may be
        empty)."""
        steps_back = np.arange(len(speaker) - 1, -1, -1, dtype=np.float64)
        weights = self.decay ** steps_back
        vector = (weights[:, None] * speaker).sum(0) / weights.sum()
        if joined is not None and self.join_weight > 0:
            vector = (1 - self.join_weight) * vector + self.join_weight * joined
        if len(listener) and self.listener_weight > 0:
            vector = vector + self.listener_weight * listener.mean(0)
        return (vector / max(np.linalg.norm(vector), 1e-12)).astype(np.float32)


class TextEmotionHead:
    """Probabilities over FINE_LABELS for a turn or a lone sentence. Read-only once loaded."""

    def __init__(self, encoder: SentenceEncoder, reading: TurnReading, layers: dict[str, np.ndarray],
                 labels: tuple[str, ...], temperature: float):
        self.encoder, self.reading, self.labels, self.temperature = encoder, reading, labels, temperature
        self._layers = layers
        self._columns = np.array([FINE_LABELS.index(label) for label in labels])

    @classmethod
    def from_pretrained(cls, path: Path | None = None) -> TextEmotionHead:
        """The shipped head (cached per process; it is never written to)."""
        return _cached_head(str(path or HEAD_FILE))

    @classmethod
    def load(cls, path: Path, encoder: SentenceEncoder) -> TextEmotionHead:
        reading, layers, labels, temperature = read_head_file(path)
        return cls(encoder, reading, layers, labels, temperature)

    def scores(self, vectors: np.ndarray) -> np.ndarray:
        """The head's own probabilities (rows over self.labels) for turn vectors (rows)."""
        x = vectors.astype(np.float32)
        if "hidden.weight" in self._layers:
            x = np.maximum(x @ self._layers["hidden.weight"].T + self._layers["hidden.bias"], 0)
        logits = (x @ self._layers["out.weight"].T + self._layers["out.bias"]) / self.temperature
        logits -= logits.max(1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(1, keepdims=True)

    def _over_fine_labels(self, head_probabilities: np.ndarray) -> np.ndarray:
        out = np.zeros(len(FINE_LABELS), dtype=np.float32)
        out[self._columns] = head_probabilities
        return out

    def turn_vector(self, history: tuple[Utterance, ...]) -> np.ndarray | None:
        speaker, listener = self.reading.texts(history)
        if not speaker:
            return None
        embedded = self.encoder(speaker + listener + ([" ".join(speaker)] if self.reading.join_weight > 0 else []))
        joined = embedded[-1] if self.reading.join_weight > 0 else None
        return self.reading.combine(embedded[:len(speaker)], joined,
                                    embedded[len(speaker):len(speaker) + len(listener)])

    def probabilities(self, history: tuple[Utterance, ...]) -> np.ndarray:
        """Shape (36,), FINE_LABELS order, for a history ending with the speaker's latest utterance. A history
        with no speaker words gets all zeros."""
        vector = self.turn_vector(history)
        if vector is None:
            return np.zeros(len(FINE_LABELS), dtype=np.float32)
        return self._over_fine_labels(self.scores(vector[None])[0])

    def read_text(self, text: str) -> np.ndarray:
        """Shape (36,), FINE_LABELS order, for one sentence read alone (e.g. a candidate reply)."""
        return self.probabilities((Utterance(0, "speaker", text),))


@lru_cache(maxsize=2)
def _cached_head(path: str) -> TextEmotionHead:
    return TextEmotionHead.load(Path(path), shared_encoder())


def read_head_file(path: Path) -> tuple[TurnReading, dict[str, np.ndarray], tuple[str, ...], float]:
    """The head's reading, layers, labels and temperature; a missing file is EngineUnavailableError, any file that
    is not exactly such a head is CheckpointMismatchError."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file
    if not path.is_file():
        raise EngineUnavailableError(f"The text emotion head is missing ({path}); rebuild it with `{HEADS_REBUILD}`.")
    try:
        layers = load_file(str(path))
        metadata = _metadata(path)
    except (SafetensorError, OSError, ValueError, json.JSONDecodeError) as error:
        raise CheckpointMismatchError(f"{path.name} is not a readable safetensors file: {error}") from None
    where = f"{path.name}:"
    missing = _METADATA_KEYS - set(metadata)
    if missing or metadata.get("format") != FORMAT:
        raise CheckpointMismatchError(f"{where} not a text emotion head of format {FORMAT} "
                                      f"(format {metadata.get('format')!r}, missing {sorted(missing)}).")
    if metadata["encoder"] != ENCODER_PACKAGE:
        raise CheckpointMismatchError(f"{where} trained on {metadata['encoder']}, not {ENCODER_PACKAGE}.")
    labels = tuple(metadata["labels"].split(","))
    if sorted(labels) != sorted(ED_LABELS):
        raise CheckpointMismatchError(f"{where} its labels are not the 32 EmpatheticDialogues labels.")
    names = set(layers)
    if names not in ({"out.weight", "out.bias"}, _PARAMETER_NAMES):
        raise CheckpointMismatchError(f"{where} unexpected tensors {sorted(names)}; expected out.weight/out.bias "
                                      "and optionally hidden.weight/hidden.bias.")
    width = EMBEDDING_SIZE
    if "hidden.weight" in layers:
        _expect_shape(layers, "hidden.weight", (layers["hidden.weight"].shape[0], EMBEDDING_SIZE), where)
        width = layers["hidden.weight"].shape[0]
        _expect_shape(layers, "hidden.bias", (width,), where)
    _expect_shape(layers, "out.weight", (len(labels), width), where)
    _expect_shape(layers, "out.bias", (len(labels),), where)
    for name, tensor in layers.items():
        if tensor.dtype != np.float32 or not np.isfinite(tensor).all():
            raise CheckpointMismatchError(f"{where} {name} must hold finite float32 values.")
    try:
        reading = TurnReading(float(metadata["decay"]), float(metadata["join_weight"]),
                              float(metadata["listener_weight"]))
        temperature = float(metadata["temperature"])
    except ValueError:
        raise CheckpointMismatchError(f"{where} its reading parameters are not numbers.") from None
    if not (0 < reading.decay <= 1 and 0 <= reading.join_weight <= 1 and reading.listener_weight >= 0
            and temperature > 0 and all(map(math.isfinite, (reading.listener_weight, temperature)))):
        raise CheckpointMismatchError(f"{where} reading parameters out of range: {reading}, T={temperature}.")
    return reading, layers, labels, temperature


def _metadata(path: Path) -> dict[str, str]:
    """The safetensors header's __metadata__ (load_file does not return it)."""
    with path.open("rb") as handle:
        size = int.from_bytes(handle.read(8), "little")
        if not 0 < size <= 1 << 20:
            raise ValueError("header size out of range")
        header = json.loads(handle.read(size))
    return header.get("__metadata__") or {}


def _expect_shape(layers: dict[str, np.ndarray], name: str, shape: tuple[int, ...], where: str) -> None:
    if layers[name].shape != shape:
        raise CheckpointMismatchError(f"{where} {name} has shape {layers[name].shape}, expected {shape}.")


class TextEmotionVoter(EmotionVoter):
    """Votes the trained head's best label for the whole turn; abstains when the speaker has said nothing."""

    name = "MiniLM head (ED-trained)"
    modality = "text"
    priority = 5
    # The vote's weights were fitted together on ED's valid split (python -m e3rg_dev.train_emotion reports
    # them): this head 1, the word head 0.8, the situation voter 0.3. Face and voice voters keep 1 (unfitted).
    weight = 1.0

    def __init__(self, head: TextEmotionHead):
        self.head = head

    @classmethod
    def from_pretrained(cls) -> TextEmotionVoter:
        return cls(TextEmotionHead.from_pretrained())

    def vote(self, request: UnderstandingRequest) -> Vote | None:
        return probability_vote(self, self.head.probabilities(request.history))
