"""The full tier's GPU call (tiers/zerogpu.py) through the turn runner: one @spaces.GPU call per turn on tiny random
Ola-Omni and Qwen2.5-Omni models (CPU), the lite engines standing in for OpenVoice and DICE-Talk, and the lite
resume of whatever the call did not finish. Off ZeroGPU `spaces.GPU` calls the function in this process, so the
call's body really runs."""
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
import spaces
from support.gpu_calls import spied_runner

from e3rg_core.contracts import (Animation, AudioClip, GenerationSettings, Speech, UnderstandingRequest, Utterance,
                                 VideoClip)
from e3rg_core.emotions import FINE_LABELS
from e3rg_core.generation.dicetalk import estimate_gpu_seconds
from e3rg_core.generation.dicetalk.portrait import SHORT_SIDE
from e3rg_core.media import write_mp4, write_wav
from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.runner import FramesStored, HandedOver, ResponseRequest, SpeechMade, Stage, TurnJob
from e3rg_core.settings import MAX_GPU_SECONDS, MAX_VIDEO_STEPS, MIN_VIDEO_STEPS
from e3rg_core.tiers.full import FullEngines, full_tier
from e3rg_core.tiers.zerogpu import (DURATION_REFUSALS, GpuJob, ZeroGpuCall, gpu_duration, plan_turn,
                                     reply_speech_seconds, run_on_gpu, store_frames)

pytestmark = pytest.mark.usefixtures("one_torch_thread")

TEXT = "I finally got the job I wanted after three years of trying!"
ALL_STAGES = list(Stage)


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


def test_duration_asked_for_sample_requests(loaded, quick_lite):
    tier = full_tier(loaded, quick_lite.engines)
    costs = tier.gpu_call.costs
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
            plan = plan_turn(costs, query, settings, tier.gpu_stages)
            durations[name, steps] = seconds = gpu_duration(GpuJob(None, tier.gpu_stages, plan))
            # The video is priced by DICE-Talk's own estimate for the longest reply the writer may produce.
            assert plan.video == estimate_gpu_seconds(reply_speech_seconds(), steps)
            assert 0 < seconds <= MAX_GPU_SECONDS
            assert seconds == min(MAX_GPU_SECONDS, math.ceil(plan.startup + plan.understanding + plan.speech
                                                              + plan.video))
    print("\nZeroGPU duration asked (s):")
    for (name, steps), seconds in durations.items():
        print(f"  {name:<32} video_steps={steps:<3} {seconds}")
    plans = {name: plan_turn(costs, query, GenerationSettings(), tier.gpu_stages) for name, query in samples.items()}
    assert plans["text only"].understanding < plans["20 s audio"].understanding \
        < plans["64 frames 640x360 + 60 s audio"].understanding
    assert durations["text only", 1] < durations["text only", 5] <= durations["text only", 25]
    assert durations["text only", 1] < MAX_GPU_SECONDS      # small turns are not charged the cap
    # At DICE-Talk's default 25 steps its estimate for a full-length reply alone passes the cap, which binds.
    assert estimate_gpu_seconds(reply_speech_seconds(), 25) > MAX_GPU_SECONDS
    assert durations["text only", 25] == MAX_GPU_SECONDS
    # Only the stages inside the call are priced.
    speech_only = plan_turn(costs, samples["text only"], GenerationSettings(), (Stage.SPEECH,))
    assert speech_only.understanding == speech_only.video == 0 < speech_only.speech


def test_a_turn_is_one_gpu_call_that_streams_emotion_and_text_first(loaded, quick_lite, media, tmp_path, monkeypatch):
    tier = full_tier(loaded, quick_lite.engines)
    assert tier.gpu_stages == tuple(Stage) and not tier.notices
    runner, spy = spied_runner(tier, quick_lite, monkeypatch)
    request = ResponseRequest(text=TEXT, video_path=str(media["mp4"]), settings=GenerationSettings(video_steps=1,
                                                                                                  seed=0))
    progress, streamed = [], False
    for reply in runner.respond(request, tmp_path):
        streamed |= reply.writing and not reply.finished[1:]
        if not progress or progress[-1] != reply.finished[-1:]:
            progress.append(reply.finished[-1:])
    assert len(spy.jobs) == 1 and spy.jobs[0].stages == tuple(Stage)
    assert [stage for (stage,) in progress] == ALL_STAGES and streamed
    assert isinstance(spy.events[-1], FramesStored) and not any(isinstance(e, HandedOver) for e in spy.events)
    # The GPU call handed over frames; the mp4 was encoded after it ended, and the frames file is gone.
    assert spy.mp4_when_the_call_ended == [False] and not spy.events[-1].path.exists()
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


