"""Real listeners' replies from EmpatheticDialogues, chosen per turn: the lite writer's most natural words.

The bank (LISTENER_BANK.md) holds the replies ED's crowd listeners gave in the 2,470 valid conversations outside
the frozen dev slice, each keyed by an embedding of what it answered and labelled with the stance its situation
called for. For a new turn the bank offers the replies to the most similar turns, and keeps only one that could
have been said to this speaker: the same kind of stance, the right tone, no listener story or offer, and no word
that is neither in this conversation nor one listeners say about anything (so "I'm sorry about your dog" never
answers a cat). Whatever it returns was written by a person; nothing is changed but its typing.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..contracts import Utterance
from ..errors import CheckpointMismatchError
from ..metrics import opening
from .reflection import tidy

BANK_FILE = Path(__file__).with_name("listener-replies-ed-valid.npz")
FORMAT = "e3rg-listener-bank/1"
MAX_WORDS = 25
TURN_WEIGHT = 0.6           # the latest speaker turn against all the speaker said, in the key
CANDIDATES = 1500           # the nearest keys looked through: few replies fit a turn they were not written for
SAME_STANCE_BONUS = 0.1
SAME_FAMILY_BONUS = 0.05
SHARED_WORD_BONUS = 0.08    # per word of the turn the reply takes up (two at most): specifics beat similarity
SAME_POSITION_BONUS = 0.03  # an opening reply for an opening turn, a later one for a later turn
# A reply that takes up nothing of this conversation fits many turns, and so would answer many of them alike: a
# short one ("I can understand that.") is filler and is not said at all, a longer one ranks lower.
FILLER_WORDS = 6
GENERIC_PENALTY = 0.08
MIN_SIMILARITY = 0.3        # below it the nearest story is another story: the reflective writer answers
CLOSE_SCORES = 0.1         # how far below the best a reply may score and still take its turn
SHORTLIST = 6

# Stances whose replies can stand in for each other: worry fits an illness, sympathy for sadness fits a worry.
# A death takes only replies written for a death.
FAMILY = {"loss": "grief", "illness": "ill", "comfort": "sad", "reassure": "worry", "validate": "anger",
          "disgust": "anger", "ease": "shame", "envy": "envy", "celebrate": "glad", "appreciate": "glad",
          "reminisce": "glad", "relief": "glad", "look_forward": "hope", "surprise": "open", "interest": "open",
          "acknowledge": "open"}
_NEGATIVE = {"grief", "ill", "sad", "worry", "anger", "shame", "envy"}
_NEAR = {("sad", "grief"), ("ill", "worry"), ("worry", "ill"), ("ill", "sad"), ("sad", "worry"),
         ("worry", "sad"), ("anger", "sad"), ("sad", "anger"), ("shame", "sad"), ("glad", "hope"), ("hope", "glad")}

# What a reply may not say to someone it was not written for.
_STORY_OR_OFFER = re.compile(
    r"\b(?:i|we)\s+(?:had|have had|was|were|did|went|got|used to|remember|once|lost|have|'ve|also|too|just|"
    r"recently|love to|like to|always|never|really|hate|think i|wish i)\b|\b(?:my|mine|ours?|us|me)\b|"
    r"\bhappened to me\b|\bi'm (?:a|an|so)\b|\bsame\b|\bi know\b|\bi agree\b|\blet me\b|\bi can help\b|\bi'll\b|"
    r"\bwant me\b|\bi could\b|\bi would\b|\bi'd (?:love|like)\b|\b(?:lol|haha|hah|lmao)\b", re.IGNORECASE)
_CRUDE = re.compile(r"\b(?:fuck\w*|shit\w*|damn|hell|crap|ass|bitch\w*|dick|piss\w*|sucks?)\b", re.IGNORECASE)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}")
_CHEER = re.compile(r"\b(?:awesome|congrat\w*|great|glad|happy|wonderful|amazing|cool|nice|fun|exciting|lucky|yay|"
                    r"good for|proud|love|sweet|fantastic|excellent|beautiful|lovely)\b", re.IGNORECASE)
_SORROW = re.compile(r"\b(?:sorry|awful|terrible|horrible|sad|hard|tough|rough|bummer|poor|scary|unfortunate|"
                     r"oh no|worst|frustrat\w*|annoy\w*|terrif\w*|hurt|pain|upset|stressful|difficult)\b",
                     re.IGNORECASE)
_DEATH_WORDS = re.compile(r"\b(?:loss|pass(?:ed)?|died|death|rip|funeral|condolences)\b", re.IGNORECASE)
# A reply that answers ("Yes, ...", "Okay."), leans on what came before ("That's good, you should.", "you too") or asks
# what the speaker has just told only fits its own talk.
_ANSWER = re.compile(r"^\W*(?:yes|no|not really|yeah|yea|yep|nope|exactly|true|agreed?|me neither|i do|i don't|"
                     r"okay|ok|alright)\b|\b(?:should|could|would|can|will|do|did|you too|well too|as well)\W*$",
                     re.IGNORECASE)
_ASKS_WHAT = re.compile(r"what happened|what was it\b|why is that|why\?", re.IGNORECASE)
_PRONOUNS = tuple(re.compile(p, re.IGNORECASE) for p in (r"\b(?:he|him|his)\b", r"\b(?:she|her|hers)\b",
                                                          r"\b(?:they|them|their)\b"))
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
# Function words: said about anything, so never a sign that a reply takes up what the speaker said.
_FUNCTION_WORDS = frozenset("""a an the and or but if so as of at by for with about into on in to from up down out
over under then than when where why how all any both each more most other some such no nor not only own same too
very can will just should now i me my we our you your he him his she her it its they them their what which who this
that these those am is are was were be been being have has had do does did would could might must may it's that's
i'm you're he's she's they're we're i've you've i'd you'd i'll you'll isn't aren't wasn't weren't don't didn't
won't can't couldn't there there's here what's oh well yes yeah""".split())


