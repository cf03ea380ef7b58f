"""The lite reply writer on the real SmolLM2-135M and the real text emotion head, on the project's own sentences:
length, whole sentences, the stance the voted emotion asks for, and nothing a listener should not say."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from e3rg_core.contracts import EmotionResult, GenerationSettings, UnderstandingRequest, Utterance
from e3rg_core.emotions import FINE_LABELS, coarse_of
from e3rg_core.errors import CheckpointMismatchError
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.metrics import corpus_distinct_n, mean_words, opening, repeated_opening_share
from e3rg_core.runner import cast_votes
from e3rg_core.understanding.listener_writing import EXAMPLES_FILE, load_writing
from e3rg_core.understanding.lite_writer import (REPLY_WORDS, SmolLMReplyWriter, finish_reply, sentences)
from e3rg_core.understanding.reply_judge import content_words, judge, reaction_words
from e3rg_core.understanding.prompts import (FITTING_SHARE, LISTENER_STANCE, STANCES, listener_stance,
                                             stance_fit)
from e3rg_core.understanding.situation_voter import SituationEmotionVoter
from e3rg_core.understanding.spoken_length import SPOKEN_SECONDS, spoken_seconds
from e3rg_core.understanding.template_writer import TEMPLATES, TemplateReplyWriter
from e3rg_core.understanding.text_emotion import TextEmotionHead, TextEmotionVoter
from e3rg_core.understanding.voting import decide
from e3rg_core.understanding.word_emotion import WordEmotionHead, WordEmotionVoter

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# Turns written for these tests (none is one of the writer's own example exchanges), with a fitting emotion.
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
# Said by an assistant, not by a friend: "what can I help you with?", offers, "I'm not here to chat".
ASSISTANT = re.compile(r"help you|assist|as an ai|not here to|let me know|reach out|i can (give|arrange|offer)", re.I)
CONDOLENCES = re.compile(r"\bsorry\b|condolence|your loss|passed away", re.I)


def said(text: str) -> UnderstandingRequest:
    return UnderstandingRequest(history=(Utterance(0, "speaker", text),))


def feeling(fine: str) -> EmotionResult:
    return EmotionResult(fine, coarse_of(fine), (), "test")


@pytest.fixture(scope="module")
def head() -> TextEmotionHead:
    return TextEmotionHead.from_pretrained()


@pytest.fixture(scope="module")
def word_head() -> WordEmotionHead:
    return WordEmotionHead.from_pretrained()


@pytest.fixture(scope="module")
def writer(head) -> SmolLMReplyWriter:
    return SmolLMReplyWriter.from_pretrained()


@pytest.fixture(scope="module")
def replies(writer) -> list[str]:
    return ["".join(writer.write(said(text), feeling(fine), 64)) for text, fine in TURNS]


# ---------------------------------------------------------------------------------------------------------
# On the real model


def test_replies_are_short_whole_sentences(replies):
    for reply in replies:
        assert 0 < len(reply.split()) <= REPLY_WORDS, reply
        assert reply.rstrip()[-1] in ".!?", f"ends mid-sentence: {reply!r}"
        assert 1 <= len(sentences(reply)) <= 2 and " ".join(sentences(reply)) == reply, reply


def test_replies_never_talk_like_an_assistant(replies):
    assert not [reply for reply in replies if ASSISTANT.search(reply)]


STANCE_FITS_NEEDED = 5


def fitting(head, replies: list[str], fines: list[str]) -> int:
    """How many replies the head reads as the listener stance of their fine emotion."""
    return sum(stance_fit(head.read_text(reply), LISTENER_STANCE[fine]) >= FITTING_SHARE
               for reply, fine in zip(replies, fines))


def test_replies_fit_the_stance_of_the_voted_emotion(replies, head, word_head):
    """The writer keeps only replies its judge, the MiniLM head, reads as the stance, so that head's reading says
    little; the word head never takes part in writing. It read 6 of the 8 replies as their stance, and 2 or 3 of 8
    when the same turns were answered for the emotion of another turn (a writer that ignores the emotion)."""
    fines = [fine for _, fine in TURNS]
    assert fitting(head, replies, fines) == len(TURNS), replies
    assert fitting(word_head, replies, fines) >= STANCE_FITS_NEEDED, replies


def test_a_writer_that_ignores_the_emotion_fails_the_stance_test(writer, word_head):
    """The stance test above can fail: the same turns answered for the emotion of the turn two or four further on
    (joyful for the dead cat, furious for the counted days ...) do not reach its threshold."""
    fines = [fine for _, fine in TURNS]
    for shift in (2, 4):
        others = fines[shift:] + fines[:shift]
        ignoring = ["".join(writer.write(said(text), feeling(other), 64)) for (text, _), other in zip(TURNS, others)]
        assert fitting(word_head, ignoring, fines) < STANCE_FITS_NEEDED, ignoring


@pytest.mark.parametrize("text", GRIEVANCES)
def test_a_grievance_gets_no_cheer_and_no_made_up_story(text, writer, head, word_head):
    """Voted by the lite tier's own text voters, as a visitor's turn is: the stance does not cheer, the word head
    does not read the reply as celebrating, and the reply takes up the speaker's words or only reacts, in the words
    the project's own replies react with (one more at most)."""
    voters = [TextEmotionVoter(head), WordEmotionVoter(word_head), SituationEmotionVoter.from_pretrained()]
    cast = cast_votes(voters, said(text), [])
    emotion = decide([c.vote for c in cast], {c.vote.voter: c.priority for c in cast})
    stance = listener_stance(emotion)
    reply = "".join(writer.write(said(text), emotion, 64))
    celebrating = [FINE_LABELS.index(label) for label, s in LISTENER_STANCE.items() if s.name == "celebrate"]
    assert not stance.cheer, (emotion.fine, stance.name)
    assert word_head.read_text(reply)[celebrating].sum() < FITTING_SHARE and not CHEER.search(reply), reply
    own = content_words(reply)
    assert own & content_words(text) or len(own - reaction_words()) <= 1, reply


