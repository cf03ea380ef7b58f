"""Requests for the writers' tests: a conversation written as alternating speaker and listener turns."""
from __future__ import annotations

from e3rg_core.contracts import UnderstandingRequest, Utterance


def said(*utterances: str) -> UnderstandingRequest:
    """The request for a conversation that starts with the speaker and alternates, the speaker's turn last."""
    return UnderstandingRequest(history=tuple(Utterance(i, "speaker" if i % 2 == 0 else "listener", text)
                                              for i, text in enumerate(utterances)))