def test_the_gpu_call_takes_and_returns_picklable_values(loaded, quick_lite, media, tmp_path, monkeypatch):
    runner, spy = spied_runner(full_tier(loaded, quick_lite.engines), quick_lite, monkeypatch)
    request = ResponseRequest(audio_path=str(media["wav"]), video_path=str(media["mp4"]), text=TEXT,
                              settings=GenerationSettings(video_steps=1, seed=0))
    *_, reply = runner.respond(request, tmp_path)
    job = spy.jobs[0]
    assert isinstance(job.turn, TurnJob)
    assert job.turn.query.audio is not None and job.turn.query.video is not None and job.turn.portrait.ndim == 3
    assert len(job.turn.cast_votes) >= 2
    again = pickle.loads(pickle.dumps(job))
    assert same(again, job)
    assert len(spy.events) >= 5
    for event in spy.events:
        assert same(pickle.loads(pickle.dumps(event)), event)
    assert any(isinstance(event, SpeechMade) for event in spy.events)


def test_without_the_diffusion_video_the_gpu_call_ends_after_the_speech(loaded, quick_lite, tmp_path, monkeypatch):
    tier = full_tier(loaded, quick_lite.engines)
    runner, spy = spied_runner(tier, quick_lite, monkeypatch)
    assert "diffusion_video" in runner.supported_settings          # so the app shows the choice
    settings = GenerationSettings(seed=0, diffusion_video=False)
    *_, reply = runner.respond(ResponseRequest(text=TEXT, settings=settings), tmp_path)
    assert len(spy.jobs) == 1 and isinstance(spy.events[-1], SpeechMade)
    assert Stage.VIDEO not in spy.jobs[0].stages
    plan = spy.jobs[0].plan
    assert plan.video == 0 and gpu_duration(spy.jobs[0]) == math.ceil(plan.startup + plan.understanding + plan.speech)
    with_video = plan_turn(tier.gpu_call.costs, spy.jobs[0].turn.query, replace(settings, diffusion_video=True),
                           tuple(Stage))
    assert gpu_duration(spy.jobs[0]) < with_video.seconds
    assert reply.engines["text"] == "ola-omni-7b" and reply.engines["speech"] == loaded.speech.name
    assert reply.done and reply.mp4_path.is_file() and not reply.notices     # chosen, not a fallback


def test_a_failing_gpu_call_ends_in_a_lite_answer_with_a_notice(loaded, quick_lite, tmp_path, monkeypatch):
    """The tier claims cuda (configuration): on this machine the GPU call fails before its first event, as a
    broken CUDA set-up would."""
    runner, spy = spied_runner(full_tier(replace(loaded, device="cuda"), quick_lite.engines), quick_lite, monkeypatch)
    progress = [reply.finished[-1:] for reply in runner.respond(ResponseRequest(text=TEXT), tmp_path)]
    # No refusal: asking again without the video would fail alike, after another worker's start.
    assert [job.stages for job in spy.jobs] == [tuple(Stage)] and spy.events == []
    assert progress[0] == [Stage.EMOTION] and progress[-1] == [Stage.VIDEO]
    *_, final = runner.respond(ResponseRequest(text=TEXT), tmp_path / "again")
    assert final.engines["text"] == quick_lite.engines.writer.name
    # a text turn: only the text voter could vote, and only the voters that voted are named
    assert final.engines["emotion"] == quick_lite.engines.voters[0].name == final.emotion.votes[0].voter
    notice = " ".join(final.notices)
    assert "GPU could not finish" in notice and "lite (CPU) engines made the emotion vote, reply, speech and video" \
        in notice and "Traceback" not in notice and "refused" not in notice
    assert final.wav_path.is_file() and final.mp4_path.is_file()


def test_a_refused_call_is_asked_again_without_the_video(loaded, quick_lite, tmp_path, monkeypatch):
    tier = full_tier(loaded, quick_lite.engines)
    runner, spy = spied_runner(tier, quick_lite, monkeypatch, refuse_first=1)
    *_, reply = runner.respond(ResponseRequest(text=TEXT, settings=GenerationSettings(seed=0)), tmp_path)
    first, second = spy.jobs
    assert first.stages == tuple(Stage) and second.stages == tuple(Stage)[:-1]
    assert second.plan.seconds < first.plan.seconds and second.plan.video == 0
    # Understanding, text and speech still came from the GPU engines; only the video from the lite portrait.
    assert reply.engines["text"] == "ola-omni-7b" and reply.engines["speech"] == loaded.speech.name
    assert reply.engines["video"] == quick_lite.engines.video.name and reply.done
    assert any(f"refused a {first.plan.seconds} s turn (ZeroGPU quota exceeded: " in notice
               and f"{second.plan.seconds} s without the diffusion video" in notice for notice in reply.notices)


