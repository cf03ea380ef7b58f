"""Saying the speaker's clause back: which clause is taken, and the person and verb conversion."""
from __future__ import annotations

import pytest

from e3rg_core.understanding.reflection import reflect, tidy, to_second_person


@pytest.mark.parametrize("first, second", [
    ("I was late", "you were late"),
    ("I am so tired", "you are so tired"),
    ("I'm moving next week", "you're moving next week"),
    ("I wasn't invited", "you weren't invited"),
    ("we were caught", "you were caught"),
    ("my boss yelled at me", "your boss yelled at you"),
    ("I've lost our keys", "you've lost your keys"),
    ("my friend and I missed the show", "you and your friend missed the show"),
    ("someone cut in front of me", "someone cut in front of you"),
    ("I hurt myself", "you hurt yourself"),
    ("she was there when I was", "she was there when you were"),
])
def test_second_person(first, second):
    assert to_second_person(first) == second


def test_ed_typing_is_tidied():
    assert tidy("i cant believe im here_comma_ honestly") == "I can't believe I'm here, honestly"
    assert tidy("Today,as i was leaving") == "Today, as I was leaving"


@pytest.mark.parametrize("turn, clause", [
    ("My grandmother passed away last night. I keep thinking about her kitchen.",
     "your grandmother passed away last night"),
    ("Yeah, I got the job offer from the hospital I interviewed at last month!",
     "you got the job offer from the hospital you interviewed at last month"),
    ("Last week, my girlfriend invited me to meet her parents.",
     "last week, your girlfriend invited you to meet her parents"),
    ("I know I got this job, just waiting for the confirmation.", "you got this job"),
    ("So all my friends went on vacation last week :(", "all your friends went on vacation last week"),
    # too long whole: cut at a clause boundary, never kept from a part after "if" (not something that happened)
    ("I applied to my top college today and I'm hoping to hear back very soon if I got accepted.",
     "you applied to your top college today and you're hoping to hear back very soon"),
    ("If I get accepted, I will move to Boston.", "you will move to Boston"),
])
def test_the_news_is_taken(turn, clause):
    found = reflect(turn)
    assert found is not None and found.clause == clause


@pytest.mark.parametrize("turn", [
    "hello",
    "Do you have any kids?",                                    # a question
    "You should try it, you would love it.",                     # said to the listener
    "It was a long day.",                                        # nothing of the speaker's own
    # too long to say back, and nowhere to cut it
    "I spent the whole long afternoon at my grandmother's old house in the countryside sorting through boxes of "
    "letters",
])
def test_nothing_is_said_back_unsafely(turn):
    assert reflect(turn) is None


def test_feelings_are_marked():
    assert reflect("I was so nervous before the exam").feeling
    assert not reflect("I passed the exam").feeling