def test_good_news_gets_no_condolences(replies):
    glad = [reply for reply, (_, fine) in zip(replies, TURNS) if not LISTENER_STANCE[fine].condolences]
    assert glad and not [reply for reply in glad if CONDOLENCES.search(reply)]


def test_the_voted_emotion_changes_the_stance_of_the_reply(writer, head):
    """One turn that could be either: read as joyful it is shared, read as devastated it is comforted."""
    turn = said("My sister called this morning with the results of her tests.")
    glad = "".join(writer.write(turn, feeling("joyful"), 64))
    sad = "".join(writer.write(turn, feeling("devastated"), 64))
    assert glad != sad
    celebrate, comfort = LISTENER_STANCE["joyful"], LISTENER_STANCE["devastated"]
    assert stance_fit(head.read_text(glad), celebrate) >= FITTING_SHARE > stance_fit(head.read_text(glad), comfort)
    assert stance_fit(head.read_text(sad), comfort) >= FITTING_SHARE > stance_fit(head.read_text(sad), celebrate)
    assert not CONDOLENCES.search(glad), glad


def test_openings_vary_across_turns(replies):
    assert len({opening(reply) for reply in replies}) >= len(replies) - 1, replies


def test_an_opening_already_used_in_the_conversation_is_not_repeated(writer):
    first = "".join(writer.write(said(TURNS[0][0]), feeling("joyful"), 64))
    history = (Utterance(0, "speaker", TURNS[0][0]), Utterance(1, "listener", first),
               Utterance(2, "speaker", "She walked all the way to the fridge and back."))
    second = "".join(writer.write(UnderstandingRequest(history=history), feeling("joyful"), 64))
    assert opening(second) != opening(first), (first, second)


def test_without_the_head_the_writer_still_writes_whole_sentences(writer):
    plain = SmolLMReplyWriter(writer.llm, head=None, writing=writer.writing)
    reply = "".join(plain.write(said(TURNS[1][0]), feeling("proud"), 64))
    assert 0 < len(reply.split()) <= REPLY_WORDS and reply.rstrip()[-1] in ".!?", reply


