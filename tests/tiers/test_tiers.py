"""The runner the app serves (tiers/__init__.py): the lite tier without a GPU, the lite tier with a notice when no
full engine loaded, and the full tier, with its @spaces.GPU function made at import, when any one did."""
import pytest

from e3rg_core.runner import ResponseRequest, Stage
from e3rg_core.tiers import full, select_runner
from e3rg_core.tiers.full import FullEngines

TEXT = "I finally got the job I wanted after three years of trying!"


def test_the_app_gets_the_lite_runner_without_a_gpu():
    assert not full.full_tier_wanted() and full.load_tier() is None
    runner = select_runner(None, full.load_tier())
    assert runner.tier.name == "lite" and runner.tier.gpu_call is None and runner.lite is runner.tier


def test_without_a_loadable_full_tier_the_lite_tier_answers_with_a_notice(tmp_path, monkeypatch):
    monkeypatch.setenv("E3RG_TIER", "full")
    loaded = full.load_tier()
    assert not loaded.any_loaded and "CUDA" in " ".join(loaded.problems.values())
    runner = select_runner(None, loaded)
    assert runner.tier.gpu_call is None
    assert runner.supported_settings == (runner.lite.engines.speech.supported_settings
                                         | runner.lite.engines.video.supported_settings)
    *_, reply = runner.respond(ResponseRequest(text=TEXT), tmp_path)
    assert reply.done and reply.engines["video"] == runner.lite.engines.video.name
    assert any("GPU engines are not available" in notice and "CUDA" in notice for notice in reply.notices)


@pytest.mark.parametrize("engines, gpu_stages", [
    (("ola", "qwen", "speech", "video"), tuple(Stage)),
    (("ola",), (Stage.EMOTION, Stage.TEXT)),
    (("qwen",), (Stage.EMOTION,)),
    (("speech",), (Stage.SPEECH,)),
    (("video",), (Stage.VIDEO,)),
])
def test_any_full_engine_loaded_makes_the_gpu_function_the_tier_calls(engines, gpu_stages, loaded,
                                                                        gpu_functions_made, monkeypatch):
    """ZeroGPU reports a Space as a GPU app only when a @spaces.GPU function exists at launch."""
    some = FullEngines("cpu", **{engine: getattr(loaded, engine) for engine in engines})
    runner = select_runner(None, some)      # as if only these had loaded at start-up
    made, = gpu_functions_made.made
    assert runner.tier.name == "full" and runner.tier.gpu_stages == gpu_stages
    assert runner.tier.gpu_call.call is made.returned
