"""Which of the writer's own lines comes nearest to what a human listener would say to this turn.

The listener map is a ridge map from a turn's MiniLM embedding to the embedding of the reply ED's own listener
wrote to it, fitted on the tuning part of ED valid (`python -m e3rg_dev.listener_map`; the card: LISTENER_MAP.md).
Lines nearest the mapped direction are the ones most like what listeners say to such turns: "Where are you
headed?" to a first flight abroad, "Ew, that's gross!" to maggots on the counter. The ranker writes nothing; it
only orders lines the writer already holds, so it can add no fact and no listener story.
"""
from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from ..contracts import Utterance
from ..errors import CheckpointMismatchError
from .situation_voter import SentenceEncoder, shared_encoder
from .text_emotion import EMBEDDING_SIZE

MAP_FILE = Path(__file__).with_name("listener_reply_map.safetensors")
FORMAT = "e3rg-listener-reply-map/1"
CONTEXT_UTTERANCES = 3          # the turn is read with the two utterances before it
_REMEMBERED_LINES = 4096        # the writer's lines are a few thousand once filled with a topic


def unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-12)


def turn_texts(history: tuple[Utterance, ...]) -> tuple[str, str]:
    """The speaker's latest utterance, and the conversation's last CONTEXT_UTTERANCES read together."""
    latest = next(u.utterance for u in reversed(history) if u.role == "speaker")
    return latest.strip(), " ".join(u.utterance.strip() for u in history[-CONTEXT_UTTERANCES:])


class ReplyRanker:
    """Scores lines against a turn. Shared by requests: it keeps only the embeddings of the writer's own lines."""

    def __init__(self, weight: np.ndarray, context_weight: float, encoder: SentenceEncoder):
        self.weight, self.context_weight, self.encoder = weight, context_weight, encoder
        self._lines: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_pretrained(cls, path: Path = MAP_FILE, encoder: SentenceEncoder | None = None) -> ReplyRanker:
        from safetensors import safe_open
        with safe_open(str(path), "numpy") as tensors:
            names, metadata = set(tensors.keys()), tensors.metadata() or {}
            weight = tensors.get_tensor("weight") if names == {"weight"} else None
        if weight is None or weight.shape != (EMBEDDING_SIZE, EMBEDDING_SIZE) or metadata.get("format") != FORMAT:
            raise CheckpointMismatchError(f"{path.name}: expected one {EMBEDDING_SIZE}x{EMBEDDING_SIZE} 'weight' of "
                                          f"format {FORMAT}, found {sorted(names)} ({metadata.get('format')}).")
        return cls(weight, float(metadata["context_weight"]), encoder or shared_encoder())

    def expected(self, history: tuple[Utterance, ...]) -> np.ndarray:
        """The direction of the reply a listener would write to the history's last speaker turn."""
        latest, context = self.encoder(list(turn_texts(history)))
        return unit(unit(latest + self.context_weight * context) @ self.weight)

    def scores(self, expected: np.ndarray, texts: list[str]) -> np.ndarray:
        return self._embed(texts) @ expected

    def _embed(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            found = {text: self._lines[text] for text in texts if text in self._lines}
        missing = [text for text in dict.fromkeys(texts) if text not in found]
        if missing:
            found.update(zip(missing, self.encoder(missing)))
            with self._lock:
                if len(self._lines) + len(missing) > _REMEMBERED_LINES:
                    self._lines.clear()
                self._lines.update((text, found[text]) for text in missing)
        return np.stack([found[text] for text in texts])
