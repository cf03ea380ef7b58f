"""The lite writer's judge: what is wrong with a candidate reply to the speaker's turn (assistant talk,
the wrong stance, a story of the listener's own, facts the speaker never gave, none of their words taken up)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..contracts import Utterance
from ..metrics import opening
from .listener_writing import load_writing
from .prompts import FITTING_SHARE, ListenerStance, stance_fit
from .template_writer import TEMPLATES

MIN_REPLY_WORDS = 4         # "I get it." says nothing about what the speaker told
# Words of its own a reply that takes up none of the speaker's may use. Of the 136 such replies among 371 on ED
# valid, those with none or one ("Oh dear, that sounds really heartbreaking.") were nearly all plain reactions;
# most with two or more wandered off ("What brings you to our little corner of the world?").
OFF_TOPIC_WORDS = 1

# What a listener does not say. Each was seen in SmolLM2's replies to ordinary turns.
ASSISTANT_TALK = re.compile(
    r"\b(how|what) can i (help|assist|do for)|\bhelp you with\b|\bhere to help\b|\bassist(ance)?\b|\bas an ai\b"
    r"|\bnot here to\b|\blet me know\b|\bfeel free\b|\bdon'?t hesitate\b|\breach out\b|\bi('ll| will) make sure\b"
    r"|\bi can (give|arrange|offer|send|get|provide|find|book|help)\b|\bhappy to help\b|\bany (more )?questions\b",
    re.IGNORECASE)
_CONDOLENCES = re.compile(r"\bsorry\b|\bcondolence|\byour loss\b|\bpassed away\b|\brest in peace\b", re.IGNORECASE)
_CHEER = re.compile(r"\bcongratulat|\bglad\b|\bhappy for you\b|\b(that'?s|sounds|how) (so )?(great|wonderful|"
                    r"awesome|amazing|fantastic|exciting)\b|\bgood for you\b|\bwell done\b"
                    # said alone too, in replies that should hedge: "Ah, wonderful!", "Whoa, I love it!"
                    r"|\b(wonderful|awesome|fantastic|great news|i (just )?love (it|that))\b", re.IGNORECASE)
# Puzzlement at a plain turn ("Wait, what does that say?"), which the openers of the hedging stance invite.
_PUZZLED = re.compile(r"\bwhat('s the problem| (do you mean|are you talking about|does that say|exactly did you say|"
                      r"kind of excuse))\b|\bhow does that sound\b|\bwhere do i (even )?(begin|start)\b",
                      re.IGNORECASE)
# The listener telling its own story is a made-up fact.
SELF_STORY = re.compile(r"\b(my|our) (own |little |old |best |dear )?(wife|husband|son|daughter|kids?|children|"
                         r"mom|mum|mother|dad|father|parents?|brother|sister|family|dog|cat|pet|friend|boss|job|"
                         r"house|car)\b|\bi (had|have had|got|went|lost|used to|once|remember when)\b"
                         r"|\b(happened|happens) to me\b|\bremember when\b"
                         # what the listener is doing ("that thing I'm driving"); not its thoughts about the speaker
                         r"|\bi(?:'m| am) (?!(?:hoping|guessing|thinking|wondering|betting|rooting|imagining|"
                         r"picturing|smiling|cheering|loving|feeling|sending|getting (?:chills|goosebumps))\b)"
                         r"[a-z]+ing\b", re.IGNORECASE)
# "your X" where X is something the speaker never mentioned is a made-up fact ("my heart goes out to your family"
# for a dog); these are what any listener may name without being told.
_ANYONE_HAS = frozenset(
    "life time times day days feelings feeling heart mind best way own side turn hard effort efforts work self "
    "health story news plans future dream dreams goals experience situation point thoughts place shoes chance "
    "chances moment moments fault decision choice reaction patience courage strength hands head eyes "
    "accomplishment achievement success progress skills talent kindness attitude voice words plate memory "
    "memories past goal well-being journey hopes worries fears emotions needs".split())
_STOPWORDS = frozenset(
    "a an the and or but so if then than that this these those it its it's i i'm i've i'll me my mine you you're "
    "your yours he she him her his they them their we us our is am are was were be been being do does did have has "
    "had will would can could should may might must not no yes to of in on at by for with from up down out over "
    "about into just really very too also what which who whom when where why how all any some more most much many "
    "such only own same other there here now well oh wow yeah sure get got go going went make made know think feel "
    "felt like one lot things thing time day today first before try help want wanted old new".split())


def content_words(text: str) -> set[str]:
    """Lower-cased words that carry meaning, a plural 's' dropped, so 'exams' meets 'exam'."""
    words = re.findall(r"[a-z][a-z'-]+", text.lower())
    return {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words if w not in _STOPWORDS}


@dataclass(frozen=True)
class Judgement:
    """A candidate reply with what was found in it."""
    text: str
    fit: float | None           # stance_fit of the head's reading; None when no head is loaded
    problems: tuple[str, ...]

    @property
    def acceptable(self) -> bool:
        return not self.problems and (self.fit is None or self.fit >= FITTING_SHARE)


def judge(text: str, stance: ListenerStance, history: tuple[Utterance, ...], head=None,
          shots: tuple[tuple[str, str], ...] = ()) -> Judgement:
    """What is wrong with a finished candidate reply that should meet the speaker with `stance`, written after the
    example exchanges `shots`."""
    problems = []
    if not text:
        return Judgement(text, None, ("no whole sentence",))
    if len(text.split()) < MIN_REPLY_WORDS:
        problems.append("too short to answer anything")
    if ASSISTANT_TALK.search(text):
        problems.append("assistant talk")
    if not stance.condolences and _CONDOLENCES.search(text):
        problems.append("condolences where nothing was lost")
    if not stance.cheer and _CHEER.search(text):
        problems.append("cheer at bad news")
    if SELF_STORY.search(text):
        problems.append("a story of its own")
    if _PUZZLED.search(text):
        problems.append("puzzled by a plain turn")
    speaker_words = " ".join(u.utterance for u in history if u.role == "speaker")
    if set(re.findall(r"\d+", text)) - set(re.findall(r"\d+", speaker_words)):
        problems.append("a number the speaker never gave")
    said_before = {opening(u.utterance) for u in history if u.role == "listener"}
    if opening(text) in said_before:
        problems.append("an opening already used")
    words = re.findall(r"[a-z']+", text.lower())
    trigrams = [tuple(words[i:i + 3]) for i in range(len(words) - 2)]
    if len(set(trigrams)) < len(trigrams):
        problems.append("repeats itself")
    dialogue = content_words(" ".join(u.utterance for u in history))
    if any(named and named.isdisjoint(dialogue | _ANYONE_HAS)
           for named in map(content_words, re.findall(r"\byour ((?:[\w']+ )?[\w']+)", text.lower()))):
        problems.append("names something of theirs they never mentioned")
    # What an example reply picked up from its speaker (the mountains, the grey cat) is what gets copied.
    details = set().union(*(content_words(speaker) & content_words(listener) for speaker, listener in shots))
    if content_words(text) & (details - dialogue):
        problems.append("a detail from an example")
    # A reply that takes up none of the speaker's words may still react ("No wonder you're upset."), but when it
    # says more, in words the project's own replies never react with, it has gone somewhere of its own: "a wrong
    # turn ... their wallet on that thing I'm driving" for a keyed car. A turn with no words of substance ("Yes,
    # it was.") has nothing to take up.
    said, own = content_words(speaker_words), content_words(text)
    if said and own.isdisjoint(said) and len(own - reaction_words()) > OFF_TOPIC_WORDS:
        problems.append("off the speaker's topic, in words of its own")
    fit = stance_fit(head.read_text(text), stance) if head is not None else None
    return Judgement(text, fit, tuple(problems))


@lru_cache(maxsize=1)
def reaction_words() -> frozenset[str]:
    """The content words the project's own replies react with (every stance's openers, example replies and
    templates), and what any listener may name: the words a reply needs to react without inventing anything."""
    writing = load_writing().values()
    texts = [*(o for w in writing for o in w.openers), *(reply for w in writing for _, reply in w.exchanges),
             *(t for templates in TEMPLATES.values() for t in templates)]
    return frozenset(_ANYONE_HAS).union(*map(content_words, texts))
