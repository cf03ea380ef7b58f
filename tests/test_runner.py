"""The turn runner on the lite tier: stages in order, a broken voter abstaining, subtitles, the self-check of the
generated voice and face, and rendering a reply again for another emotion."""
import json
from dataclasses import replace

import pytest

from e3rg_core.contracts import EmotionVoter, EngineSet, GenerationSettings, ReplyWriter, Vote
from e3rg_core.emotions import FINE_LABELS, expression_for
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.generation.lite_video import LiteTalkingPortrait
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.runner import ResponseRequest, Stage, Tier, TurnRunner
from e3rg_core.tiers.lite import example_pool
from e3rg_core.understanding.situation_voter import SituationEmotionVoter
from e3rg_core.understanding.template_writer import TemplateReplyWriter

pytestmark = pytest.mark.usefixtures("one_torch_thread")


class BrokenVoter(EmotionVoter):     # fails on every turn
    name, modality = "broken", "text"

    def vote(self, request) -> Vote:
        raise RuntimeError("model file went missing")


@pytest.fixture(scope="module")
def runner(quick_lite) -> TurnRunner:
    engines = replace(quick_lite.engines, voters=[*quick_lite.engines.voters, BrokenVoter()])
    return TurnRunner(Tier("lite", engines), AvatarStore(), example_pool(), None)


def test_a_lite_turn_runs_every_stage_in_order_and_checks_its_outputs(runner, tmp_path):
    progress, checked_before_done = [], False
    for final in runner.respond(ResponseRequest(text="I finally finished my first marathon today!",
                                                settings=GenerationSettings(seed=0)), tmp_path):
        if final.finished and (not progress or progress[-1] != final.finished[-1]):
            progress.append(final.finished[-1])
        checked_before_done |= final.self_check is not None and not final.done
    assert progress == list(Stage)
    assert final.done and final.self_check is not None and not checked_before_done     # checked last
    check = final.self_check
    assert check.chosen == final.emotion.fine and check.voice in FINE_LABELS and check.face in FINE_LABELS
    assert any("broken could not vote (RuntimeError)" in notice for notice in final.notices)
    assert [path.name for path in final.subtitles] == ["reply.vtt", "reply.srt"]
    assert all(path.is_file() for path in final.subtitles)
    record = final.to_json()
    assert record["self_check"]["face"] == check.face and record["subtitles"] == ["reply.vtt", "reply.srt"]
    json.dumps(record)


def test_a_reply_rendered_again_for_another_emotion(runner, tmp_path):
    *_, reply = runner.respond(ResponseRequest(text="My cat has been missing for three days."), tmp_path / "turn")
    avatar = runner.avatars.get("")
    neutral = runner.rerender(reply.text, "neutral", avatar, GenerationSettings(seed=0), tmp_path / "neutral")
    assert neutral.text == reply.text and neutral.emotion.fine == "neutral" and neutral.done
    assert neutral.mp4_path.is_file() and neutral.mp4_path != reply.mp4_path
    assert neutral.mp4_path.read_bytes() != reply.mp4_path.read_bytes()


class ExpressionsHeard:
    """The real lite speech and video engines, noting the expression each was asked for."""

    def __init__(self):
        self.speech, self.video, self.heard = LiteSpeechEngine(), LiteTalkingPortrait(), []
        self.speech.synthesize = self._noted(self.speech.synthesize, position=1)   # (text, emotion, ...)
        self.video.animate = self._noted(self.video.animate, position=2)         # (portrait, speech, emotion, ...)

    def _noted(self, render, position):
        def noted(*args):
            self.heard.append(args[position])
            return render(*args)
        return noted


@pytest.mark.parametrize("mode", ["listener", "mirror"])
def test_voice_and_face_take_the_listener_expression_of_the_chosen_mode(mode, tmp_path):
    engines_heard = ExpressionsHeard()
    engines = EngineSet(voters=[SituationEmotionVoter.from_pretrained()], writer=TemplateReplyWriter(),
                        speech=engines_heard.speech, video=engines_heard.video)
    runner = TurnRunner(Tier("lite", engines), AvatarStore(), example_pool(), None)
    *_, reply = runner.respond(ResponseRequest(text="There is a strange noise downstairs and I am home alone.",
                                               settings=GenerationSettings(seed=0, expression_mode=mode)), tmp_path)
    expected = expression_for(reply.emotion.coarse, mode)
    assert engines_heard.heard == [expected, expected]
    assert reply.expression == expected.name == reply.self_check.expressed == reply.to_json()["expression"]
    if mode == "listener" and reply.emotion.coarse in ("fear", "angry"):
        assert expected != expression_for(reply.emotion.coarse, "mirror")


class SpeechlessWriter(ReplyWriter):     # a writer whose model answered in punctuation
    name = "speechless"

    def write(self, request, emotion, max_new_tokens):
        yield "... 🙂"


def test_a_reply_with_nothing_to_say_is_replaced_by_a_template_and_named(tmp_path):
    engines = EngineSet(voters=[SituationEmotionVoter.from_pretrained()], writer=SpeechlessWriter(),
                        speech=LiteSpeechEngine(), video=LiteTalkingPortrait())
    runner = TurnRunner(Tier("lite", engines), AvatarStore(), example_pool(), None)
    *_, reply = runner.respond(ResponseRequest(text="I passed my driving test this morning!"), tmp_path)
    assert reply.done and reply.wav_path.is_file() and any(c.isalpha() for c in reply.text)
    assert reply.engines["text"] == "template reply (in place of speechless)"
    assert any("speechless wrote nothing that can be spoken" in notice for notice in reply.notices)
