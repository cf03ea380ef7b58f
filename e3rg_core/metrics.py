"""Evaluation measures: E3RG's HIT (coarse-class match) and sentence-averaged Distinct-n, and what those hide
about a set of replies: Distinct-n over all replies together, repeated openings and length."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from .emotions import COARSE_LABELS, coarse_of


def hit_rate(predicted: Sequence[str], gold: Sequence[str]) -> float:
    """Share of fine predictions whose coarse class equals the gold label's coarse class."""
    if len(predicted) != len(gold):
        raise ValueError("predicted and gold differ in length")
    if not gold:
        return 0.0
    return sum(coarse_of(p) == coarse_of(g) for p, g in zip(predicted, gold)) / len(gold)


def fine_accuracy(predicted: Sequence[str], gold: Sequence[str]) -> float:
    if not gold:
        return 0.0
    return sum(p == g for p, g in zip(predicted, gold, strict=True)) / len(gold)


def distinct_n(responses: Sequence[str], n: int) -> float:
    """Mean over responses of unique n-grams / n-grams (lower-cased, whitespace tokens); empty ones skipped."""
    ratios = []
    for response in responses:
        tokens = response.lower().strip().split()
        grams = [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]
        if grams:
            ratios.append(len(set(grams)) / len(grams))
    return sum(ratios) / len(ratios) if ratios else 0.0


def corpus_distinct_n(responses: Sequence[str], n: int) -> float:
    """Unique n-grams / n-grams over all responses together (lower-cased, whitespace tokens, no n-gram across
    two responses). Unlike the sentence average it falls when different replies say the same things."""
    grams = [tuple(tokens[i:i + n]) for tokens in (r.lower().split() for r in responses)
             for i in range(len(tokens) - n + 1)]
    return len(set(grams)) / len(grams) if grams else 0.0


def opening(response: str, words: int = 4) -> tuple[str, ...]:
    """The first words of a response, lower-cased and without punctuation ("I'm so sorry, to" -> i'm so sorry to)."""
    return tuple(re.findall(r"[a-z0-9']+", response.lower())[:words])


def repeated_opening_share(responses: Sequence[str], words: int = 4) -> float:
    """Share of responses whose first `words` words open another response too (shorter ones never count)."""
    openings = [opening(r, words) for r in responses]
    counts = Counter(o for o in openings if len(o) == words)
    return sum(counts[o] > 1 for o in openings if len(o) == words) / len(openings) if openings else 0.0


def mean_words(responses: Sequence[str]) -> float:
    return sum(len(r.split()) for r in responses) / len(responses) if responses else 0.0


def coarse_confusion(predicted: Sequence[str], gold: Sequence[str]) -> dict[str, dict[str, int]]:
    """counts[gold coarse][predicted coarse] over all 8 coarse classes."""
    counts = {g: {p: 0 for p in COARSE_LABELS} for g in COARSE_LABELS}
    for p, g in zip(predicted, gold, strict=True):
        counts[coarse_of(g)][coarse_of(p)] += 1
    return counts


def macro_f1(predicted: Sequence[str], gold: Sequence[str], labels: Sequence[str]) -> float:
    """Unweighted mean over labels of F1 (a label never predicted nor gold counts as 0, as in scikit-learn)."""
    scores = []
    for label in labels:
        hits = sum(p == g == label for p, g in zip(predicted, gold, strict=True))
        guessed, actual = sum(p == label for p in predicted), sum(g == label for g in gold)
        scores.append(2 * hits / (guessed + actual) if guessed + actual else 0.0)
    return sum(scores) / len(scores) if scores else 0.0
