"""Short answers to the listener's own questions (short_answer), as the lite writer meets them on the real lite vote:
the thing named said back with a word that fits the question and the story's side, and nothing else taken for one."""
from __future__ import annotations

import re

import pytest
from support.dialogues import said

from e3rg_core.understanding.reply_ranker import ReplyRanker
from e3rg_core.understanding.short_answer import answer_phrase, answered_slot
from e3rg_core.understanding.topic_writer import TopicReplyWriter

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CHEER = re.compile(r"congrat|wonderful|amazing|(?<!do )great|fantastic|awesome|exciting|\bfun\b|\bnice\b|\byay\b|"
                   r"so good|delicious|choice|interesting|fascinating|cute", re.I)


@pytest.fixture(scope="module")
def reply(text_vote):
    writer = TopicReplyWriter(ranker=ReplyRanker.from_pretrained())

    def write(*utterances: str) -> str:
        request = said(*utterances)
        return writer.reply(request, text_vote(request))[0]
    return write


# The lite writer's own questions (FRAMES), a glad or a troubled story before them, and a visitor's answer.
GLAD_ANSWERS = (
    (("We just got a new puppy!", "What wonderful news! What's your puppy's name?", "Churro"),
     r"^\w+, Churro! .*name"),
    (("We just got a new puppy!", "Aw, how exciting! What kind of dog is it?", "A golden retriever"),
     r"^\w+, a golden retriever! I bet your (?:puppy|dog) is"),
    (("I'm going on vacation next week!", "Ooh, how exciting! Where are you headed?", "portugal"),
     r"^\w+, Portugal! "),
    (("I finally finished my PhD!", "Congratulations! What was it in?", "Astrophysics"),
     r"^\w+, astrophysics! "),
    (("I made dinner for my whole family tonight.", "Aw, that's nice! What did you make?", "Lasagna"),
     r"^\w+, lasagna! .*(?:delicious|good|amazing)"),
    (("I watched a great movie last night.", "Oh nice! What was it called?", "It was called Inception."),
     r"^\w+, Inception! .*\?$"),
    (("I'm going on a trip to the mountains next month!", "Fun! Who's going with you?", "My sister and her kids"),
     r"^\w+, your sister and her kids! "),
    (("I bought a new car today!", "Oh nice! What kind of car is it?", "A Honda Civic"),
     r"^\w+, a Honda Civic! .*choice"),
    (("I'm going to Hawaii next week!", "Ooh, how exciting! What are you most looking forward to?",
      "The beaches and the food"), r"^\w+, the beaches and the food! "),
    (("I got a promotion at work!", "Congratulations! How are you going to celebrate?", "Dinner with my wife"),
     r"^\w+, dinner with your wife! "),
)


@pytest.mark.parametrize("dialogue, expected", GLAD_ANSWERS)
def test_a_short_answer_to_a_glad_story_is_said_back_with_a_word_that_fits(reply, dialogue, expected):
    """Before, each of these met "Tell me more, I'm curious. How do you feel about it?" or a cheer for nothing
    ("Ooh, how fun! What a lovely feeling." to "A golden retriever")."""
    answer = reply(*dialogue)
    assert re.search(expected, answer), answer


def test_a_short_answer_to_a_troubled_story_gets_no_cheer(reply):
    exam = reply("I'm so nervous about my exam tomorrow.", "I'd be nervous too. What's the exam for?", "Chemistry")
    assert re.match(r"Ah, chemistry\. .*tough", exam) and not CHEER.search(exam), exam
    failed = reply("I failed my exam this morning.", "Oh no, I'm sorry. What was it in?", "Chemistry")
    assert "chemistry" in failed and not re.search(r"you'll do great|You've got this", failed), failed
    dog = reply("My dog died last week.", "I'm so sorry. What was his name?", "Max")
    assert "Max" in dog and "sorry" in dog and not re.search(r"cute|great|love that", dog), dog
    # no word fits a place or a companion in trouble: not "Ooh, the mall! That sounds lovely!"
    for where in (reply("Someone broke into my car yesterday.", "That's awful. Where were you parked?", "At the mall"),
                  reply("My car broke down on the highway.", "Oh no! Who was with you?", "My sister")):
        assert not re.match(r"\w+, (?:the mall|your sister)!", where) and not re.search(
            r"lovely|so much fun|How fun", where), where


def test_only_a_thing_named_is_taken_for_an_answer(reply):
    """A doubt, a denial, a story or a question that asks for no thing named is heard as before."""
    for dialogue in (("We just got a new puppy!", "Aw! What kind of dog is it?", "Not sure, he's a rescue"),
                     ("We just got a new puppy!", "Aw! What's your puppy's name?", "We haven't picked one yet."),
                     ("I'm going on vacation next week!", "Ooh! Where are you headed?",
                      "Portugal, but honestly I'm dreading the long flight there with two kids."),
                     ("I had my job interview today.", "Ooh! How did it go?", "Pretty well"),
                     ("We just got a new puppy!", "Aw! What kind of dog is it?", "I don't know")):
        answer = reply(*dialogue)
        assert not re.match(r"(?:Ooh|Oh|Aw|Ah), (?:not sure|we|portugal|pretty well|I)\b", answer, re.I), answer
    # a car seen, not chosen; a dog met, not the speaker's own
    assert "choice" not in reply("I once saw a man lift a car all by himself!", "What type of car was it?",
                                 "it was a fiat")
    assert "your dog" not in reply("A dog followed me home from the park today.", "What kind of dog was it?",
                                   "A beagle")
    assert answered_slot("How did it go?", "") is None
    assert answered_slot("What was it?", "I watched a movie.").name == "title"
    assert answered_slot("What was it?", "I went for a walk.") is None
    assert answered_slot("What kind of exam is it?", "").name == "field"
    title = answered_slot("What movie did you see?", "")
    assert answer_phrase("I think it was called Rampage.", title) == "Rampage"
    assert answer_phrase("black mirror lol", title) == "Black Mirror"
    assert answer_phrase("It was about the golden state killer.", answered_slot("What was the book?", "")) is None
    # a common noun loses the capital it had only for beginning the turn; a place named as a plan keeps it
    assert answer_phrase("Astrophysics", answered_slot("What are you getting your PhD in?", "")) == "astrophysics"
    assert answer_phrase("Portugal", answered_slot("What are your plans?", "")) == "Portugal"
    grade = answered_slot("What grade is she in?", "")
    assert answer_phrase("She is in 5th grade.", grade) == "5th grade"
    assert answer_phrase("The same as her cousin", grade) is None
