"""Replies with no model: a few written replies per listener stance. They serve when no language model can run,
and when every attempt of the lite writer had a problem, so speech and video still get words of the right stance.
They name nothing the speaker said, so they can invent nothing."""
from __future__ import annotations

import random
from collections.abc import Iterator

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest, Utterance
from ..metrics import opening
from .prompts import ListenerStance, listener_stance

# Each reads as its stance to the text emotion head (tests/understanding/test_lite_writer.py checks it); five
# openings apiece, so that the turns that fall back here do not all open alike.
TEMPLATES: dict[str, tuple[str, ...]] = {
    "celebrate": ("That's wonderful news, I'm really happy for you!", "How lovely! You must be thrilled.",
                  "Oh, that's great to hear. Tell me more!", "What great news, congratulations!",
                  "Yay, that made me smile. You must be so pleased."),
    "look_forward": ("That sounds like something to look forward to. I hope it goes well!",
                     "Fingers crossed for you, it sounds promising.", "I hope it all turns out the way you want.",
                     "You sound ready for it. Good luck!", "Oh, that sounds exciting. I hope it goes well."),
    "appreciate": ("That's really kind of you.", "It sounds like you truly care, and that matters.",
                   "What a good thing to have in your life.", "How thoughtful of you. That means a lot.",
                   "You clearly care a lot, and that shows."),
    "surprise": ("Wow, I didn't see that coming! What happened next?", "Really? That's quite a surprise.",
                 "No way! How did you take it?", "Huh, that is unexpected! How did it happen?",
                 "Whoa, I never would have guessed. Then what?"),
    "comfort": ("I'm so sorry you're going through this.", "I'm sorry, that must hurt a lot.",
                "My heart goes out to you. That is so sad.", "That sounds so sad. I wish it had gone differently.",
                "Oh, I am so sorry. That must hurt so much."),
    "reminisce": ("What a lovely memory to hold on to.", "That must bring back so much.",
                  "It's nice to look back on times like that.", "Aw, that sounds like a sweet memory.",
                  "Those sound like treasured times."),
    "reassure": ("That sounds frightening, and it's okay to feel scared.",
                 "It's normal to worry about that. Take it one step at a time.",
                 "That's a lot to carry. You're handling it better than you think.",
                 "Try not to worry too much. It will be okay.", "Be gentle with yourself, that sounds scary."),
    "validate": ("That sounds really unfair, and your anger makes sense.", "How frustrating. You have every right "
                 "to be annoyed.", "That is not fair at all. No wonder you are angry.",
                 "Ugh, what an infuriating thing to happen.", "I would be angry too, that is so unfair."),
    "disgust": ("Yuck, nobody should have to deal with that.", "That's really gross. I'd feel the same.",
                "Eww, that is disgusting.", "Ugh, how gross. I would be disgusted too.",
                "Gross, that would turn my stomach."),
    "ease": ("Don't be too hard on yourself about it.",
             "That's so human. People forget these things faster than you think.",
             "We all do embarrassing things sometimes. It will pass.", "Honestly, everyone has a moment like that "
             "and feels silly afterwards.", "Oh, you're being hard on yourself, it was an honest mistake."),
    "envy": ("That feeling makes sense. It's hard to watch someone else get it.",
             "It is natural to feel a bit envious sometimes.", "Of course you feel jealous, that makes sense.",
             "I get it, it is hard to watch someone else have what you want.",
             "Feeling envious is only human, that stings."),
    "interest": ("Thank you for telling me. How did it go?", "That sounds interesting. Tell me more.",
                 "Oh, I'd like to hear more about that.", "Nice, how did it go?",
                 "Sounds fun! What happened then?"),
    "acknowledge": ("That's a lot to take in. How do you feel about it?", "Oh, really? How are you taking it?",
                    "Hm, that's quite something. What do you make of it?", "I see. How does that sit with you?",
                    "Wow, that's big either way. How are you feeling about it now?"),
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
        yield template_reply(listener_stance(emotion), request.history,
                             self.seed + sum(len(u.utterance) for u in request.history))
