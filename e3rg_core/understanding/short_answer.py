"""Replies to a short answer given to the listener's own question: "Churro" to "What's your puppy's name?", "Portugal"
to "Where are you headed?". The answer is said back, then a word that fits what was asked ("What a cute name!").

The lite writers ask such questions in most replies, so a visitor's next turn is often one of these answers; read as a
story of its own, a single name tells nothing, and it was met with "Tell me more, I'm curious." Only questions whose
answer is a thing named are answered here, and only on the side the story is on: a comment that cheers is not said
to a story of trouble, where most of these have no fitting word.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from .reflection import to_second_person
from .reflective_writer import asked_sentence

MAX_ANSWER_WORDS = 5
MAX_TURN_WORDS = 12     # an answer with a few words more ("Churro. He's a boxer mix."), not a story after it


@dataclass(frozen=True)
class Slot:
    """A kind of question whose answer is a thing named, and what is said to that answer on each side of the story
    ("good", "bad"; None where no word fits that side), by the story's time where it matters."""
    name: str
    asks: re.Pattern
    good: tuple[str, ...] | dict[str, tuple[str, ...]]
    bad: tuple[str, ...] | dict[str, tuple[str, ...]] | None = None
    # names, titles and places are said back capitalized however they were typed ("black mirror")
    proper: bool = False
    # a subject, a dish, a grade, a breed or a job is a common noun, capitalized only where it began the turn
    # ("Astrophysics"); other one-word answers keep the capital they were typed with ("Portugal" as a plan)
    common: bool = False
    # said only to a glad story: "That sounds lovely!" is no word for where the speaker was when the storm hit
    glad_only: bool = False
    # what an answer must look like to be one: "5th grade", not "the same as his brother"
    shape: re.Pattern | None = None
    # what the story must tell for the word to fit: "Great choice!" only for what the speaker got
    ground: re.Pattern | None = None


_PET = r"dog|puppy|pup|cat|kitten|pet|bird|horse|fish|rabbit|bunny|hamster|parrot|turtle|lizard|snake"
_TITLE = r"movie|film|show|series|book|novel|game|song|band|album|play|musical|concert|artist|singer"
_FOOD = r"food|cake|pie|soup|dish|meal|cookies?|pizza|dessert|cuisine|restaurant|sandwich|pasta|wine|beer|drink"
_PLACE = r"city|country|state|town|place|beach|island|park|hotel|resort|school|college|university"
_FIELD = r"subject|class|course|degree|major|field|phd|masters?"
_CHOSEN = r"car|truck|bike|motorcycle|van|phone|laptop|computer|tv|shoes|dress|ring|watch|camera|guitar"

