"""The full tier's ZeroGPU orchestration on this CPU machine (SPACES_ZERO_GPU unset, so @spaces.GPU runs the real
function in-process): what each turn asks ZeroGPU for, exactly one GPU call per turn, picklable call arguments
and results, and the lite tier finishing every turn the GPU cannot.

The "GPU" tier here is the full tier's own assembly (full_tier.assemble) of tiny random Ola-Omni and Qwen2.5-Omni
models, with the lite speech and video engines standing in for OpenVoice and DICE-Talk.
"""
import inspect
import math
import pickle
import re
from dataclasses import fields, is_dataclass, replace
from functools import partial
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest

from e3rg_core import full_tier
from e3rg_core.dialogue import Utterance
from e3rg_core.emotions import FINE_LABELS
from e3rg_core.engines import Animation, AudioClip, EngineSet, GenerationSettings, Speech, UnderstandingRequest, VideoClip
from e3rg_core.full_tier import FullTier, assemble
from e3rg_core.generation.dicetalk import estimate_gpu_seconds
from e3rg_core.generation.dicetalk.portrait import SHORT_SIDE
from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.generation.lite_video import LiteTalkingPortrait
from e3rg_core.limits import MAX_GPU_SECONDS, MAX_VIDEO_STEPS, MIN_VIDEO_STEPS
from e3rg_core.media import write_mp4, write_wav
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.pipeline import E3RGPipeline, ResponseRequest
from e3rg_core.tiers import example_pool
from e3rg_core.understanding.face_voter import FaceEmotionVoter
from e3rg_core.understanding.ola.engine import OlaRuntime
from e3rg_core.understanding.prosody_voter import VoiceProsodyVoter
from e3rg_core.understanding.qwen_omni_voter import QwenOmniVoter
from e3rg_core.understanding.situation_voter import SituationEmotionVoter
from e3rg_core.understanding.template_writer import TemplateReplyWriter
from e3rg_core.zerogpu import (FullTierPipeline, GpuJob, HandedOver, SpeechMade, VideoAnimated, gpu_duration, plan_turn,
                               reply_speech_seconds, store_frames)

pytestmark = pytest.mark.usefixtures("one_torch_thread")

TEXT = "I finally got the job I wanted after three years of trying!"




@pytest.fixture(scope="module")
def lite() -> E3RGPipeline:
    """The lite tier's engines; the template writer stands in for SmolLM to keep the tests quick."""
    engines = EngineSet(voters=[SituationEmotionVoter.from_pretrained(), FaceEmotionVoter.from_pretrained(),
                                VoiceProsodyVoter()],
                        writer=TemplateReplyWriter(), speech=LiteSpeechEngine(), video=LiteTalkingPortrait())
    return E3RGPipeline(engines, AvatarStore(), list(example_pool()))


@pytest.fixture(scope="module")
def gpu_tier(tmp_path_factory, lite, gpu_smoke) -> FullTier:
    smoke = gpu_smoke
    root = tmp_path_factory.mktemp("tiny")
    (root / "ola").mkdir()
    (root / "omni").mkdir()
    ola = OlaRuntime.from_pretrained(smoke.write_tiny_ola(root / "ola"), device="cpu", quantize=False)
    qwen = QwenOmniVoter.from_pretrained(smoke.write_tiny_omni(root / "omni"), device="cpu", quantize=False)
    engines, costs = assemble(ola, qwen, lite.engines.speech, lite.engines.video)
    return FullTier(engines, costs, "cpu")


