"""Listener stances and the written (template) replies, read by the real text emotion heads, and the speech-length
estimate the writers cut replies by, checked against the real lite voice: every fine label has a stance, the
written replies read as theirs, a grievance is never cheered, good news never gets condolences, and the longest
replies the writers let through are spoken in under 8 s."""
from __future__ import annotations

import re

import pytest

from e3rg_core.contracts import EmotionResult, GenerationSettings, UnderstandingRequest, Utterance
from e3rg_core.emotions import FINE_LABELS, coarse_of
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.metrics import opening
from e3rg_core.runner import cast_votes, tally
from e3rg_core.settings import REPLY_SPEECH_SECONDS
from e3rg_core.understanding.prompts import FITTING_SHARE, LISTENER_STANCE, STANCES, listener_stance, stance_fit
from e3rg_core.understanding.reflective_writer import MAX_WORDS, ReflectiveReplyWriter
from e3rg_core.understanding.situation_voter import SituationEmotionVoter
from e3rg_core.understanding.spoken_length import SPOKEN_SECONDS, spoken_seconds
from e3rg_core.understanding.template_writer import TEMPLATES, TemplateReplyWriter, template_reply
from e3rg_core.understanding.text_emotion import TextEmotionHead, TextEmotionVoter
from e3rg_core.understanding.word_emotion import WordEmotionHead, WordEmotionVoter

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# Turns written for these tests, with a fitting emotion.
TURNS = [
    ("My daughter took her first steps in the kitchen this morning!", "joyful"),
    ("I finally paid off the last of my student loans.", "proud"),
    ("The vet called, my old cat did not survive the surgery.", "devastated"),
    ("My flatmate used my toothbrush to clean the sink and laughed about it.", "furious"),
    ("I have to give a speech at my brother's wedding and my hands are already shaking.", "anxious"),
    ("I waved back at a stranger who was waving at someone behind me.", "embarrassed"),
    ("Nobody at the new office has said a word to me all week.", "lonely"),
    ("We leave for the coast on Saturday and I have been counting the days.", "anticipating"),
]
# Grievances an audit of the lite tier found answered with cheer ("That's wonderful news, I'm really happy for
# you!") or with a made-up story ("... that thing I'm driving").
GRIEVANCES = ["Someone keyed my car in the parking lot and drove off laughing.",
              "My coworker took credit for the report I spent a month writing."]
CHEER = re.compile(r"congratulat|\bglad\b|happy for you|wonderful|great (news|to hear)|good for you|well done", re.I)
CONDOLENCES = re.compile(r"\bsorry\b|condolence|your loss|passed away", re.I)
# Long turns the reflective writer says back at length, to reach the speech-length cut.
LONG_TURNS = [
    ("My grandmother passed away last night after a long illness and I keep thinking about her kitchen.",
     "devastated"),
    ("My landlord kept my whole deposit for a scratch that was already there when I moved into the apartment.",
     "furious"),
    ("I finally got accepted into the nursing program at the university after three long years of trying!", "proud"),
    ("I have to give a speech at my brother's wedding next Saturday and my hands are already shaking.", "anxious"),
    ("Someone cut in front of me in a two-hour queue at the passport office and the staff did nothing.", "furious"),
    ("My daughter took her first steps in the kitchen this morning while I was making breakfast!", "joyful"),
    ("We leave for the coast on Saturday and I have been counting the days since Christmas.", "anticipating"),
    ("The vet called this afternoon, my old cat did not survive the surgery on her stomach.", "devastated"),
]


def said(text: str) -> UnderstandingRequest:
    return UnderstandingRequest(history=(Utterance(0, "speaker", text),))


def feeling(fine: str) -> EmotionResult:
    return EmotionResult(fine, coarse_of(fine), (), "test")


def written(text: str, fine: str) -> str:
    return "".join(TemplateReplyWriter().write(said(text), feeling(fine), 64))


@pytest.fixture(scope="module")
def head() -> TextEmotionHead:
    return TextEmotionHead.from_pretrained()


@pytest.fixture(scope="module")
def word_head() -> WordEmotionHead:
    return WordEmotionHead.from_pretrained()


# ---------------------------------------------------------------------------------------------------------
# Stances and the written replies


def test_every_fine_label_has_a_stance_with_ten_written_replies():
    assert set(LISTENER_STANCE) == set(FINE_LABELS)
    assert set(STANCES) == set(TEMPLATES)
    for name, templates in TEMPLATES.items():
        assert len({opening(template) for template in templates}) == len(templates) == 10, name
        for template in templates:
            assert len(template.split()) <= MAX_WORDS and spoken_seconds(template) <= SPOKEN_SECONDS, template


def test_the_written_replies_read_as_their_stance(head):
    """The reading groups and the written replies agree: the MiniLM head reads every template as its stance."""
    for name, templates in TEMPLATES.items():
        for template in templates:
            assert stance_fit(head.read_text(template), STANCES[name]) >= FITTING_SHARE, template


