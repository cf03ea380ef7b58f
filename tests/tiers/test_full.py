"""The full tier (tiers/full.py): each engine loading on its own, the tier's GPU stages as one unbroken run of the
engines that loaded, the lite engines for the rest, the tier choice and the hub files it reads. Engines are tiny
random Ola-Omni and Qwen2.5-Omni models (CPU), the lite engines standing in for OpenVoice and DICE-Talk."""
from dataclasses import replace

import pytest
from support.gpu_calls import spied_runner

from e3rg_core.contracts import GenerationSettings
from e3rg_core.runner import FramesStored, ResponseRequest, SpeechMade, Stage
from e3rg_core.tiers import full
from e3rg_core.tiers.full import FullEngines, full_tier

pytestmark = pytest.mark.usefixtures("one_torch_thread")

TEXT = "I finally got the job I wanted after three years of trying!"


def test_a_missing_engine_leaves_only_its_stage_to_the_lite_tier(loaded, quick_lite, tmp_path, monkeypatch):
    without_video = replace(loaded, video=None, problems={"DICE-Talk": "LocalEntryNotFoundError: EEEELY/DICE-Talk"})
    tier = full_tier(without_video, quick_lite.engines)
    assert tier.gpu_stages == (Stage.EMOTION, Stage.TEXT, Stage.SPEECH)
    runner, spy = spied_runner(tier, quick_lite, monkeypatch)
    assert "diffusion_video" not in runner.supported_settings      # nothing to choose without DICE-Talk
    *_, reply = runner.respond(ResponseRequest(text=TEXT, settings=GenerationSettings(seed=0)), tmp_path)
    assert len(spy.jobs) == 1 and spy.jobs[0].stages == tier.gpu_stages
    assert reply.engines["text"] == "ola-omni-7b" and reply.engines["video"] == quick_lite.engines.video.name
    assert any("DICE-Talk is not available" in notice and "EEEELY/DICE-Talk" in notice for notice in reply.notices)


def test_without_ola_the_call_ends_after_the_vote_and_the_lite_engines_write(loaded, quick_lite, tmp_path,
                                                                               monkeypatch):
    tier = full_tier(replace(loaded, ola=None, problems={"Ola-Omni": "missing"}), quick_lite.engines)
    assert tier.gpu_stages == (Stage.EMOTION,)
    runner, spy = spied_runner(tier, quick_lite, monkeypatch)
    *_, reply = runner.respond(ResponseRequest(text=TEXT), tmp_path)
    assert len(spy.jobs) == 1 and "qwen2.5-omni-7b" in reply.engines["emotion"]
    assert reply.engines["text"] == quick_lite.engines.writer.name and reply.done


@pytest.mark.parametrize("engine, made_on_the_gpu", [("speech", SpeechMade), ("video", FramesStored)])
def test_a_tier_of_later_stages_only_makes_the_earlier_ones_here_before_its_gpu_call(
        engine, made_on_the_gpu, loaded, quick_lite, gpu_functions_made, tmp_path, monkeypatch):
    """Neither Ola nor Qwen loaded: the vote and the reply (and the speech, for a video-only tier) are made on the
    CPU first, and the call through what spaces.GPU returned takes the turn from there."""
    only = FullEngines("cpu", problems={"Ola-Omni": "missing", "Qwen2.5-Omni": "missing"},
                       **{engine: getattr(loaded, engine)})
    tier = full_tier(only, quick_lite.engines)
    stage = {"speech": Stage.SPEECH, "video": Stage.VIDEO}[engine]
    assert tier.gpu_stages == (stage,) and tier.gpu_call.call is gpu_functions_made.made[0].returned
    runner, spy = spied_runner(tier, quick_lite, monkeypatch)
    *_, reply = runner.respond(ResponseRequest(text=TEXT, settings=GenerationSettings(seed=0)), tmp_path)
    (job,) = spy.jobs
    assert job.stages == (stage,) and [type(event) for event in spy.events] == [made_on_the_gpu]
    assert job.turn.emotion == reply.emotion and job.turn.text == reply.text
    assert (job.turn.speech is not None) == (stage is Stage.VIDEO)
    assert reply.engines["text"] == quick_lite.engines.writer.name
    assert reply.done and reply.wav_path.is_file() and reply.mp4_path.is_file()
    assert not any("GPU" in notice for notice in reply.notices)


def test_each_full_engine_loads_on_its_own(monkeypatch):
    def fails(device):
        raise FileNotFoundError("Qwen/Qwen2.5-Omni-7B is not in the cache")

    made = object()
    monkeypatch.setattr(full, "LOADERS", (("ola", "Ola-Omni", lambda device: made),
                                          ("qwen", "Qwen2.5-Omni", fails),
                                          ("speech", "OpenVoice", lambda device: made),
                                          ("video", "DICE-Talk", lambda device: made)))
    loaded = full.load_full_engines("cpu")
    assert loaded.ola is loaded.speech is loaded.video is made and loaded.qwen is None and loaded.any_loaded
    assert list(loaded.problems) == ["Qwen2.5-Omni"] and "not in the cache" in loaded.problems["Qwen2.5-Omni"]


def test_the_tier_choice(monkeypatch):
    for choice in ("auto", "lite"):
        monkeypatch.setenv("E3RG_TIER", choice)
        assert full.load_tier() is None and not full.full_tier_wanted()       # no GPU here: auto means lite
    monkeypatch.setenv("E3RG_TIER", "fast")
    with pytest.raises(ValueError, match="E3RG_TIER"):
        full.load_tier()


def test_preload_list_names_every_file_the_loaders_read():
    from e3rg_core.generation.dicetalk import hub_files as dicetalk_files
    from e3rg_core.generation.openvoice import required_hub_files
    from e3rg_core.understanding.qwen_omni_voter import QWEN_OMNI_REPO, THINKER_FILES
    lines = full.preload_from_hub()
    listed = {}
    for line in lines:
        repo, _, names = line.partition(" ")
        assert repo not in listed
        listed[repo] = set(names.split(",")) if names else None
    wanted = [*((QWEN_OMNI_REPO, name) for name in THINKER_FILES),
              *((file.repo_id, file.filename) for file in required_hub_files()), *dicetalk_files()]
    assert all(listed[repo] is None or name in listed[repo] for repo, name in wanted)
    assert "spk_dict.pt" not in listed[QWEN_OMNI_REPO]