def test_a_refused_call_of_the_video_alone_is_not_asked_again(loaded, quick_lite, tmp_path, monkeypatch):
    """Only DICE-Talk loaded: without the video the call would have no stage left, and book a worker's start for
    nothing."""
    tier = full_tier(FullEngines("cpu", video=loaded.video), quick_lite.engines)
    assert tier.gpu_stages == (Stage.VIDEO,)
    runner, spy = spied_runner(tier, quick_lite, monkeypatch, refuse_first=1)
    *_, reply = runner.respond(ResponseRequest(text=TEXT, settings=GenerationSettings(seed=0)), tmp_path)
    assert [job.stages for job in spy.jobs] == [(Stage.VIDEO,)] and spy.events == []
    assert reply.done and reply.mp4_path.is_file()
    assert any("ZeroGPU quota exceeded" in notice and "lite (CPU) engines made the video" in notice
               for notice in reply.notices)
    assert not any("asked again" in notice for notice in reply.notices)


def test_the_refusals_asked_again_are_those_spaces_scheduler_raises():
    scheduler = (Path(spaces.__file__).parent / "zero" / "client.py").read_text(encoding="utf-8")
    assert DURATION_REFUSALS <= set(re.findall(r'raise error\("([^"]+)"', scheduler))


def test_the_gpu_call_runs_the_function_spaces_gpu_returned(loaded, quick_lite, gpu_functions_made):
    tier = full_tier(loaded, quick_lite.engines)
    made, = gpu_functions_made.made
    assert tier.gpu_call.call is made.returned and made.options == {"duration": gpu_duration}
    # A generator function, so that spaces wraps it as a streaming GPU function, over this tier's engines.
    assert inspect.isgeneratorfunction(made.task) and made.task.func is run_on_gpu
    assert made.task.args[1:] == (tier.gpu_call.costs, loaded.device)


def test_a_video_too_costly_for_the_turn_is_rendered_with_fewer_steps(loaded, quick_lite, tmp_path, monkeypatch):
    runner, spy = spied_runner(full_tier(loaded, quick_lite.engines), quick_lite, monkeypatch)
    request = ResponseRequest(text=TEXT, settings=GenerationSettings(video_steps=MAX_VIDEO_STEPS, seed=0))
    *_, reply = runner.respond(request, tmp_path)
    assert len(spy.jobs) == 1 and isinstance(spy.events[-1], FramesStored)
    plan, speech = spy.jobs[0].plan, next(event.speech for event in spy.events if isinstance(event, SpeechMade))
    cut = [re.search(r"rendered with (\d+) denoising steps instead of (\d+)", notice) for notice in reply.notices]
    (steps, asked), = [match.groups() for match in cut if match]
    steps, asked = int(steps), int(asked)
    assert asked == MAX_VIDEO_STEPS and MIN_VIDEO_STEPS <= steps < MAX_VIDEO_STEPS
    # The most steps that fit in what was left of the duration asked for, the worker's start set aside.
    price = partial(estimate_gpu_seconds, speech.seconds)
    assert price(steps) <= plan.seconds - plan.startup < price(steps + 1) + reply.seconds["gpu"]
    assert reply.engines["video"] == loaded.video.name and reply.mp4_path.is_file()


def test_a_video_that_would_overrun_even_at_the_fewest_steps_is_handed_to_the_lite_tier(loaded, quick_lite, tmp_path,
                                                                                          monkeypatch):
    """Configured for 2048 x 2048 renders (sixteen times the pixels), no reply's video fits the turn."""
    def large_video(seconds: float, settings: GenerationSettings) -> int:
        return estimate_gpu_seconds(seconds, settings.video_steps, pixels=(4 * SHORT_SIDE) ** 2)

    tier = full_tier(loaded, quick_lite.engines)
    tier = replace(tier, gpu_call=ZeroGpuCall(tier.engines, replace(tier.gpu_call.costs, video=large_video), "cpu"))
    runner, spy = spied_runner(tier, quick_lite, monkeypatch)
    *_, reply = runner.respond(ResponseRequest(text=TEXT, settings=GenerationSettings(seed=0)), tmp_path)
    assert len(spy.jobs) == 1
    kinds = [type(event).__name__ for event in spy.events]
    assert "SpeechMade" in kinds and kinds[-1] == "HandedOver" and "FramesStored" not in kinds
    assert spy.events[-1].stage is Stage.VIDEO and f"even at {MIN_VIDEO_STEPS} steps" in spy.events[-1].reason
    assert reply.done and reply.mp4_path.is_file()
    assert reply.engines["text"] == "ola-omni-7b" and reply.engines["video"] == quick_lite.engines.video.name
    assert any("GPU video stage handed over" in notice and "made the video" in notice for notice in reply.notices)


def test_stored_frames_are_exactly_those_announced(tmp_path):
    speech = Speech(np.zeros(16_000, np.float32), 16_000, "test")
    frames = [np.full((4, 6, 3), value, np.uint8) for value in range(3)]
    path = store_frames(Animation(iter(frames), 25.0, 3, speech), tmp_path / "ok.npy")
    assert np.array_equal(np.load(path, allow_pickle=False), np.stack(frames))
    for announced in (2, 4):
        with pytest.raises(ValueError, match=f"not the {announced} it announced"):
            store_frames(Animation(iter(frames), 25.0, announced, speech), tmp_path / f"{announced}.npy")
