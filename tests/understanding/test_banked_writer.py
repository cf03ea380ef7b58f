"""The lite writer (banked_writer) on the real lite vote for turns written for these tests: the stance a death, an
illness and a success call for, nothing the speaker did not say, no listener story or offer, the length limits;
and the shipped bank's own file."""
from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest

from e3rg_core.contracts import UnderstandingRequest, Utterance
from e3rg_core.errors import CheckpointMismatchError
from e3rg_core.understanding import listener_bank
from e3rg_core.understanding.banked_writer import REACTIONS, BankedReplyWriter
from e3rg_core.understanding.listener_bank import BANK_FILE, ListenerBank, speakable, stems
from e3rg_core.understanding.reflective_writer import MAX_SPOKEN_SECONDS, MAX_WORDS, spoken_seconds

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CHEER = re.compile(r"congrat|\bglad\b|wonderful|amazing|great|fantastic|awesome|thrilled|proud|exciting|lovely|"
                   r"\bcool\b|\bnice\b|happy for", re.I)
SORROW = re.compile(r"\bsorry\b|heartbreak|worr|so hard|hurt|holding up|coping|terrible|awful|sad|rough|tough|"
                    r"hope (?:\w+ )*(?:better|ok|okay|well|recover)|get well", re.I)
DEATH_WORDS = re.compile(r"\bloss\b|passed|grief|condolences|\brip\b", re.I)


def said(*utterances: str) -> UnderstandingRequest:
    return UnderstandingRequest(history=tuple(Utterance(i, "speaker" if i % 2 == 0 else "listener", text)
                                              for i, text in enumerate(utterances)))


@pytest.fixture(scope="module")
def writer():
    return BankedReplyWriter.from_pretrained()


@pytest.fixture(scope="module")
def reply(writer, text_vote):
    def write(*utterances: str) -> tuple[str, bool]:
        request = said(*utterances)
        return writer.reply(request, text_vote(request))
    return write


def test_the_same_turn_gets_the_stance_of_what_happened(reply):
    """One sentence frame, three events: sympathy for a death, concern (not condolences) for an illness,
    gladness for a success."""
    death, _ = reply("My grandmother passed away last night.")
    illness, _ = reply("My grandmother has been sick in the hospital all week.")
    success, _ = reply("My grandmother won first prize at the county fair last night!")
    print(death, illness, success, sep="\n")
    assert SORROW.search(death) and not CHEER.search(death)
    assert SORROW.search(illness) and not CHEER.search(illness) and not DEATH_WORDS.search(illness)
    assert CHEER.search(success) and not SORROW.search(success)


@pytest.mark.parametrize("turn", [
    "My dog died this morning and I keep looking at his bed.",
    "My dad was diagnosed with cancer last week.",
    "I got laid off today after nine years at the company.",
    "Someone broke into my car last night and stole my laptop.",
])
def test_bad_news_is_never_cheered(reply, turn):
    answer, _ = reply(turn)
    assert not CHEER.search(answer), answer


@pytest.mark.parametrize("turn", [
    "I got the job offer from the hospital I interviewed at last month!",
    "My daughter took her first steps this morning!",
    "We just closed on our first house!",
])
def test_good_news_gets_no_sympathy(reply, turn):
    answer, _ = reply(turn)
    assert not re.search(r"\bsorry\b|terrible|awful|\bloss\b", answer, re.I), answer


TURNS = [
    ("My landlord kept my whole deposit for a scratch that was there when I moved in.",),
    ("Someone cut in front of me in a two-hour queue and the staff did nothing.",),
    ("I have my driving test on Friday and I can't stop shaking.",),
    ("I found an old photo of my dad and me fishing when I was six.",),
    ("My best friend forgot my birthday again this year.",),
    ("I tripped on stage during my graduation in front of everyone.",),
    ("My neighbour mows his lawn at six every Sunday morning.",),
    ("My sister got the car I always wanted for her birthday.",),
    ("I finally finished my first marathon yesterday!", "Wow! How long did it take you?",
     "Just under five hours, but I never stopped running."),
    ("My son is starting kindergarten next week.", "Aw, how is he feeling about it?",
     "He's excited, but I'm the one who is nervous."),
]


@pytest.fixture(scope="module")
def replies(reply):
    return [reply(*turn) for turn in TURNS]


def test_both_writers_answer(replies):
    """A listener's reply where one fits (the worried parent), the speaker's own news said back where none does
    (a landlord's kept deposit: no banked reply names it)."""
    for (text, _), turn in zip(replies, TURNS):
        print(f"{turn[-1]}\n    -> {text}")
    assert replies[-1][1] and not replies[0][1] and "deposit" in replies[0][0]


def test_a_banked_reply_says_nothing_the_speaker_did_not(writer, replies):
    """Every word of a listener's reply is in the conversation or among the words listeners say about anything:
    no dog for a cat, no names, no places."""
    for (text, banked), turn in zip(replies, TURNS):
        if banked:
            extra = stems(text) - writer.bank.generic - frozenset().union(*map(stems, turn))
            assert extra <= stems(" ".join(r for family in REACTIONS.values() for r in family)), (text, extra)


def test_no_listener_story_or_offer(replies):
    for text, banked in replies:
        assert speakable(text) or not banked, text


def test_replies_are_short_and_distinct(replies):
    texts = [text for text, _ in replies]
    assert all(len(t.split()) <= MAX_WORDS and spoken_seconds(t) <= MAX_SPOKEN_SECONDS for t in texts), texts
    # Two grievances may meet the same short reaction ("That's terrible."); more repeats would show up as a corpus
    # share on the dev slice (docs/lite_replies.md).
    assert len(set(texts)) >= len(texts) - 1, texts


def test_a_question_to_the_listener_is_turned_back(reply):
    answer, banked = reply("I've been learning to bake bread. Do you like baking?")
    assert not banked and "?" in answer, answer


def test_an_opening_the_listener_used_is_not_used_again(reply, writer):
    first, _ = reply("My cat knocked my coffee all over my laptop this morning.")
    second, _ = reply("My cat knocked my coffee all over my laptop this morning.", first,
                      "And now the laptop won't turn on at all.")
    assert listener_bank.neat(first) != second and first.split()[:4] != second.split()[:4], (first, second)


def test_speakable_refuses_stories_offers_and_names():
    assert speakable("That sounds so frustrating. What did you do?")
    assert not speakable("I had the same thing happen to my car last year.")
    assert not speakable("Let me know if I can help with anything.")
    assert not speakable("Oh wow, did Jessica say anything about it?")
    assert not speakable("Wow.")


def test_the_shipped_bank_matches_its_card():
    card = BANK_FILE.with_name("LISTENER_BANK.md").read_text()
    assert hashlib.sha256(BANK_FILE.read_bytes()).hexdigest() in card
    bank = ListenerBank.load()
    assert len(bank.replies) > 3000 and np.allclose(np.linalg.norm(bank.keys, axis=1), 1, atol=1e-2)
    assert all(speakable(r.text) for r in bank.replies)


def test_a_file_of_another_format_is_refused(tmp_path):
    path = tmp_path / "bank.npz"
    np.savez(path, format=np.array("something-else/1"), keys=np.zeros((1, 384)), replies=np.array(["Hi there you."]),
             stances=np.array(["interest"]), opening_turn=np.array([True]), generic=np.array(["hi"]))
    with pytest.raises(CheckpointMismatchError):
        ListenerBank.load(path)