def stem(word: str) -> str:
    """A crude stem, enough to match "dogs" with "dog" and "scared" with "scare"."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in _WORD.findall(text.lower()))


def speakable(reply: str) -> bool:
    """Whether a listener's reply could be said to another speaker at all: short, no story of the listener's own,
    no offer, no name, nothing crude."""
    words = len(reply.split())
    return 3 <= words <= MAX_WORDS and not (_STORY_OR_OFFER.search(reply) or _CRUDE.search(reply)
                                            or _NAME.search(reply.strip()))


def neat(reply: str) -> str:
    """ED's typing made plain: "i" -> "I", "thats" -> "that's", a capital after each sentence end, an end mark."""
    text = re.sub(r"\b[A-Z]{2,}\b(?<!\bOK)", lambda m: m.group().lower(), tidy(reply))    # "OH. That's"
    text = re.sub(r"\b(?:its|youre|u)\b", lambda m: {"its": "it's", "youre": "you're", "u": "you"}[m.group()], text)
    text = re.sub(r"\s+([.!?,])", r"\1", text)
    text = re.sub(r"([.!?])[.!?]+", r"\1", text)
    text = re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
    return text if text[-1:] in ".!?" else text + "."


def tone_fits(reply: str, family: str, bad_news: bool, good_news: bool) -> bool:
    """No cheer at bad news (not even "glad you're better": the relief stance answers a turn that says so), no
    sorrow at good news; where the stance is open, cheer or sorrow only for news of that kind in the turn."""
    cheers = _CHEER.search(reply)
    if family in _NEGATIVE and cheers:
        return False
    if family in ("glad", "hope") and _SORROW.search(reply):
        return False
    return not (family == "open" and ((cheers and not good_news) or (_SORROW.search(reply) and not bad_news)))


def fits_turn(reply: str, history: tuple[Utterance, ...], latest: str, stance: str) -> bool:
    """Whether the reply makes sense after this conversation: it asks nothing the speaker has just told, answers
    no question, speaks of a death only after one, and names no he, she or they the conversation lacks."""
    said = " ".join(u.utterance for u in history)
    if _ASKS_WHAT.search(reply) and len(latest.split()) >= 8:
        return False
    if (_DEATH_WORDS.search(reply) and stance != "loss") or _ANSWER.search(reply):
        return False
    if len(reply.split()) < 4 and "?" in reply:
        return False
    return all(pronoun.search(said) or not pronoun.search(reply) for pronoun in _PRONOUNS)


_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


def without_stray_questions(reply: str, specific: frozenset[str]) -> str | None:
    """The reply without the questions that take up nothing the speaker said ("Where did you go?" was asked about
    another story); None when nothing but such questions is left."""
    kept = [s.strip() for s in _SENTENCE.findall(reply)
            if s.strip() and ("?" not in s or (stems(s) & specific))]
    return " ".join(kept) if kept else None


