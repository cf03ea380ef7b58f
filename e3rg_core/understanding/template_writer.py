"""A reply writer with no model: one caring sentence per coarse emotion. Used only when no language model
can run, so speech and video still have words; the UI names it as the engine."""
from __future__ import annotations

from collections.abc import Iterator

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest

_OPENINGS = {
    "neutral": "Thank you for telling me.",
    "happy": "That's wonderful, I'm really happy for you!",
    "surprised": "Wow, I didn't see that coming either!",
    "angry": "That sounds really frustrating, and your anger makes sense.",
    "fear": "That sounds frightening; it's okay to feel scared.",
    "sad": "I'm so sorry you're going through this.",
    "disgusted": "Ugh, that sounds awful.",
    "contempt": "I can see why that doesn't sit right with you.",
}


class TemplateReplyWriter(ReplyWriter):
    name = "fallback: template reply (no language model available)"

    def write(self, request: UnderstandingRequest, emotion: EmotionResult, max_new_tokens: int) -> Iterator[str]:
        yield f"{_OPENINGS[emotion.coarse]} I can tell you're feeling {emotion.fine}. Do you want to tell me more?"
