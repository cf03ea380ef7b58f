"""What the page shows of a turn: the engines line (which engines serve each stage, which full engine is missing and
why), the headline, and the compare view's renders and note, each video named with its own engines."""
import pytest

from e3rg_core.contracts import EmotionResult, EngineSet, GenerationSettings, Vote
from e3rg_core.emotions import coarse_of
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.generation.lite_video import LiteTalkingPortrait
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.runner import Reply, ResponseRequest, Stage, Tier, TurnRunner
from e3rg_core.tiers.lite import example_pool
from e3rg_core.tiers.zerogpu import TierCosts, ZeroGpuCall
from e3rg_core.understanding.prosody_voter import VoiceProsodyVoter
from e3rg_core.understanding.template_writer import TemplateReplyWriter
from e3rg_core.understanding.word_emotion import WordEmotionVoter
from e3rg_core.understanding.voting import decide, tally
from e3rg_core.display import (compare_note, engines_note, headline, rendering_engines, vote_tally,
                               votes_table)
from e3rg_core.views import LastTurn, compare_renders


def serving(tier_name: str, notices: tuple[str, ...]) -> TurnRunner:
    engines = EngineSet(voters=[VoiceProsodyVoter()], writer=TemplateReplyWriter(), speech=LiteSpeechEngine(),
                        video=LiteTalkingPortrait())
    return TurnRunner(Tier(tier_name, engines, notices=notices), AvatarStore(), [], None)


def test_lite_only_needs_no_engines_to_describe_itself():
    assert engines_note(None).startswith("Engines: **lite**")


def test_a_full_tier_missing_an_engine_names_each_engine_and_the_missing_one():
    missing = "DICE-Talk is not available (no file model.safetensors); the lite (CPU) engines do its part."
    note = engines_note(serving("full", (missing,)))
    assert note.startswith("Engines: **full**")
    for engine in (VoiceProsodyVoter.name, TemplateReplyWriter.name, LiteSpeechEngine.name, LiteTalkingPortrait.name):
        assert engine in note
    assert missing in note


def test_a_full_tier_that_could_not_load_says_why_the_lite_tier_answers():
    why = "The GPU engines are not available (every engine: no CUDA device is available); the lite engines answered."
    note = engines_note(serving("lite", (why,)))
    assert note.startswith("Engines: **lite**") and why in note


def test_the_headline_says_how_a_fine_feeling_is_counted_when_its_class_has_another_name():
    votes = ()
    anxious = headline(Reply(emotion=EmotionResult("anxious", coarse_of("anxious"), votes, "the largest total")))
    assert "## anxious" in anxious and "*anxious* is counted as *sad*" in anxious
    sad = headline(Reply(emotion=EmotionResult("sad", "sad", votes, "the largest total")))
    assert "E3RG's coarse class: **sad**." in sad and "counted as" not in sad


def test_the_vote_chart_shows_the_tally_that_decided_the_vote():
    """Each voter's weight spread over its top labels, as the vote counts it: two hesitant text readers name
    'lonely' first, but the face's sure 'joyful' outweighs their spread mass, and the chart must show that, not a
    count of whose first choice was what."""
    votes = [Vote("MiniLM head", "text", "lonely", 0.4, top=(("lonely", 0.4), ("sad", 0.35), ("joyful", 0.05))),
             Vote("word head", "text", "lonely", 0.45, top=(("lonely", 0.45), ("sad", 0.4), ("afraid", 0.05)),
                  weight=0.8),
             Vote("FER2013", "face", "joyful", 0.9, "happy 0.90 (face in 8 of 8 frames)")]
    emotion = decide(votes, {vote.voter: rank for rank, vote in enumerate(votes)})
    rows = votes_table(Reply(emotion=emotion))
    chart = dict(vote_tally(Reply(emotion=emotion)))
    assert chart == {label: round(total, 2) for label, total in tally(votes).items()}
    assert max(chart, key=chart.get) == emotion.fine == "joyful"
    assert rows[0][-1] == "" and rows[2][-1] == "happy 0.90 (face in 8 of 8 frames)"   # evidence only where it adds


class GpuStandInSpeech(LiteSpeechEngine):
    """The lite voice under a name of its own, standing in for the full tier's voice inside the GPU call: each
    render's recorded engine then tells which tier's engines made it."""
    name = "GPU stand-in: hibari-tts"


class GpuStandInVideo(LiteTalkingPortrait):
    name = "GPU stand-in: portrait rig"