# In order: the first slot whose question matches is the one answered.
SLOTS: tuple[Slot, ...] = (
    Slot("title", re.compile(rf"\b(?:what|which) (?:\w+ )?(?:{_TITLE})\b|\bwhat (?:are|were) you (?:reading|watching|"
                             rf"playing|listening to)\b|\bwhat was the (?:{_TITLE})\?|\bname of the (?:{_TITLE})\b",
                             re.IGNORECASE),
         {"past": ("How did you like it?", "Did you enjoy it?", "Was it as good as you hoped?"),
          "now": ("How are you liking it?", "How do you like it so far?"),
          "future": ("That should be fun!", "Sounds like a good pick!")}, proper=True),
    Slot("their_name", re.compile(rf"\b(?:{_PET})'s name\b|\bname (?:him|her|it|them)\b|\bwhat(?:'s| is| was) "
                                rf"(?:his|her|its|their) name\b|\bwhat (?:do|did) you call (?:him|her|it|them)\b",
                                re.IGNORECASE),
         ("What a {cute/lovely/great} name!", "I love that name!", "That's such a {cute/sweet} name!"),
         ("What a lovely name. I'm so sorry about {answer}.", "{answer} is such a lovely name. I'm so sorry."),
         proper=True),
    Slot("name", re.compile(r"\bname\?$", re.IGNORECASE),
         ("What a {lovely/great} name!", "I love that name!"), ("That's a lovely name.",), proper=True),
    Slot("breed", re.compile(rf"\b(?:what|which) (?:kind|type|sort|breed) (?:of )?(?:{_PET})\b|\bwhat breed\b",
                             re.IGNORECASE),
         ("I bet your {pet} is {adorable/so cute}!",), common=True, ground=re.compile(
             rf"\b(?:my|our|new|got|adopt\w*|bought|rescued)\b(?: \w+)? (?:{_PET})", re.IGNORECASE)),
    Slot("food", re.compile(rf"\bwhat (?:did|do|are|will|were) you (?:make|making|cook|cooking|bake|baking|eat|eating|"
                            rf"order|ordering|have for (?:dinner|lunch|breakfast))\b|"
                            rf"\b(?:what|which) (?:kind |type |sort )?(?:of )?(?:{_FOOD})\b", re.IGNORECASE),
         ("That sounds {delicious/so good/amazing}!", "Yum, that sounds {delicious/so good}!"), common=True),
    Slot("field", re.compile(rf"\bwhat (?:are you|were you|did you|will you) (?:studying|study|majoring in|major in)\b|"
                             rf"\b(?:what|which) (?:{_FIELD})\b|\b(?:what's|what is|what was) (?:it|your (?:{_FIELD})|"
                             rf"the (?:exam|test|class|quiz|course|degree|phd)) (?:in|for|on)\?|"
                             rf"\b(?:what|which) (?:kind of |type of )?(?:exam|test|quiz|class|course|degree)\b|"
                             rf"\bgetting your \w+ in\?", re.IGNORECASE),
         {"past": ("That sounds {really interesting/fascinating}!", "How interesting!"),
          "now": ("That sounds {really interesting/fascinating}!", "How interesting!"),
          "future": ("{You've got this/I'm sure you'll do great}!", "Good luck, {you've got this/you'll do great}!")},
         {"future": ("That can be a tough one. {I'm sure you'll do great/You've got this}.",
                     "That's a tough {one/subject}. {I'm sure you'll do great/You've got this}."),
          "now": ("That can be a tough one.", "That's a tough {one/subject}."),
          "past": ("That can be a tough one.", "That's a tough {one/subject}.")}, common=True),
    Slot("grade", re.compile(r"\bwhat (?:grade|year)\b", re.IGNORECASE),
         ("That's a big year!", "{What/Such} a fun year!"), common=True,
         shape=re.compile(r"\d|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
                          r"kindergarten|freshman|sophomore|junior|senior|grade|year)\b", re.IGNORECASE)),
    Slot("place", re.compile(rf"^where (?:are|were|did|will|do) you (?:headed|heading|going|go|off to|travel\w*|"
                             rf"stay\w*|fly\w*|located|from|live)\b|\b(?:what|which) (?:{_PLACE})\b", re.IGNORECASE),
         {"future": ("That sounds {amazing/wonderful/like a great trip}!", "Have you been there before?",
                     "Is it your first time there?"),
          "past": ("That sounds {lovely/amazing}!", "What was the best part?"),
          "now": ("That sounds {lovely/amazing}!",)}, proper=True, glad_only=True),
    Slot("company", re.compile(r"^who(?:'s| is| are| was| were)? (?:going|coming|with you)\b|"
                               r"\bwho (?:did|will|are|were) you (?:go|going|went|travel\w*) with\b", re.IGNORECASE),
         ("That sounds like so much fun!", "How fun!", "That sounds {lovely/like a great time}!"), glad_only=True),
    Slot("job", re.compile(r"^what's the job\?|^what will you be doing\?|\b(?:what|which) (?:position|role)\b|"
                           r"\bwhat(?:'s| is| was) (?:the|your new) (?:job|position|role)\b|"
                           r"^what's the (?:interview|offer) for\?|\bwhat kind of (?:job|work|business|project)\b",
                           re.IGNORECASE),
         ("That sounds exciting!", "How exciting!", "That sounds like a great fit!"),
         {"future": ("That sounds like a great {fit/opportunity}. {I'm sure you'll do great/You've got this}.",)},
         common=True),
    Slot("occasion", re.compile(r"^what's the (?:party|celebration|dinner|cake|gift|present) for\?|"
                                r"^what (?:was|is|'s) the occasion\?", re.IGNORECASE),
         ("How fun!", "That sounds {lovely/like so much fun}!"), glad_only=True),
    Slot("highlight", re.compile(r"\b(?:most looking forward to|most excited (?:about|for)|best part|"
                                 r"favou?rite (?:part|thing|moment)|highlight)\b", re.IGNORECASE),
         {"future": ("That sounds {amazing/wonderful/like so much fun}!", "I hope it's {wonderful/amazing}!"),
          "past": ("That sounds {lovely/wonderful/like so much fun}!", "What a {great/lovely} memory!"),
          "now": ("That sounds {lovely/wonderful}!",)}, glad_only=True),
    Slot("plan", re.compile(r"\bhow (?:are you going to|will you|did you|are you gonna|do you plan to) celebrate\b|"
                            r"\bwhat (?:are your plans|do you have planned|will you do to celebrate)\b", re.IGNORECASE),
         ("That sounds {perfect/lovely/like a great way to celebrate}!", "{What a/Such a} {lovely/great} plan!"),
         glad_only=True),
    Slot("choice", re.compile(rf"\b(?:what|which) (?:kind|type|sort|make|model|brand|colou?r) (?:of (?:{_CHOSEN}) )?"
                              rf"(?:is it|was it|did you (?:get|buy|choose|pick))\b", re.IGNORECASE),
         ("{Nice/Great/Good} choice!",), glad_only=True,
         ground=re.compile(r"\b(?:bought|buy|buying|got|getting|picked|chose|purchased|new|treated (?:my|our)sel\w+)\b",
                           re.IGNORECASE)),
)