STANCE_FITS_NEEDED = 5


def fitting(head, replies: list[str], fines: list[str]) -> int:
    """How many replies the head reads as the listener stance of their fine emotion."""
    return sum(stance_fit(head.read_text(reply), LISTENER_STANCE[fine]) >= FITTING_SHARE
               for reply, fine in zip(replies, fines))


def test_written_replies_fit_the_stance_of_the_voted_emotion(word_head):
    """The word head, which the templates were not written against, reads 6 of the 8 written replies as their
    stance; answered for the emotion of another turn (joyful for the dead cat, furious for the counted days ...)
    it reads at most 3 of 8 so, so the threshold tells a writer that ignores the emotion apart."""
    fines = [fine for _, fine in TURNS]
    replies = [written(text, fine) for text, fine in TURNS]
    assert fitting(word_head, replies, fines) >= STANCE_FITS_NEEDED, replies
    for shift in range(1, len(TURNS)):
        others = fines[shift:] + fines[:shift]
        ignoring = [written(text, other) for (text, _), other in zip(TURNS, others)]
        assert fitting(word_head, ignoring, fines) < STANCE_FITS_NEEDED, (shift, ignoring)


def test_the_voted_emotion_changes_the_stance_of_the_written_reply(head):
    """One turn that could be either: read as joyful it is shared, read as devastated it is comforted."""
    turn = "My sister called this morning with the results of her tests."
    glad, sad = written(turn, "joyful"), written(turn, "devastated")
    assert glad in TEMPLATES["celebrate"] and sad in TEMPLATES["comfort"]
    celebrate, comfort = LISTENER_STANCE["joyful"], LISTENER_STANCE["devastated"]
    assert stance_fit(head.read_text(glad), celebrate) >= FITTING_SHARE > stance_fit(head.read_text(glad), comfort)
    assert stance_fit(head.read_text(sad), comfort) >= FITTING_SHARE > stance_fit(head.read_text(sad), celebrate)


def test_good_news_gets_no_condolences():
    glad = [t for name, templates in TEMPLATES.items() if not STANCES[name].condolences for t in templates]
    assert glad and not [template for template in glad if CONDOLENCES.search(template)]


def test_an_opening_already_used_in_the_conversation_is_not_repeated():
    stance = STANCES["celebrate"]
    for seed in range(20):
        first = template_reply(stance, (), seed)
        history = (Utterance(0, "speaker", "We won!"), Utterance(1, "listener", first),
                   Utterance(2, "speaker", "And we get to play the final."))
        assert opening(template_reply(stance, history, seed)) != opening(first), seed


@pytest.mark.parametrize("text", GRIEVANCES)
def test_a_grievance_gets_no_cheer(text, head, word_head):
    """Voted by the lite tier's own text voters, as a visitor's turn is: the stance does not cheer, and the lite
    writer's reply neither cheers nor reads to the word head as celebrating."""
    voters = [TextEmotionVoter(head), WordEmotionVoter(word_head), SituationEmotionVoter.from_pretrained()]
    emotion = tally(cast_votes(voters, said(text), []))
    stance = listener_stance(emotion)
    reply = "".join(ReflectiveReplyWriter().write(said(text), emotion, 64))
    celebrating = [FINE_LABELS.index(label) for label, s in LISTENER_STANCE.items() if s.name == "celebrate"]
    assert not stance.cheer, (emotion.fine, stance.name)
    assert word_head.read_text(reply)[celebrating].sum() < FITTING_SHARE and not CHEER.search(reply), reply


# ---------------------------------------------------------------------------------------------------------
# Speech length


def test_the_longest_replies_the_writers_let_through_are_spoken_in_under_8_seconds(tmp_path):
    """Spoken by the lite voice in its slowest style (sad), the 20 longest written replies (by the estimate) and the
    reflective writer's six longest replies to long turns, which reach the estimate's cut, all take under 8 s (the
    sad style's pauses may need the voice's speed-up to fit)."""
    reflective = ReflectiveReplyWriter()
    replies = ["".join(reflective.write(said(text), feeling(fine), 64)) for text, fine in LONG_TURNS]
    longest = sorted(replies, key=spoken_seconds)[-6:]
    assert spoken_seconds(longest[-1]) > SPOKEN_SECONDS - 0.5, longest     # the cut is what limits them
    templates = sorted((t for ts in TEMPLATES.values() for t in ts), key=spoken_seconds)[-20:]
    voice, avatar = LiteSpeechEngine(), AvatarStore(data_dir=tmp_path).get("")

    def seconds(reply: str) -> float:
        speech = voice.synthesize(reply, "sad", avatar, GenerationSettings())
        return len(speech.samples) / speech.sample_rate

    spoken = {reply: round(seconds(reply), 2) for reply in [*templates, *longest]}
    assert all(s < REPLY_SPEECH_SECONDS for s in spoken.values()), spoken
