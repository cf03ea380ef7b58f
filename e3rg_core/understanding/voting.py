"""The vote: a weighted sum of the voters' probabilities.

Each vote spreads its voter's weight over the labels it names: over `top` (its best labels with their
probabilities) when it gives them, else over its one label at its confidence (1 when it gives none). The label
with the highest total wins. A tie (totals within TIE_TOLERANCE) is settled, in order, by the coarse class with
the highest total, then by the best-ranked voter among those that put the tied labels first, and a tie that
survives all three is neutral. With no vote at all the turn is neutral.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping

import numpy as np

from ..contracts import EmotionResult, EmotionVoter, Vote
from ..emotions import FINE_LABELS, coarse_of

# The two trained text heads (text_emotion, word_emotion) are rebuilt by one command of the developers' package,
# given a folder with ED's train.csv and valid.csv; MODEL_CARD.md says where the data comes from.
HEADS_REBUILD = "python -m e3rg_dev.train_emotion --data <folder with EmpatheticDialogues' train.csv and valid.csv>"

TIE_TOLERANCE = 1e-6
TOP_LABELS = 3      # the labels a probability vote names (and the page shows)


def probability_vote(voter: EmotionVoter, probabilities: np.ndarray) -> Vote | None:
    """A voter's vote from its probabilities over FINE_LABELS: the best label, with its top labels as evidence;
    None (it abstains) when it read nothing."""
    if not probabilities.any():
        return None
    ranked = np.argsort(-probabilities)[:TOP_LABELS]
    top = tuple((FINE_LABELS[i], round(float(probabilities[i]), 3)) for i in ranked)
    raw = ", ".join(f"{label} {p:.2f}" for label, p in top)
    return Vote(voter.name, voter.modality, top[0][0], top[0][1], raw, top=top)


def vote_mass(vote: Vote) -> dict[str, float]:
    """What one vote puts on each label, before its weight."""
    if vote.top:
        return {label: float(p) for label, p in vote.top}
    return {vote.label: 1.0 if vote.confidence is None else float(vote.confidence)}


def tally(votes: list[Vote] | tuple[Vote, ...]) -> dict[str, float]:
    """Weighted total per fine label over all votes."""
    totals: dict[str, float] = defaultdict(float)
    for vote in votes:
        for label, mass in vote_mass(vote).items():
            totals[label] += vote.weight * mass
    return dict(totals)


def side_share(votes: list[Vote] | tuple[Vote, ...], on_side: Callable[[str], bool]) -> float:
    """The share of the vote on labels for which on_side holds (0 with no votes). Each vote counts with its
    weight, spread over its labels in proportion to their probabilities: a voter whose reading is flat has the
    same say in this share as a sure one, where the tally would let the sure one drown it."""
    weighted = total = 0.0
    for vote in votes:
        mass = vote_mass(vote)
        whole = sum(mass.values())
        if whole > 0:
            weighted += vote.weight * sum(p for label, p in mass.items() if on_side(label)) / whole
            total += vote.weight
    return weighted / total if total else 0.0


def _leaders(scores: Mapping[str, float], among: list[str]) -> list[str]:
    best = max(scores[label] for label in among)
    return [label for label in among if scores[label] >= best - TIE_TOLERANCE]


def decide(votes: list[Vote], priorities: Mapping[str, int]) -> EmotionResult:
    """Settle the votes; priorities maps voter names to rank (lower ranks win the last tie-break)."""
    cast = tuple(votes)
    if not cast:
        return EmotionResult("neutral", "neutral", cast, "no voter could judge this turn")
    totals = tally(cast)
    tied = _leaders(totals, list(totals))
    if len(tied) == 1:
        return _result(tied[0], cast, "weighted vote" if len(cast) > 1 else "single vote")

    coarse_totals: dict[str, float] = defaultdict(float)
    for label, total in totals.items():
        coarse_totals[coarse_of(label)] += total
    tied = _leaders({label: coarse_totals[coarse_of(label)] for label in tied}, tied)
    if len(tied) == 1:
        return _result(tied[0], cast, "tie broken by coarse-class total")

    rank = {label: min((priorities.get(v.voter, 1_000) for v in cast if v.label == label), default=1_000)
            for label in tied}
    top = min(rank.values())
    leaders = [label for label in tied if rank[label] == top]
    if len(leaders) == 1:
        return _result(leaders[0], cast, "tie broken by voter priority")
    return _result("neutral", cast, "unbroken tie: neutral")


def _result(label: str, votes: tuple[Vote, ...], rule: str) -> EmotionResult:
    return EmotionResult(label, coarse_of(label), votes, rule)
