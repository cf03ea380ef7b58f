"""E3RG's evaluation measures: HIT (coarse-class match) and sentence-averaged Distinct-n."""
from __future__ import annotations

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
