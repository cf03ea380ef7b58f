"""The page's engines line: which engines serve each stage, and which full engine is missing and why."""
from e3rg_core.contracts import EngineSet
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.generation.lite_video import LiteTalkingPortrait
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.runner import Tier, TurnRunner
from e3rg_core.understanding.prosody_voter import VoiceProsodyVoter
from e3rg_core.understanding.template_writer import TemplateReplyWriter
from e3rg_core.views import engines_note


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
