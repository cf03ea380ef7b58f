"""Replies with no model: a few written replies per listener stance. They serve when no language model can run,
and when every attempt of the lite writer had a problem, so speech and video still get words of the right stance.
They name nothing the speaker said, so they can invent nothing."""
from __future__ import annotations

import random
from collections.abc import Iterator

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest, Utterance
from ..metrics import opening
from .prompts import LISTENER_STANCE, ListenerStance

TEMPLATES: dict[str, tuple[str, ...]] = {
    "celebrate": ("That's wonderful news, I'm really happy for you!", "How lovely! You must be thrilled.",
                  "Oh, that's great to hear. Tell me more!"),
    "look_forward": ("That sounds like something to look forward to. I hope it goes well!",
                     "Fingers crossed for you, it sounds promising.", "I hope it all turns out the way you want."),
    "appreciate": ("That's really kind of you.", "It sounds like you truly care, and that matters.",
                   "What a good thing to have in your life."),
    "surprise": ("Wow, I didn't see that coming! What happened next?", "Really? That's quite a surprise.",
                 "No way! How did you take it?"),
    "comfort": ("I'm so sorry you're going through this.", "That sounds really hard. I'm here with you.",
                "I'm sorry, that must hurt a lot."),
    "reminisce": ("What a lovely memory to hold on to.", "That must bring back so much.",
                  "It's nice to look back on times like that."),
    "reassure": ("That sounds frightening, and it's okay to feel scared.",
                 "It's normal to worry about that. Take it one step at a time.",
                 "That's a lot to carry. You're handling it better than you think."),
    "validate": ("That sounds really unfair, and your anger makes sense.", "That's not okay. I'd be upset too.",
                 "How frustrating. You have every right to be annoyed."),
    "disgust": ("Ugh, that sounds awful.", "Yuck, nobody should have to deal with that.",
                "That's really gross. I'd feel the same."),
    "ease": ("It happens to everyone, so be kind to yourself.", "Don't be too hard on yourself about it.",
             "That's so human. People forget these things faster than you think."),
    "envy": ("That feeling makes sense. It's hard to watch someone else get it.",
             "It's natural to feel that way sometimes.", "That stings. Your turn can still come."),
    "interest": ("Thank you for telling me. How did it go?", "That sounds interesting. Tell me more.",
                 "Oh, I'd like to hear more about that."),
}


def template_reply(stance: ListenerStance, history: tuple[Utterance, ...], seed: int) -> str:
    """One of the stance's written replies, by seed, avoiding an opening the listener already used."""
    used = {opening(u.utterance) for u in history if u.role == "listener"}
    choices = [t for t in TEMPLATES[stance.name] if opening(t) not in used] or list(TEMPLATES[stance.name])
    return random.Random(seed).choice(choices)


class TemplateReplyWriter(ReplyWriter):
    name = "fallback: template reply (no language model available)"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def write(self, request: UnderstandingRequest, emotion: EmotionResult, max_new_tokens: int) -> Iterator[str]:
        yield template_reply(LISTENER_STANCE[emotion.fine], request.history,
                             self.seed + sum(len(u.utterance) for u in request.history))
