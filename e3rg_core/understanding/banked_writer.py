"""The lite tier's reply writer: a real listener's reply that fits the turn, else reflective listening.

Blind raters on held-out valid turns (docs/lite_replies.md) found the reflective writer's replies relevant but
stilted (fluency 3.3: the speaker's words said back, then a stock question) and ED listeners' replies chosen by
listener_bank as natural as the human listener's own (4.4) and more often preferred. So a banked reply comes first;
a question to the listener, a greeting, or a turn no banked reply fits goes to the reflective writer.
"""
from __future__ import annotations

import random
import re
from collections.abc import Iterator

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest
from ..metrics import opening
from .listener_bank import FAMILY, ListenerBank, key_texts, shared_bank, turn_key
from .prompts import listener_stance
from .reflection import tidy
from .reflective_writer import ASKS_THE_LISTENER, ReflectiveReplyWriter, fits, news, situation_stance

# A banked reply that only asks ("What was the interview for?") is met first with a word for the feeling.
REACTIONS = {
    "grief": ("I'm so sorry.", "Oh, I'm so sorry.", "That's heartbreaking."),
    "ill": ("Oh no, I'm sorry.", "That sounds so worrying.", "I'm sorry, that's hard."),
    "sad": ("Oh no, I'm sorry.", "Aw, that's hard.", "That sounds rough."),
    "worry": ("That sounds nerve-racking.", "Oh, that sounds stressful.", "That sounds scary."),
    "anger": ("Ugh, that's so frustrating.", "That's not okay.", "I'd be annoyed too."),
    "shame": ("Aw, that happens to everyone.", "Oh no, that's so awkward.", "Don't be too hard on yourself."),
    "envy": ("That's a very human feeling.", "I get that.", "That's understandable."),
    "glad": ("That's wonderful!", "Oh, how lovely!", "That's great news!"),
    "hope": ("How exciting!", "That sounds promising!", "Oh, fingers crossed!"),
}
_FEELING_WORDS = re.compile(r"\b(?:sorry|sad|hard|tough|rough|awful|terrible|horrible|scary|scared|frustrat\w*|"
                            r"annoy\w*|great|glad|happy|wonderful|awesome|amazing|exciting|excited|nice|cool|lovely|"
                            r"congrat\w*|proud|luck\w*|hope|bummer|oh no|wow|ugh|yikes|poor|understand|"
                            r"imagine|must)\b", re.IGNORECASE)


class BankedReplyWriter(ReplyWriter):
    """ED listeners' replies chosen per turn (listener_bank), with reflective listening behind them."""

    name = "ED listeners' replies chosen per turn, reflective listening behind (no model)"

    def __init__(self, bank: ListenerBank, encoder, fallback: ReflectiveReplyWriter | None = None):
        self.bank, self.encoder = bank, encoder
        self.fallback = fallback or ReflectiveReplyWriter()

    @classmethod
    def from_pretrained(cls) -> BankedReplyWriter:
        from .situation_voter import shared_encoder
        return cls(shared_bank(), shared_encoder())

    def reply(self, request: UnderstandingRequest, emotion: EmotionResult) -> tuple[str, bool]:
        """The reply, and whether a real listener wrote it (False: the reflective writer's)."""
        history = request.history
        latest = next((u.utterance for u in reversed(history) if u.role == "speaker"), "")
        if not latest.strip() or ASKS_THE_LISTENER.search(latest) or len(tidy(latest).split()) < 2:
            return self.fallback.reply(request, emotion)[0], False
        stance = situation_stance(tidy(latest), listener_stance(emotion))
        key = turn_key(*self.encoder(list(key_texts(history))))
        used = {opening(u.utterance) for u in history if u.role == "listener"}
        text = self.bank.choose(key, history, stance, news(tidy(latest)), used)
        if text is None:
            return self.fallback.reply(request, emotion)[0], False
        family = FAMILY[stance]
        if family in REACTIONS and text.endswith("?") and not re.search(r"[.!]", text) \
                and not _FEELING_WORDS.search(text):
            reaction = random.Random(text + latest).choice(REACTIONS[family])
            if fits(f"{reaction} {text}"):
                text = f"{reaction} {text}"
        return text, True

    def write(self, request: UnderstandingRequest, emotion: EmotionResult, max_new_tokens: int) -> Iterator[str]:
        yield self.reply(request, emotion)[0]
