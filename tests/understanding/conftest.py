"""The lite tier's text vote, for the writers' tests: the three text voters, loaded once."""
from __future__ import annotations

import pytest

from e3rg_core.contracts import EmotionResult, UnderstandingRequest
from e3rg_core.runner import cast_votes, tally
from e3rg_core.understanding.situation_voter import SituationEmotionVoter
from e3rg_core.understanding.text_emotion import TextEmotionVoter
from e3rg_core.understanding.word_emotion import WordEmotionVoter


@pytest.fixture(scope="session")
def text_vote():
    voters = [TextEmotionVoter.from_pretrained(), WordEmotionVoter.from_pretrained(),
              SituationEmotionVoter.from_pretrained()]

    def vote(request: UnderstandingRequest) -> EmotionResult:
        return tally(cast_votes(voters, request, []))
    return vote