# ---------------------------------------------------------------------------------------------------------
# The parts, without the model


def test_the_longest_reply_the_cuts_let_through_is_spoken_in_under_8_seconds(tmp_path):
    """Spoken by the lite voice in its slowest style (sad), the project's 30 longest own replies, and its replies
    joined two by two and cut as the writer cuts them, the five longest, all take under 8 s (the sad style's pauses
    may need the voice's speed-up to fit)."""
    own = [reply for w in load_writing().values() for _, reply in w.exchanges]
    own += [template for templates in TEMPLATES.values() for template in templates]
    voice, avatar = LiteSpeechEngine(), AvatarStore(data_dir=tmp_path).get("")

    def seconds(reply: str) -> float:
        speech = voice.synthesize(reply, "sad", avatar, GenerationSettings())
        return len(speech.samples) / speech.sample_rate

    for reply in sorted(own, key=spoken_seconds)[-30:]:
        assert seconds(reply) < 8.0, reply
    longest = sorted({finish_reply(f"{a} {b}") for a in own for b in own}, key=spoken_seconds)[-5:]
    assert spoken_seconds(longest[-1]) > SPOKEN_SECONDS - 0.3     # the cut is what limits them
    assert all(seconds(reply) < 8.0 for reply in longest), longest


def test_finish_reply_drops_an_unfinished_sentence_and_keeps_two():
    assert finish_reply("That's great news! I bet you're so proud, but it's") == "That's great news!"
    assert finish_reply("Wow. Really? And then more. And more.") == "Wow. Really?"
    assert finish_reply("but it's") == ""
    long_second = "That is lovely. " + "This second sentence goes on and on " * 4 + "until it ends."
    assert finish_reply(long_second) == "That is lovely."
    # A sentence that trails off is not finished either.
    trailing = "Aw, those memories are precious. But they are also kind of..."
    assert finish_reply(trailing) == "Aw, those memories are precious."
    assert finish_reply("Oh, I see… well then…") == ""


def test_judge_names_what_a_listener_does_not_say():
    history = (Utterance(0, "speaker", "I won the chess club final today."),)
    proud, devastated = LISTENER_STANCE["proud"], LISTENER_STANCE["devastated"]
    assert judge("That's wonderful, you won the final!", proud, history).problems == ()
    assert "assistant talk" in judge("Great! What can I help you with?", proud, history).problems
    assert "condolences where nothing was lost" in judge("I'm so sorry for your loss.", proud, history).problems
    assert "cheer at bad news" in judge("Congratulations on the final!", devastated, history).problems
    assert "cheer at bad news" in judge("Really? I just love it, the final!", STANCES["acknowledge"], history).problems
    for puzzled in ("Wait, what does that say about the final?", "Wait, what's the problem with the final?"):
        assert "puzzled by a plain turn" in judge(puzzled, proud, history).problems
    assert "a story of its own" in judge("I had a chess final too.", proud, history).problems
    assert "a story of its own" in judge("Chess is fun, like the car I'm driving.", proud, history).problems
    assert "a story of its own" not in judge("I'm guessing the final was close!", proud, history).problems
    assert "names something of theirs they never mentioned" in judge(
        "Your family must be proud.", proud, history).problems
    assert "a number the speaker never gave" in judge("Winning 3 games is great.", proud, history).problems
    assert "repeats itself" in judge("So proud, so proud, so proud of you.", proud, history).problems
    copied = judge("A whole marathon, wow!", proud, history,
                   shots=(("I ran my first marathon.", "A marathon? Well done!"),))
    assert "a detail from an example" in copied.problems
    # The made-up reply an audit found: nothing of the speaker's is in it, the listener's own driving is.
    keyed = (Utterance(0, "speaker", "Someone keyed my car in the parking lot and drove off laughing."),)
    made_up = judge("Oh no, that was a wrong turn! Now they're going to lose their wallet on that thing I'm "
                    "driving.", LISTENER_STANCE["furious"], keyed).problems
    assert {"a story of its own", "off the speaker's topic, in words of its own"} <= set(made_up)
    # Off the topic a reply may still react, in the words the project's own replies react with.
    assert judge("No wonder you're so angry at them.", LISTENER_STANCE["furious"], keyed).problems == ()


