"""The vote: every voter names a fine label; the majority wins, with ties settled by coarse agreement,
then by voter priority, then by neutral."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..emotions import coarse_of
from ..contracts import EmotionResult, Vote


def decide(votes: list[Vote], priorities: Mapping[str, int]) -> EmotionResult:
    """Settle the votes; priorities maps voter names to rank (lower ranks win the last tie-break)."""
    cast = tuple(votes)
    if not cast:
        return EmotionResult("neutral", "neutral", cast, "no voter could judge this turn")
    fine_counts = Counter(v.label for v in cast)
    best = max(fine_counts.values())
    tied = [label for label, n in fine_counts.items() if n == best]
    if len(tied) == 1:
        return _result(tied[0], cast, "fine-label majority" if len(cast) > 1 else "single vote")

    coarse_counts = Counter(coarse_of(v.label) for v in cast)
    best_coarse = max(coarse_counts[coarse_of(label)] for label in tied)
    tied = [label for label in tied if coarse_counts[coarse_of(label)] == best_coarse]
    if len(tied) == 1:
        return _result(tied[0], cast, "tie broken by coarse-class majority")

    rank = {label: min(priorities.get(v.voter, 1_000) for v in cast if v.label == label) for label in tied}
    top = min(rank.values())
    leaders = [label for label in tied if rank[label] == top]
    if len(leaders) == 1:
        return _result(leaders[0], cast, "tie broken by voter priority")
    return _result("neutral", cast, "unbroken tie: neutral")


def _result(label: str, votes: tuple[Vote, ...], rule: str) -> EmotionResult:
    return EmotionResult(label, coarse_of(label), votes, rule)