@dataclass(frozen=True)
class BankedReply:
    text: str
    stance: str                 # the stance the answered turn called for (situation_stance at its gold label)
    opening_turn: bool          # it answered the conversation's first turn
    words: frozenset[str]       # its stems


class ListenerBank:
    """ED listeners' replies keyed by what they answered (unit vectors from situation_voter.SentenceEncoder)."""

    def __init__(self, keys: np.ndarray, replies: list[BankedReply], generic: frozenset[str]):
        self.keys, self.replies, self.generic = keys, replies, generic
        self.function_words = frozenset(stem(w) for w in _FUNCTION_WORDS)

    @classmethod
    def load(cls, path: Path = BANK_FILE) -> ListenerBank:
        with np.load(path, allow_pickle=False) as data:
            if str(data["format"]) != FORMAT:
                raise CheckpointMismatchError(f"{path.name} is not a listener bank of format {FORMAT}.")
            keys = data["keys"].astype(np.float32)
            texts, stances, opening = data["replies"], data["stances"], data["opening_turn"]
            generic = frozenset(str(w) for w in data["generic"])
        if not (len(keys) == len(texts) == len(stances) == len(opening)) or keys.shape[1:] != (384,):
            raise CheckpointMismatchError(f"{path.name}: its arrays disagree in length or width.")
        replies = [BankedReply(str(t), str(s), bool(o), stems(str(t))) for t, s, o in zip(texts, stances, opening)]
        return cls(keys, replies, generic)

    def choose(self, key: np.ndarray, history: tuple[Utterance, ...], stance: str, news: tuple[bool, bool],
               used_openings: set[tuple[str, ...]] = frozenset()) -> str | None:
        """The best-fitting reply for a turn whose key is `key`, whose situation calls for `stance` and whose latest
        words tell (bad news, good news); None when no near reply fits."""
        speaker = [u.utterance for u in history if u.role == "speaker"]
        latest = speaker[-1] if speaker else ""
        family = FAMILY[stance]
        allowed = self.generic | frozenset().union(*(stems(u.utterance) for u in history))
        plain = self.generic | self.function_words
        specific = stems(latest) - plain
        specific_in_talk = allowed - plain
        opening_turn = len(speaker) == 1
        similarity = self.keys @ key
        scored = []
        for index in np.argsort(-similarity)[:CANDIDATES]:
            reply = self.replies[index]
            their = FAMILY[reply.stance]
            if not (their == family or (family, their) in _NEAR or family == "open"):
                continue
            if not reply.words <= allowed or not tone_fits(reply.text, family, *news):
                continue
            if not fits_turn(reply.text, history, latest, stance):
                continue
            text = without_stray_questions(reply.text, specific_in_talk)
            if text is None:
                continue
            if opening(text) in used_openings:
                continue
            shared = len(reply.words & specific_in_talk)
            if not shared and len(text.split()) < FILLER_WORDS:
                continue
            score = (similarity[index] + SAME_STANCE_BONUS * (reply.stance == stance)
                     + SAME_FAMILY_BONUS * (their == family) + SHARED_WORD_BONUS * min(2, len(reply.words & specific))
                     + SAME_POSITION_BONUS * (reply.opening_turn == opening_turn) - GENERIC_PENALTY * (not shared))
            scored.append((score, similarity[index], text))
        ranked = sorted(scored, reverse=True)
        if not ranked or ranked[0][1] < MIN_SIMILARITY:
            return None
        # The few best replies take turns: a reply near the middle of many stories ("I can understand that.") would
        # otherwise win for a third of all turns.
        shortlist, seen = [], set()
        for score, _, text in ranked:
            said = neat(text)
            if said.lower() not in seen and score >= ranked[0][0] - CLOSE_SCORES:
                shortlist.append(said)
                seen.add(said.lower())
            if len(shortlist) == SHORTLIST:
                break
        return random.Random(" ".join(u.utterance for u in history)).choice(shortlist)


def key_texts(history: tuple[Utterance, ...]) -> tuple[str, str]:
    """What a conversation's key embeds: its latest speaker turn, and everything the speaker said."""
    speaker = [u.utterance for u in history if u.role == "speaker"] or [""]
    return speaker[-1], " ".join(speaker)


def turn_key(latest: np.ndarray, joined: np.ndarray) -> np.ndarray:
    """The bank's key from the embeddings of key_texts."""
    key = TURN_WEIGHT * latest + (1 - TURN_WEIGHT) * joined
    return key / np.linalg.norm(key)


@lru_cache(maxsize=1)
def shared_bank() -> ListenerBank:
    return ListenerBank.load()