@pytest.fixture(scope="module")
def media(tmp_path_factory) -> dict[str, Path]:
    """A spoken-tone wav, and a short mp4 of the avatar's face with that audio."""
    folder = tmp_path_factory.mktemp("media")
    t = np.arange(3 * 16_000) / 16_000
    voice = 0.3 * np.sin(2 * np.pi * 190 * t + 3 * np.sin(2 * np.pi * 2 * t)) * (0.5 + 0.5 * np.sin(2 * np.pi * 4 * t))
    wav = write_wav(folder / "turn.wav", voice.astype(np.float32), 16_000)
    face = AvatarStore().get("ava").portrait()
    face = face[: face.shape[0] // 2 * 2, : face.shape[1] // 2 * 2]
    mp4 = write_mp4([np.roll(face, shift, axis=1) for shift in range(0, 75, 3)], 25.0, wav, folder / "turn.mp4")
    return {"wav": wav, "mp4": mp4}


class GpuCallSpy:
    """Counts the real calls of the pipeline's @spaces.GPU function and keeps each job and what it yielded."""

    def __init__(self, pipeline: FullTierPipeline):
        self.real, self.jobs, self.events = pipeline.gpu_turn, [], []
        self.mp4_when_the_call_ended = []

    def __call__(self, job):
        self.jobs.append(job)
        for event in self.real(job):
            self.events.append(event)
            yield event
        self.mp4_when_the_call_ended.append((job.workdir / "reply.mp4").exists())


def spied(pipeline: FullTierPipeline, monkeypatch) -> GpuCallSpy:
    spy = GpuCallSpy(pipeline)
    monkeypatch.setattr(pipeline, "gpu_turn", spy)
    return spy


def same(a, b) -> bool:
    """Equality through dataclasses, tuples and numpy arrays."""
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, BaseException):
        return type(a) is type(b) and a.args == b.args
    return a == b


def test_duration_asked_for_sample_requests(gpu_tier, lite, tmp_path):
    avatar = lite.avatars.get("ava")
    history = (Utterance(0, "speaker", TEXT),)
    rng = np.random.default_rng(0)
    samples = {
        "text only": UnderstandingRequest(history),
        "20 s audio": UnderstandingRequest(history, audio=AudioClip(np.zeros(20 * 16_000, np.float32), 16_000)),
        "64 frames 640x360 + 60 s audio": UnderstandingRequest(
            history, audio=AudioClip(np.zeros(60 * 16_000, np.float32), 16_000),
            video=VideoClip(rng.integers(0, 256, (64, 360, 640, 3), dtype=np.uint8), np.arange(64) / 6.4, 10.0, 25.0)),
    }
    durations = {}
    for steps in (1, 5, 25, MAX_VIDEO_STEPS):
        settings = GenerationSettings(video_steps=steps)
        for name, query in samples.items():
            plan = plan_turn(gpu_tier.costs, query, settings)
            job = GpuJob(query, (), avatar, avatar.portrait(), settings, tmp_path, plan)
            durations[name, steps] = seconds = gpu_duration(job)
            # The video is priced by DICE-Talk's own estimate for the longest reply the writer may produce.
            assert plan.video == estimate_gpu_seconds(reply_speech_seconds(), steps)
            assert 0 < seconds <= MAX_GPU_SECONDS
            assert seconds == min(MAX_GPU_SECONDS, math.ceil(plan.startup + plan.understanding + plan.speech
                                                              + plan.video))
    print("\nZeroGPU duration asked (s):")
    for (name, steps), seconds in durations.items():
        print(f"  {name:<32} video_steps={steps:<3} {seconds}")
    plans = {name: plan_turn(gpu_tier.costs, query, GenerationSettings()) for name, query in samples.items()}
    assert plans["text only"].understanding < plans["20 s audio"].understanding \
        < plans["64 frames 640x360 + 60 s audio"].understanding
    assert durations["text only", 1] < durations["text only", 5] <= durations["text only", 25]
    assert durations["text only", 1] < MAX_GPU_SECONDS      # small turns are not charged the cap
    # At DICE-Talk's default 25 steps its estimate for a full-length reply alone passes the cap, which binds.
    assert estimate_gpu_seconds(reply_speech_seconds(), 25) > MAX_GPU_SECONDS
    assert durations["text only", 25] == MAX_GPU_SECONDS


