"""The runner the app serves (tiers/__init__.py): the lite tier without a GPU, and the lite tier with a notice when
no full engine loaded."""
from e3rg_core.runner import ResponseRequest
from e3rg_core.tiers import full, select_runner

TEXT = "I finally got the job I wanted after three years of trying!"


def test_the_app_gets_the_lite_runner_without_a_gpu():
    assert full.FULL_ENGINES is None
    runner = select_runner()
    assert runner.tier.name == "lite" and runner.tier.gpu_call is None and runner.lite is runner.tier


def test_without_a_loadable_full_tier_the_lite_tier_answers_with_a_notice(tmp_path, monkeypatch):
    monkeypatch.setenv("E3RG_TIER", "full")
    loaded = full.load_tier()
    assert not loaded.any_loaded and "CUDA" in " ".join(loaded.problems.values())
    monkeypatch.setattr(full, "FULL_ENGINES", loaded)      # as if this process had started with E3RG_TIER=full
    runner = select_runner()
    assert runner.tier.gpu_call is None
    assert runner.supported_settings == (runner.lite.engines.speech.supported_settings
                                         | runner.lite.engines.video.supported_settings)
    *_, reply = runner.respond(ResponseRequest(text=TEXT), tmp_path)
    assert reply.done and reply.engines["video"] == runner.lite.engines.video.name
    assert any("GPU engines are not available" in notice and "CUDA" in notice for notice in reply.notices)