@pytest.fixture(scope="module")
def full_tier_runner(one_torch_thread) -> TurnRunner:
    """A full tier's shape on small engines: every stage in one @spaces.GPU call (off ZeroGPU it runs in this
    process), with the lite tier behind it."""
    lite = Tier("lite", EngineSet(voters=[WordEmotionVoter.from_pretrained(), VoiceProsodyVoter()],
                                  writer=TemplateReplyWriter(), speech=LiteSpeechEngine(), video=LiteTalkingPortrait()))
    # The lite voters vote on the CPU before the call, which counts their votes: the call brings no voter here.
    on_gpu = EngineSet(voters=[], writer=TemplateReplyWriter(), speech=GpuStandInSpeech(), video=GpuStandInVideo())
    # Ample seconds for understanding and speech, so that the video is never handed over for lack of time.
    costs = TierCosts(understanding=lambda query: 30.0, speech=lambda seconds: 30.0,
                      video=lambda seconds, settings: 1.0)
    full = Tier("full", on_gpu, tuple(Stage), ZeroGpuCall(on_gpu, costs, "cpu"))
    return TurnRunner(full, AvatarStore(), example_pool(), None, lite)


def test_compare_on_the_full_tier_pairs_the_emotion_on_its_engines_and_the_tier_on_the_lite_ones(full_tier_runner,
                                                                                                  tmp_path):
    settings = GenerationSettings(seed=0, expression_mode="mirror")
    *_, reply = full_tier_runner.respond(ResponseRequest(text="My grandmother died last week.", settings=settings),
                                         tmp_path / "turn")
    assert rendering_engines(reply) == (GpuStandInSpeech.name, GpuStandInVideo.name)
    neutral, emotional_lite = compare_renders(full_tier_runner, LastTurn(reply, "ava", settings), tmp_path / "compare")
    # The neutral render went through the GPU call as the turn did; the lite one differs from it in engines only.
    assert rendering_engines(neutral) == rendering_engines(reply) and not neutral.notices
    assert neutral.emotion.fine == "neutral" and neutral.expression != reply.expression
    assert rendering_engines(emotional_lite) == (LiteSpeechEngine.name, LiteTalkingPortrait.name)
    assert (emotional_lite.emotion.fine, emotional_lite.expression) == (reply.emotion.fine, reply.expression)
    assert neutral.mp4_path.read_bytes() != reply.mp4_path.read_bytes()
    # (the stand-ins are the lite engines renamed, so the lite render is the turn's picture, in a file of its own)
    assert len({reply.mp4_path.parent, neutral.mp4_path.parent, emotional_lite.mp4_path.parent}) == 3
    note = compare_note(reply, neutral, emotional_lite)
    assert note.count(GpuStandInVideo.name) == 1 and note.count(LiteTalkingPortrait.name) == 1
    assert "differ only in the emotion" in note and "differs only in the engines" in note
    assert f"*{reply.emotion.fine}*" in note and f"*{neutral.expression}*" in note


def test_compare_on_the_lite_tier_renders_no_tier_pair(tmp_path):
    lite = Tier("lite", EngineSet(voters=[VoiceProsodyVoter()], writer=TemplateReplyWriter(),
                                  speech=LiteSpeechEngine(), video=LiteTalkingPortrait()))
    runner = TurnRunner(lite, AvatarStore(), example_pool(), None)
    settings = GenerationSettings(seed=0)
    *_, reply = runner.respond(ResponseRequest(text="I passed my exam!", settings=settings), tmp_path / "turn")
    neutral, emotional_lite = compare_renders(runner, LastTurn(reply, "ava", settings), tmp_path / "compare")
    assert emotional_lite is None and rendering_engines(neutral) == rendering_engines(reply)
    assert "lite engines** (below)" not in compare_note(reply, neutral, None)


def test_a_neutral_render_on_other_engines_is_named_as_such():
    """A neutral render the GPU could not finish comes from the lite engines: the note names both pairs of engines
    and why, and does not claim the two differ only in the emotion."""
    sad = EmotionResult("sad", "sad", (), "the largest total")
    emotional = Reply(emotion=sad, expression="soft, sympathetic",
                      engines={"speech": GpuStandInSpeech.name, "video": GpuStandInVideo.name})
    why = "The GPU could not finish this turn (quota exceeded); the lite (CPU) engines made the speech and video."
    neutral = Reply(emotion=EmotionResult("neutral", "neutral", (), "chosen to compare"), expression="friendly",
                    engines={"speech": LiteSpeechEngine.name, "video": LiteTalkingPortrait.name}, notices=[why])
    note = compare_note(emotional, neutral, None)
    assert "differ in more than the emotion" in note and "only in the emotion" not in note
    for engine in (GpuStandInSpeech.name, GpuStandInVideo.name, LiteSpeechEngine.name, LiteTalkingPortrait.name):
        assert engine in note
    assert why in note