def test_a_turn_is_one_gpu_call_that_streams_emotion_and_text_first(gpu_tier, lite, media, tmp_path, monkeypatch):
    pipeline = FullTierPipeline(gpu_tier, lite)
    assert inspect.isgeneratorfunction(pipeline.gpu_turn)     # so spaces wraps it as a streaming GPU function
    spy = spied(pipeline, monkeypatch)
    request = ResponseRequest(text=TEXT, video_path=str(media["mp4"]), settings=GenerationSettings(video_steps=1,
                                                                                                  seed=0))
    stages = []
    for reply in pipeline.respond(request, tmp_path):
        if not stages or stages[-1] != reply.stage:
            stages.append(reply.stage)
    assert len(spy.jobs) == 1
    assert stages == ["emotion", "text-streaming", "text", "speech", "done"]
    assert isinstance(spy.events[-1], VideoAnimated) and not any(isinstance(e, HandedOver) for e in spy.events)
    # The GPU call handed over frames; the mp4 was encoded after it ended, and the frames file is gone.
    assert spy.mp4_when_the_call_ended == [False] and not spy.events[-1].frames_path.exists()
    reader = imageio_ffmpeg.read_frames(str(reply.mp4_path))
    meta = next(reader)
    assert sum(1 for _ in reader) == spy.events[-1].frame_count and meta["audio_codec"]
    votes = {vote.voter: vote for vote in reply.emotion.votes}
    # The vote tab shows both omni models beside the lite voters (text, face from the video, its voice).
    assert {"ola-omni-7b", "qwen2.5-omni-7b"} <= votes.keys()
    assert {vote.modality for vote in votes.values()} >= {"omni", "text", "voice"}
    assert all(vote.label in FINE_LABELS for vote in votes.values())
    assert reply.engines["text"] == "ola-omni-7b"
    assert all(name in reply.engines["emotion"] for name in votes)
    assert reply.text and reply.wav_path.is_file() and reply.mp4_path.is_file()
    assert not reply.notices and reply.seconds["gpu"] > 0


def test_the_gpu_call_takes_and_returns_picklable_values(gpu_tier, lite, media, tmp_path, monkeypatch):
    pipeline = FullTierPipeline(gpu_tier, lite)
    spy = spied(pipeline, monkeypatch)
    request = ResponseRequest(audio_path=str(media["wav"]), video_path=str(media["mp4"]), text=TEXT,
                              settings=GenerationSettings(video_steps=1, seed=0))
    *_, reply = pipeline.respond(request, tmp_path)
    job = spy.jobs[0]
    assert job.query.audio is not None and job.query.video is not None and job.portrait.ndim == 3
    assert len(job.cpu_votes) >= 2
    again = pickle.loads(pickle.dumps(job))
    assert same(again, job)
    assert len(spy.events) >= 5
    for event in spy.events:
        assert same(pickle.loads(pickle.dumps(event)), event)
    assert any(isinstance(event, SpeechMade) for event in spy.events)


def test_without_the_diffusion_video_the_gpu_call_ends_after_the_speech(gpu_tier, lite, tmp_path, monkeypatch):
    pipeline = FullTierPipeline(gpu_tier, lite)
    assert "diffusion_video" in pipeline.supported_settings          # so the app shows the choice
    spy = spied(pipeline, monkeypatch)
    settings = GenerationSettings(seed=0, diffusion_video=False)
    *_, reply = pipeline.respond(ResponseRequest(text=TEXT, settings=settings), tmp_path)
    assert len(spy.jobs) == 1 and isinstance(spy.events[-1], SpeechMade)
    plan = spy.jobs[0].plan
    assert plan.video == 0 and gpu_duration(spy.jobs[0]) == math.ceil(plan.startup + plan.understanding + plan.speech)
    with_video = plan_turn(gpu_tier.costs, spy.jobs[0].query, replace(settings, diffusion_video=True))
    assert gpu_duration(spy.jobs[0]) < with_video.seconds
    assert reply.engines["text"] == "ola-omni-7b" and reply.engines["speech"] == gpu_tier.engines.speech.name
    assert reply.stage == "done" and reply.mp4_path.is_file() and not reply.notices     # chosen, not a fallback