# What leads an answer before the thing named: "It was called Rampage", "She is in 5th grade", "We're going to Maui"
_LEAD = re.compile(
    r"^(?:(?:oh|well|um+|uh+|hmm+|so|haha|lol|yeah|yes)\W+)*"
    r"(?:(?:I think |I believe |probably |maybe )?(?:it's|it is|it was|its|they're|they are|they were|that's|that was|"
    r"he's|he is|he was|she's|she is|she was)\s+(?:called |named |in )?(?=\S)|"
    r"(?:I think |I believe )?(?:it|they|he|she) (?:is|was|are|were) (?:called|named) |"
    r"(?:his|her|its|their) name(?:'s| is| was) |(?:I|we) (?:named|called) (?:him|her|it|them) |"
    r"(?:I'm|I am|we're|we are) (?:going|headed|flying|driving) to |(?:I|we) (?:went|flew|drove) to |"
    r"(?:I|we) (?:made|cooked|baked|ate|had|got|bought|watched|saw|read|played|ordered) |"
    r"(?:I'm|I am) (?:studying|majoring in) |(?:to|in|with) )?", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:a|an|the|just|some)\b", re.IGNORECASE)
# Not an answer to say back: a doubt, a denial, the speaker themself, a whole story
_NOT_AN_ANSWER = re.compile(r"^(?:about|for|from|of|on|like)\b|n't\b|\b(?:not|no|nothing|none|nope|idk|dunno|sure|"
                            r"know|I|I'm|me|we|us|everything|anything|something|whatever|lot|yes|yeah|ok|okay|"
                            r"and then|because|but)\b|[?,;:]", re.IGNORECASE)
_WORDS = re.compile(r"^[\w'&.-]+(?: [\w'&.-]+)*$")


# "What was it?" asks for the thing the story named: a film watched, a meal made
_ASKS_WHAT_IT_WAS = re.compile(r"^(?:\w+[,!.] )*(?:so |and )?what (?:was|is|were|are) (?:it|they)(?: called)?\?$",
                               re.IGNORECASE)
_NAMED_IN_STORY = (("title", re.compile(rf"\b(?:{_TITLE})s?\b", re.IGNORECASE)),
                   ("food", re.compile(rf"\b(?:{_FOOD}|dinner|lunch|breakfast|baked|cooked)s?\b", re.IGNORECASE)))