def test_judge_reads_the_stance_with_the_head(head):
    history = (Utterance(0, "speaker", "My grandfather died last night."),)
    comfort = judge("I'm so sorry, losing your grandfather is so hard.", LISTENER_STANCE["devastated"], history, head)
    cheer = judge("How wonderful, I'm so happy for you!", LISTENER_STANCE["devastated"], history, head)
    assert comfort.acceptable and comfort.fit >= FITTING_SHARE
    assert not cheer.acceptable and cheer.fit < FITTING_SHARE


def test_every_fine_label_has_a_stance_with_writing_and_templates():
    writing = load_writing()
    assert set(LISTENER_STANCE) == set(FINE_LABELS)
    assert set(writing) == set(STANCES) == set(TEMPLATES)
    for name, stance_writing in writing.items():
        assert all(len(opener.split()) <= 4 for opener in stance_writing.openers), name
        for _, listener in stance_writing.exchanges:
            assert len(listener.split()) <= REPLY_WORDS and len(sentences(listener)) <= 2, listener


def test_the_projects_own_replies_read_as_their_stance(head):
    """The reading groups and the writing agree: most example replies, and every template, fit their stance."""
    for name, stance_writing in load_writing().items():
        fits = [stance_fit(head.read_text(listener), STANCES[name]) >= FITTING_SHARE
                for _, listener in stance_writing.exchanges]
        assert sum(fits) >= len(fits) - 1, name
        for template in TEMPLATES[name]:
            assert stance_fit(head.read_text(template), STANCES[name]) >= FITTING_SHARE, template


def test_writing_files_are_checked(tmp_path):
    path = tmp_path / "writing.json"
    data = json.loads(EXAMPLES_FILE.read_text())
    del data["stances"]["comfort"]
    path.write_text(json.dumps(data))
    with pytest.raises(CheckpointMismatchError, match="not a listener writing file"):
        load_writing(path)
    data = json.loads(EXAMPLES_FILE.read_text())
    data["stances"]["comfort"]["exchanges"] = data["stances"]["comfort"]["exchanges"][:1]
    path.write_text(json.dumps(data))
    with pytest.raises(CheckpointMismatchError, match="comfort"):
        load_writing(path)


def test_template_writer_answers_with_the_stance():
    joyful = "".join(TemplateReplyWriter().write(said("We won!"), feeling("joyful"), 64))
    grieving = "".join(TemplateReplyWriter().write(said("She died."), feeling("devastated"), 64))
    assert joyful in TEMPLATES["celebrate"] and grieving in TEMPLATES["comfort"]


# ---------------------------------------------------------------------------------------------------------
# The measures that show what sentence-averaged Distinct-n hides


def test_corpus_distinct_counts_repeats_across_replies():
    replies = ["i am so sorry", "i am so sorry", "what great news"]
    # per sentence every reply is all-distinct; together 7 of 11 unigrams and 5 of 8 bigrams are new
    assert corpus_distinct_n(replies, 1) == pytest.approx(7 / 11)
    assert corpus_distinct_n(replies, 2) == pytest.approx(5 / 8)
    assert corpus_distinct_n([], 2) == 0.0


def test_repeated_openings_and_mean_words():
    replies = ["I'm so sorry to hear that.", "I'm so sorry, to lose him...", "That's wonderful news!", "Wow."]
    assert opening(replies[1]) == ("i'm", "so", "sorry", "to")
    assert repeated_opening_share(replies) == pytest.approx(2 / 4)
    assert mean_words(replies) == pytest.approx(np.mean([6, 6, 3, 1]))