def test_a_failing_gpu_call_ends_in_a_lite_answer_with_a_notice(gpu_tier, lite, tmp_path, monkeypatch):
    """The tier claims cuda (configuration): on this machine the GPU call fails, as a refused one would."""
    pipeline = FullTierPipeline(FullTier(gpu_tier.engines, gpu_tier.costs, "cuda"), lite)
    spy = spied(pipeline, monkeypatch)
    stages = [reply.stage for reply in pipeline.respond(ResponseRequest(text=TEXT), tmp_path)]
    assert len(spy.jobs) == 1 and spy.events == []
    assert stages[0] == "emotion" and stages[-1] == "done"
    *_, final = pipeline.respond(ResponseRequest(text=TEXT), tmp_path / "again")
    assert len(spy.jobs) == 2                                      # one call per turn, never a retry
    assert final.engines["text"] == lite.engines.writer.name
    # a text turn: only the text voter could vote, and only the voters that voted are named
    assert final.engines["emotion"] == lite.engines.voters[0].name == final.emotion.votes[0].voter
    notice = " ".join(final.notices)
    assert "GPU could not finish" in notice and "lite (CPU) engines made the emotion vote, reply, speech and video" \
        in notice and "Traceback" not in notice
    assert final.wav_path.is_file() and final.mp4_path.is_file()


def test_a_video_too_costly_for_the_turn_is_rendered_with_fewer_steps(gpu_tier, lite, tmp_path, monkeypatch):
    pipeline = FullTierPipeline(gpu_tier, lite)
    spy = spied(pipeline, monkeypatch)
    request = ResponseRequest(text=TEXT, settings=GenerationSettings(video_steps=MAX_VIDEO_STEPS, seed=0))
    *_, reply = pipeline.respond(request, tmp_path)
    assert len(spy.jobs) == 1 and isinstance(spy.events[-1], VideoAnimated)
    plan, speech = spy.jobs[0].plan, next(event.speech for event in spy.events if isinstance(event, SpeechMade))
    cut = [re.search(r"rendered with (\d+) denoising steps instead of (\d+)", notice) for notice in reply.notices]
    (steps, asked), = [match.groups() for match in cut if match]
    steps, asked = int(steps), int(asked)
    assert asked == MAX_VIDEO_STEPS and MIN_VIDEO_STEPS <= steps < MAX_VIDEO_STEPS
    # The most steps that fit in what was left of the duration asked for.
    price = partial(estimate_gpu_seconds, speech.seconds)
    assert price(steps) <= plan.seconds < price(steps + 1) + reply.seconds["gpu"]
    assert reply.engines["video"] == gpu_tier.engines.video.name and reply.mp4_path.is_file()


def test_a_video_that_would_overrun_even_at_the_fewest_steps_is_handed_to_the_lite_tier(gpu_tier, lite, tmp_path,
                                                                                          monkeypatch):
    """Configured for 2048 x 2048 renders (sixteen times the pixels), no reply's video fits the turn."""
    def large_video(seconds: float, settings: GenerationSettings) -> int:
        return estimate_gpu_seconds(seconds, settings.video_steps, pixels=(4 * SHORT_SIDE) ** 2)

    tier = replace(gpu_tier, costs=replace(gpu_tier.costs, video=large_video))
    pipeline = FullTierPipeline(tier, lite)
    spy = spied(pipeline, monkeypatch)
    request = ResponseRequest(text=TEXT, settings=GenerationSettings(seed=0))
    *_, reply = pipeline.respond(request, tmp_path)
    assert len(spy.jobs) == 1
    kinds = [type(event).__name__ for event in spy.events]
    assert "SpeechMade" in kinds and kinds[-1] == "HandedOver" and "VideoAnimated" not in kinds
    assert spy.events[-1].stage == "video" and f"even at {MIN_VIDEO_STEPS} steps" in spy.events[-1].reason
    assert reply.stage == "done" and reply.mp4_path.is_file()
    assert reply.engines["text"] == "ola-omni-7b" and reply.engines["video"] == lite.engines.video.name
    assert any("GPU video stage handed over" in notice and "made the video" in notice for notice in reply.notices)


