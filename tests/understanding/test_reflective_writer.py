"""The lite tier's reflective writer on the real lite vote (the three text voters) for turns written for these
tests: the stance a death, an illness and a success call for, replies that keep the turn's facts the right way
round, nothing invented, and the length limits."""
from __future__ import annotations

import re

import pytest
from support.dialogues import said

from e3rg_core.understanding import reflective_writer
from e3rg_core.understanding.reflective_writer import (FRAMES, MAX_SPOKEN_SECONDS, MAX_WORDS, ReflectiveReplyWriter,
                                                       spoken_seconds)
from e3rg_core.understanding.template_writer import TEMPLATES

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CHEER = re.compile(r"congratulat|\bglad\b|wonderful|amazing|great news|fantastic|brilliant|thrilled|proud|"
                   r"exciting|lovely|celebrat", re.I)
SORROW = re.compile(r"\bsorry\b|heartbreaking|worrying|so hard|must hurt|holding up|coping", re.I)
DEATH_WORDS = re.compile(r"\bloss\b|passed|grief|miss most|remember most", re.I)


@pytest.fixture(scope="module")
def reply(text_vote):
    writer = ReflectiveReplyWriter()

    def write(*utterances: str) -> str:
        request = said(*utterances)
        return "".join(writer.write(request, text_vote(request), 64))
    return write


def test_the_same_turn_gets_the_stance_of_what_happened(reply):
    """One sentence frame, three events: condolences for a death, concern (not condolences) for an illness, and
    gladness for a success, whatever each vote's fine label."""
    death = reply("My grandmother passed away last night.")
    illness = reply("My grandmother has been sick in the hospital all week.")
    success = reply("My grandmother won first prize at the county fair last night!")
    print(death, illness, success, sep="\n")
    assert re.search(r"\bsorry\b", death) and not CHEER.search(death)
    assert SORROW.search(illness) and not CHEER.search(illness) and not DEATH_WORDS.search(illness)
    assert CHEER.search(success) and not SORROW.search(success)


@pytest.mark.parametrize("turn", [
    "My dog died this morning and I keep looking at his bed.",
    "My dad was diagnosed with cancer last week.",
    "We had to put our old cat to sleep yesterday.",
])
def test_a_death_or_illness_outranks_the_label(reply, turn):
    answer = reply(turn)
    assert SORROW.search(answer) and not CHEER.search(answer), answer


def test_recovery_is_not_met_with_condolences(reply):
    answer = reply("My dad was in the hospital for a month, but he is doing better now.")
    assert not re.search(r"\bsorry\b", answer), answer


# Hand-checked turns: who did what to whom must stay the right way round when the reply says it back. Each names
# what the reply must say (None: it may also fall back on a written reply, which names nothing) and what would
# turn the facts around. All 12 pass at the commit that added them (docs/lite_replies.md).
FACTS = [
    ("Someone cut in front of me in a two-hour queue and the staff did nothing.",
     "someone cut in front of you", r"\byou cut\b|staff (had to )?cut"),
    ("My landlord kept my whole deposit for a scratch that was there when I moved in.",
     "your landlord kept your whole deposit", r"\byou kept\b"),
    ("My sister beat me at chess for the first time.", "your sister beat you", r"\byou beat\b"),
    ("I lent my brother money and he never paid me back.", "you lent your brother money",
     r"your brother lent|you never paid"),
    ("My son broke his arm at football practice.", "your son broke his arm", r"\byou broke\b"),
    ("My best friend forgot my birthday again this year.", "your best friend forgot your birthday",
     r"\byou forgot\b"),
    ("My neighbour brought me soup when I had the flu.", "your neighbour brought you soup", r"\byou brought\b"),
    ("My husband surprised me with tickets to Paris for our anniversary.", "your husband surprised you",
     r"\byou surprised\b"),
    ("My cat knocked my phone into the bath.", "your cat knocked your phone", r"\byou knocked\b"),
    ("The bus left without me even though I was waving at the driver.", "the bus left without you",
     r"\byou left\b"),
    ("We lost the final by one point.", "you lost the final", r"\byou won\b"),
    ("My dog has been sick all week and the vet still doesn't know what's wrong.", "your dog has been sick",
     r"\byou('ve| have) been sick"),
]


@pytest.mark.parametrize("turn, keeps, reverses", FACTS)
def test_facts_stay_the_right_way_round(reply, turn, keeps, reverses):
    answer = reply(turn)
    assert keeps.lower() in answer.lower(), answer
    assert not re.search(reverses, answer, re.I), answer


def _vocabulary() -> set[str]:
    """Every word the writer may add of its own: its frames, follow-ups, questions and written replies."""
    texts = [*(t for f in FRAMES.values() for t in (*f.lead, *f.follow, *f.feeling_lead, *f.other_lead)),
             *(q for qs in reflective_writer._PERSON_QUESTIONS.values() for q in qs),
             *reflective_writer._ASKED_BACK, *reflective_writer._GREETINGS, *reflective_writer._DOING_WELL,
             *(t for kind in reflective_writer._IN_KIND
               for t in (*kind.openings, *kind.follow_ups, *kind.follow_ups_once_told)),
             *(t for ts in TEMPLATES.values() for t in ts), *reflective_writer._PEOPLE, "you", "your", "yours",
             "yourself", "yourselves", "you're", "you've", "you'll", "you'd", "are", "were", "weren't"]
    return {w for text in texts for w in re.findall(r"[a-z']+", text.lower())}


@pytest.mark.parametrize("turns", [
    ("I spilled coffee all over my boss's desk this morning.",),
    ("I can't stop thinking about the interview tomorrow.",),
    ("My girlfriend is moving in this weekend. It will be great finally living together.",),
    ("Do you have any pets?",),
    ("hello",),
    ("I got a puppy last week!", "Aw, what kind of puppy?", "A little beagle. She chews everything, honestly."),
    *((turn,) for turn, _, _ in FACTS),
])
def test_nothing_is_invented(reply, turns):
    """Each word of a reply is the speaker's own (said back) or one of the writer's own reactions: no fact, no
    offer, no story of the listener's is added, and it keeps to 25 words and under 8 s of speech."""
    answer = reply(*turns)
    speaker = {w for t in turns[::2] for w in re.findall(r"[a-z']+", t.lower().replace("_comma_", ","))}
    added = set(re.findall(r"[a-z']+", answer.lower())) - speaker - _vocabulary()
    assert not added, (answer, added)
    assert len(answer.split()) <= MAX_WORDS and spoken_seconds(answer) <= MAX_SPOKEN_SECONDS
    assert not re.search(r"\bI can (give|help|offer|send|get)\b|\blet me\b|\bI'll\b|\bI will\b|\bI had\b|"
                         r"\bmy (wife|husband|dog|cat|mom|dad)\b", answer)


def test_a_question_to_the_listener_is_not_ignored(reply):
    answer = reply("I love hiking in the mountains. Do you like hiking?")
    assert re.search(r"question|your (own )?(side|take)|about (you|yours)\b", answer, re.I), answer


def test_turns_of_one_conversation_do_not_repeat_an_opening(reply):
    first = reply("I failed my driving test today.")
    second = reply("I failed my driving test today.", first, "I failed my driving test again today.")
    assert first.split()[:3] != second.split()[:3], (first, second)