def answered_slot(question: str, story: str) -> Slot | None:
    """The kind of thing the listener's question asks to be named, if it asks for one; `story` is what the speaker
    told before, for a question that names no kind ("What was it?")."""
    if _ASKS_WHAT_IT_WAS.search(question):
        name = next((name for name, told in _NAMED_IN_STORY if told.search(story)), None)
        return next((slot for slot in SLOTS if slot.name == name), None)
    return next((slot for slot in SLOTS if slot.asks.search(question)), None)


def answer_phrase(latest: str, slot: Slot) -> str | None:
    """The thing the speaker names in a short answer, as the listener says it back ("your sister" for "My sister."),
    or None where the turn is more than such an answer."""
    if len(latest.split()) > MAX_TURN_WORDS:
        return None
    first = re.split(r"(?<=[.!?])\s+", latest.strip())[0]
    phrase = _LEAD.sub("", first.strip()).strip(" .!")
    phrase = re.sub(r"\s+(?:haha\w*|lol|lmao)$", "", phrase, flags=re.IGNORECASE)
    if (not phrase or len(phrase.split()) > MAX_ANSWER_WORDS or not _WORDS.match(phrase)
            or _NOT_AN_ANSWER.search(phrase) or slot.shape is not None and not slot.shape.search(phrase)):
        return None
    phrase = to_second_person(phrase)
    if slot.proper and phrase.islower():
        return phrase.title()
    if re.fullmatch(r"[A-Z][a-z']+(?: [a-z'-]+)*", phrase) and (slot.common or " " in phrase):
        # a word capitalized only because it began the turn: "Astrophysics", "Dinner with my wife"
        return phrase[0].lower() + phrase[1:]
    return _ARTICLE.sub(lambda m: m.group().lower(), phrase)


def _one_way(text: str, rng: random.Random) -> str:
    return re.sub(r"\{([^{}]*/[^{}]*)\}", lambda m: rng.choice(m.group(1).split("/")), text)


def named_answer(asked: str, story: str, latest: str) -> tuple[Slot, str] | None:
    """The kind of thing the listener's latest turn asked to be named and the thing the speaker's latest turn names
    (as the listener says it back), where the turn is such an answer and no more; `story` is what the speaker told
    before it."""
    slot = answered_slot(asked_sentence(asked), story) if asked.rstrip().endswith("?") else None
    if slot is None or (phrase := answer_phrase(latest, slot)) is None:
        return None
    return slot, phrase


def answer_reply(slot: Slot, phrase: str, asked: str, story: str, side: str | None, time: str,
                 history_questions: list[str], rng: random.Random) -> str | None:
    """The answer said back and a word for it ("Aw, Churro! What a cute name!"), or None where no word fits. `side` is
    the story's ("good", "bad" or None for neither), `time` its time ("past", "now", "future", "long_ago"), `story`
    what it told before the answer; `history_questions` the listener's questions before, so that none is asked
    again."""
    if slot.glad_only and side != "good" or slot.ground is not None and not slot.ground.search(story):
        return None
    words = slot.bad if side == "bad" else slot.good
    if isinstance(words, dict):
        words = words.get("past" if time == "long_ago" else time)
    asked_before = " ".join(history_questions).lower()
    lines = [line for line in words or () if not (line.endswith("?") and line.lower().rstrip("?") in asked_before)]
    if not lines:
        return None
    comment = _one_way(rng.choice(lines), rng)
    if "{pet}" in comment:
        # the breed's ground names the pet in the story, so one is found
        pet = re.search(rf"\b(?:{_PET})\b", f"{asked} {story}", re.IGNORECASE)
        comment = comment.replace("{pet}", pet.group().lower())
    if "{answer}" in comment:
        return comment.replace("{answer}", phrase[0].upper() + phrase[1:] if comment.startswith("{answer}") else phrase)
    if side == "bad":
        return f"Ah, {phrase}. {comment}"
    opener = rng.choice(("Ooh", "Oh", "Aw") if slot.name in ("their_name", "breed", "grade", "name") else ("Ooh", "Oh"))
    return f"{opener}, {phrase}! {comment}"
