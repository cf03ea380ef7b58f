"""The turn runner on the lite tier: stages in order, a broken voter abstaining, subtitles, the self-check of the
generated voice and face, and rendering a reply again for another emotion."""
import json

import pytest

from e3rg_core.contracts import EngineSet, GenerationSettings, Vote
from e3rg_core.emotions import FINE_LABELS
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.generation.lite_video import LiteTalkingPortrait
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.runner import ResponseRequest, Stage, Tier, TurnRunner
from e3rg_core.tiers.lite import example_pool
from e3rg_core.understanding.face_voter import FaceEmotionVoter
from e3rg_core.understanding.prosody_voter import VoiceProsodyVoter
from e3rg_core.understanding.situation_voter import SituationEmotionVoter
from e3rg_core.understanding.template_writer import TemplateReplyWriter

pytestmark = pytest.mark.usefixtures("one_torch_thread")


class BrokenVoter(SituationEmotionVoter.__mro__[1]):     # an EmotionVoter that fails on every turn
    name, modality = "broken", "text"

    def vote(self, request) -> Vote:
        raise RuntimeError("model file went missing")


@pytest.fixture(scope="module")
def runner() -> TurnRunner:
    engines = EngineSet(voters=[SituationEmotionVoter.from_pretrained(), FaceEmotionVoter.from_pretrained(),
                                VoiceProsodyVoter(), BrokenVoter()],
                        writer=TemplateReplyWriter(), speech=LiteSpeechEngine(), video=LiteTalkingPortrait())
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