def test_without_a_loadable_full_tier_the_lite_tier_answers_with_a_notice(lite, tmp_path, monkeypatch):
    monkeypatch.setenv("E3RG_TIER", "full")
    tier = full_tier.load_tier()
    assert tier.engines is None and "CUDA" in tier.problem
    pipeline = FullTierPipeline(tier, lite)
    assert pipeline.gpu_turn is None
    *_, reply = pipeline.respond(ResponseRequest(text=TEXT), tmp_path)
    assert reply.stage == "done" and reply.engines["video"] == lite.engines.video.name
    assert any("GPU engines are not available" in notice and "CUDA" in notice for notice in reply.notices)


def test_stored_frames_are_exactly_those_announced(tmp_path):
    speech = Speech(np.zeros(16_000, np.float32), 16_000, "test")
    frames = [np.full((4, 6, 3), value, np.uint8) for value in range(3)]
    path = store_frames(Animation(iter(frames), 25.0, 3, speech), tmp_path / "ok.npy")
    assert np.array_equal(np.load(path, allow_pickle=False), np.stack(frames))
    for announced in (2, 4):
        with pytest.raises(ValueError, match=f"not the {announced} it announced"):
            store_frames(Animation(iter(frames), 25.0, announced, speech), tmp_path / f"{announced}.npy")


def test_the_tier_choice(monkeypatch):
    for choice in ("auto", "lite"):
        monkeypatch.setenv("E3RG_TIER", choice)
        assert full_tier.load_tier() is None        # no GPU here: auto means lite
    monkeypatch.setenv("E3RG_TIER", "fast")
    with pytest.raises(ValueError, match="E3RG_TIER"):
        full_tier.load_tier()


def test_preload_list_names_every_file_the_loaders_read():
    from e3rg_core.generation.dicetalk import hub_files as dicetalk_files
    from e3rg_core.generation.openvoice import required_hub_files
    from e3rg_core.understanding.qwen_omni_voter import QWEN_OMNI_REPO, THINKER_FILES
    lines = full_tier.preload_from_hub()
    listed = {}
    for line in lines:
        repo, _, names = line.partition(" ")
        assert repo not in listed
        listed[repo] = set(names.split(",")) if names else None
    wanted = [*((QWEN_OMNI_REPO, name) for name in THINKER_FILES),
              *((file.repo_id, file.filename) for file in required_hub_files()), *dicetalk_files()]
    assert all(listed[repo] is None or name in listed[repo] for repo, name in wanted)
    assert listed["THUdyh/Ola-7b"] is None and "spk_dict.pt" not in listed[QWEN_OMNI_REPO]


def test_the_app_gets_the_lite_pipeline_without_a_gpu_and_the_fallback_when_full_is_asked(monkeypatch):
    from e3rg_core.tiers import select_pipeline
    assert full_tier.FULL_TIER is None and type(select_pipeline()) is E3RGPipeline
    # As if this process had been started with E3RG_TIER=full (the tier is loaded once, at import).
    monkeypatch.setattr(full_tier, "FULL_TIER", full_tier.load_tier("full"))
    pipeline = select_pipeline()
    assert isinstance(pipeline, FullTierPipeline) and pipeline.gpu_turn is None
    assert pipeline.notices and "CUDA" in pipeline.notices[0]
    assert pipeline.supported_settings == (pipeline.lite.engines.speech.supported_settings
                                           | pipeline.lite.engines.video.supported_settings)
