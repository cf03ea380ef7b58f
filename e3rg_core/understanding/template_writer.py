"""Replies with no model: a few written replies per listener stance. They serve when the reflective writer can say
nothing of the turn back, and when a writer wrote nothing that can be spoken, so speech and video still get words of
the right stance. They name nothing the speaker said, so they can invent nothing."""
from __future__ import annotations

import random
from collections.abc import Iterator

from ..contracts import EmotionResult, ReplyWriter, UnderstandingRequest, Utterance
from ..metrics import opening
from .prompts import ListenerStance, listener_stance

# Each reads as its stance to the text emotion head (tests/understanding/test_stances_and_templates.py checks
# it); ten openings apiece, so that the turns that fall back here do not all open alike (with five, the 43 % of
# replies on ED valid that were templates made most of the repeated openings).
TEMPLATES: dict[str, tuple[str, ...]] = {
    "celebrate": ("That's wonderful news, I'm really happy for you!", "How lovely! You must be thrilled.",
                  "Oh, that's great to hear. Tell me more!", "What great news, congratulations!",
                  "Yay, that made me smile. You must be so pleased.", "Oh, how exciting! That must feel so good.",
                  "That's brilliant, you've earned a moment to enjoy it.",
                  "Well, that's fantastic. I'm smiling just hearing it.", "What a lovely thing to happen. Enjoy it!",
                  "Hooray! That really is good news."),
    "look_forward": ("That sounds like something to look forward to. I hope it goes well!",
                     "Fingers crossed for you, it sounds promising.", "I hope it all turns out the way you want.",
                     "You sound ready for it. Good luck!", "Oh, that sounds exciting. I hope it goes well.",
                     "Here's hoping it goes just the way you picture it.",
                     "That's something to count down to. Best of luck!",
                     "It sounds like it could turn out really well.", "Ooh, I'll keep my fingers crossed for you.",
                     "You've got this. I hope it's everything you want."),
    "appreciate": ("That's really kind of you.", "It sounds like you truly care, and that matters.",
                   "What a good thing to have in your life.", "How thoughtful of you. That means a lot.",
                   "You clearly care a lot, and that shows.", "That's a lovely way to look out for someone.",
                   "People like that make the world a kinder place.", "What a caring thing to do.",
                   "That kind of loyalty is rare and precious.", "It's lovely that you can count on each other."),
    "surprise": ("Wow, I didn't see that coming! What happened next?", "Really? That's quite a surprise.",
                 "No way! How did you take it?", "Huh, that is unexpected! How did it happen?",
                 "Whoa, I never would have guessed. Then what?", "Oh wow, I would never have expected that!",
                 "Wait, really? That's a twist.", "Goodness, that came out of nowhere! How did you react?",
                 "That is not what I thought you'd say! Then what happened?", "Seriously? What a surprise."),
    "comfort": ("I'm so sorry you're going through this.", "I'm sorry, that must hurt a lot.",
                "My heart goes out to you. That is so sad.", "That sounds so sad. I wish it had gone differently.",
                "Oh, I am so sorry. That must hurt so much.", "That's such a hard thing to go through.",
                "I'm really sorry. Losing that must hurt so much.",
                "Oh no, that's heartbreaking. I'm here with you.",
                "It's okay to feel sad about this. It really matters.", "What a painful loss. I'm so sorry."),
    "reminisce": ("What a lovely memory to hold on to.", "That must bring back so much.",
                  "It's nice to look back on times like that.", "Aw, that sounds like a sweet memory.",
                  "Those sound like treasured times.", "Memories like that stay with us for good.",
                  "Oh, I love hearing about times like that.", "Those moments sound really special.",
                  "It's sweet how clearly you remember it.", "That sounds like a time worth treasuring."),
    "reassure": ("That sounds frightening, and it's okay to feel scared.",
                 "It's normal to worry about that. Take it one step at a time.",
                 "That's a lot to carry. You're handling it better than you think.",
                 "Try not to worry too much. It will be okay.", "Be gentle with yourself, that sounds scary.",
                 "You're not alone in feeling that way. It will pass.",
                 "That's scary, but you are doing all you can.",
                 "Take a deep breath. It's scary, but you'll be okay.",
                 "It makes sense to feel nervous. It will be all right.",
                 "Worrying shows you care. Things may go better than you fear."),
    "validate": ("That sounds really unfair, and your anger makes sense.",
                 "How frustrating. You have every right to be annoyed.",
                 "That is not fair at all. No wonder you are angry.", "Ugh, what an infuriating thing to happen.",
                 "I would be angry too, that is so unfair.", "That's really not okay, and it's fair to be angry.",
                 "Seriously, that's so unfair. I'd be upset too.", "No wonder you're fed up, that's infuriating.",
                 "That's outrageous. Your frustration makes total sense.", "What a rotten thing to do to you."),
    "disgust": ("Yuck, nobody should have to deal with that.", "That's really gross. I'd feel the same.",
                "Eww, that is disgusting.", "Ugh, how gross. I would be disgusted too.",
                "Gross, that would turn my stomach.", "Ew, that's so nasty.",
                "Oh, that's revolting. I'd be grossed out too.", "Blech, I can almost picture it. Gross.",
                "Yikes, that sounds truly disgusting.", "That's vile. No wonder you're grossed out."),
    "ease": ("Don't be too hard on yourself about it.",
             "That's so human. People forget these things faster than you think.",
             "We all do embarrassing things sometimes. It will pass.",
             "Honestly, everyone has a moment like that and feels silly afterwards.",
             "Oh, you're being hard on yourself, it was an honest mistake.",
             "It really happens to everyone, don't worry.", "Honestly, most people won't even remember it.",
             "You can laugh about it one day, I promise.", "Mistakes like that are so common. Go easy on yourself.",
             "That's okay, you can always make it right."),
    "envy": ("That feeling makes sense. It's hard to watch someone else get it.",
             "It is natural to feel a bit envious sometimes.", "Of course you feel jealous, that makes sense.",
             "I get it, it is hard to watch someone else have what you want.",
             "Feeling envious is only human, that stings.", "It's hard not to compare sometimes. That's normal.",
             "Wanting that too makes complete sense.", "Anyone would feel a little jealous in your place.",
             "It's natural to feel envious when someone else has it.",
             "Feeling jealous about that is so understandable."),
    "interest": ("Thank you for telling me. How did it go?", "That sounds interesting. Tell me more.",
                 "Oh, I'd like to hear more about that.", "Nice, how did it go?", "Sounds fun! What happened then?",
                 "Oh, how did that come about?", "Interesting! What was that like?", "Tell me more, I'm curious.",
                 "Huh, what made you decide that?", "That's cool. What happens next?"),
    "acknowledge": ("That's a lot to take in. How do you feel about it?", "Oh, really? How are you taking it?",
                    "Hm, that's quite something. What do you make of it?", "I see. How are you taking it?",
                    "Wow, that's big either way. How are you feeling about it now?",
                    "That's quite a lot. How are you doing with it?", "So how do you feel about all that?",
                    "Oh, that's a big thing. What's going through your mind?", "Hm, how did that leave you feeling?",
                    "That's something. Are you okay with how it went?"),
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
