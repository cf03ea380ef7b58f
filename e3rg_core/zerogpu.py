"""The full tier on ZeroGPU: one @spaces.GPU call per turn, with the lite tier behind it.

A turn runs in three parts:
1. On the CPU, before the call: decode the media and transcribe (the lite pipeline's understanding_request), let
   the lite voters vote, decode the avatar's portrait, and price the turn (GpuPlan). ZeroGPU schedules and
   admits the call by the duration it asks for, so the price is computed from the request: frames, tokens,
   audio seconds, the longest reply the writer may produce, and the video settings, under a hard cap.
2. The GPU call (run_on_gpu, a generator): the GPU voters vote, the vote decides over every voter, the reply
   streams, then speech and the video's frames. Its one argument (GpuJob) and everything it yields are plain
   picklable values: on ZeroGPU it runs in a forked worker process and they travel through pipes. The frames
   go to a file in the request's folder instead, and are encoded after the call, when the GPU is released.
3. On the CPU, after or instead of it: whatever the call did not finish is done by the lite engines, with a
   notice. That covers no full tier loaded, a refused call (quota, no GPU free, duration above the allowed
   maximum), a failed call or stage, and a video that would overrun the time the call asked for even with its
   denoising steps cut to MIN_VIDEO_STEPS (a video that fits with fewer steps than asked is rendered so).
"""
import spaces  # first: on ZeroGPU it patches torch before anything touches CUDA

import logging
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain
from pathlib import Path

import numpy as np
import torch

from .engines import Animation, EmotionResult, EmotionVoter, GenerationSettings, Speech, UnderstandingRequest, Vote
from .errors import EngineUnavailableError, InputError
from .full_tier import FullTier, TierCosts, describe
from .limits import MAX_GPU_SECONDS, MAX_REPLY_TOKENS, MAX_SPEECH_SECONDS, MIN_VIDEO_STEPS
from .media import write_wav
from .memory.avatars import Avatar, AvatarStore
from .pipeline import E3RGPipeline, Reply, ResponseRequest

log = logging.getLogger(__name__)

WORDS_PER_TOKEN = 0.75          # English through a BPE tokenizer
SPOKEN_WORDS_PER_SECOND = 2.5   # a conversational pace at speech_speed 1.0
ESTIMATE_MARGIN = 1.5           # on the unmeasured understanding and speech estimates (DICE-Talk's has its own)


def reply_speech_seconds() -> float:
    """The longest speech a reply can become: MAX_REPLY_TOKENS spoken at a conversational pace."""
    return min(MAX_SPEECH_SECONDS, MAX_REPLY_TOKENS * WORDS_PER_TOKEN / SPOKEN_WORDS_PER_SECOND)


@dataclass(frozen=True)
class GpuPlan:
    """The GPU seconds one turn is expected to take, stage by stage, and the duration asked of ZeroGPU."""
    startup: float
    understanding: float
    speech: float
    video: float

    @property
    def seconds(self) -> int:
        return min(MAX_GPU_SECONDS, math.ceil(self.startup + self.understanding + self.speech + self.video))


def plan_turn(costs: TierCosts, query: UnderstandingRequest, settings: GenerationSettings) -> GpuPlan:
    speech_seconds = reply_speech_seconds()
    return GpuPlan(startup=costs.startup, understanding=ESTIMATE_MARGIN * costs.understanding(query),
                   speech=ESTIMATE_MARGIN * costs.speech(speech_seconds),
                   video=costs.video(speech_seconds, settings) if settings.diffusion_video else 0.0)


def fit_video_steps(costs: TierCosts, speech_seconds: float, settings: GenerationSettings,
                    seconds_left: float) -> GenerationSettings | None:
    """The settings with the most denoising steps, up to those asked for, whose video fits in seconds_left.

    Fewer steps cost detail, not the reply's diffusion video; below MIN_VIDEO_STEPS (or the steps asked for, when
    fewer) the answer is None and the lite portrait renders the reply instead."""
    for steps in range(settings.video_steps, min(MIN_VIDEO_STEPS, settings.video_steps) - 1, -1):
        fitted = replace(settings, video_steps=steps)
        if costs.video(speech_seconds, fitted) <= seconds_left:
            return fitted
    return None


@dataclass(frozen=True)
class CastVote:
    """A vote cast on the CPU before the GPU call, with its voter's tie-break rank."""
    vote: Vote
    priority: int


class ReplayedVoter(EmotionVoter):
    """Puts a CastVote back into the tally, so that the vote on the GPU counts every voter of the turn."""

    def __init__(self, cast: CastVote):
        self.name, self.modality, self.priority = cast.vote.voter, cast.vote.modality, cast.priority
        self.cast = cast.vote

    def vote(self, request: UnderstandingRequest) -> Vote:
        return self.cast


@dataclass(frozen=True)
class GpuJob:
    """The GPU call's one argument: a decoded turn and all it needs, as picklable values."""
    query: UnderstandingRequest
    cpu_votes: tuple[CastVote, ...]
    avatar: Avatar
    portrait: np.ndarray
    settings: GenerationSettings
    workdir: Path
    plan: GpuPlan


def gpu_duration(job: GpuJob) -> int:
    """@spaces.GPU's duration callable: called with the GPU function's own argument, it asks for the plan."""
    return job.plan.seconds


# What the GPU call yields, in order; it stops early after a HandedOver.
@dataclass(frozen=True)
class EmotionVoted:
    emotion: EmotionResult
    seconds: float
    notices: tuple[str, ...]


@dataclass(frozen=True)
class ReplySoFar:
    text: str


@dataclass(frozen=True)
class ReplyWritten:
    text: str
    writer: str
    seconds: float
    notices: tuple[str, ...]


@dataclass(frozen=True)
class SpeechMade:
    speech: Speech
    wav_path: Path
    seconds: float


@dataclass(frozen=True)
class VideoAnimated:
    frames_path: Path               # an .npy of (frame_count, H, W, 3) uint8, to be encoded after the call
    fps: float
    frame_count: int
    seconds: float
    notices: tuple[str, ...]


@dataclass(frozen=True)
class HandedOver:
    """The GPU call stops here; the lite tier does this stage and the rest."""
    stage: str
    reason: str


def store_frames(animation: Animation, path: Path) -> Path:
    """The animation's frames in an .npy file, written as they are made: the worker hands over a path rather than
    hundreds of megabytes through its pipe, and the encoding waits until the GPU is released."""
    frames = iter(animation.frames)
    first = next(frames)
    stored = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint8, shape=(animation.frame_count, *first.shape))
    made = 0
    for made, frame in enumerate(chain([first], frames), start=1):
        if made > animation.frame_count:
            break
        stored[made - 1] = frame
    if made != animation.frame_count:
        raise ValueError(f"The video engine's frames are not the {animation.frame_count} it announced.")
    stored.flush()
    return path


def run_on_gpu(tier: FullTier, avatars: AvatarStore, job: GpuJob) -> Iterator[object]:
    """The GPU part of one turn (the body of the @spaces.GPU function)."""
    started = time.perf_counter()
    if torch.device(tier.device).type == "cuda" and not torch.cuda.is_available():
        raise EngineUnavailableError(f"the GPU call found no CUDA device for the engines placed on {tier.device}")
    engines = tier.engines
    stages = E3RGPipeline(replace(engines, voters=[*map(ReplayedVoter, job.cpu_votes), *engines.voters]), avatars, [])
    stage = "emotion"
    try:
        notices: list[str] = []
        emotion = stages.understand(job.query, notices)
        yield EmotionVoted(emotion, time.perf_counter() - started, tuple(notices))
        stage, begun, notices = "text", time.perf_counter(), []
        for text in stages.write(job.query, emotion, notices):
            yield ReplySoFar(text)
        yield ReplyWritten(text, engines.writer.name, time.perf_counter() - begun, tuple(notices))
        stage, begun = "speech", time.perf_counter()
        speech = engines.speech.synthesize(text, emotion.coarse, job.avatar, job.settings)
        wav = write_wav(job.workdir / "reply.wav", speech.samples, speech.sample_rate)
        yield SpeechMade(speech, wav, time.perf_counter() - begun)
        if not job.settings.diffusion_video:
            return      # the visitor chose the lite portrait, which animates the reply after the call
        stage, begun = "video", time.perf_counter()
        left = job.plan.seconds - (begun - started)
        settings = fit_video_steps(tier.costs, speech.seconds, job.settings, left)
        if settings is None:
            fewest = replace(job.settings, video_steps=min(MIN_VIDEO_STEPS, job.settings.video_steps))
            yield HandedOver(stage, f"a diffusion video of this {speech.seconds:.0f} s reply needs about "
                                    f"{tier.costs.video(speech.seconds, fewest):.0f} s of GPU time even at "
                                    f"{fewest.video_steps} steps, and {max(left, 0):.0f} s of this turn's "
                                    f"{job.plan.seconds} s were left")
            return
        animation = engines.video.animate(job.portrait, speech, emotion.coarse, settings)
        frames = store_frames(animation, job.workdir / "reply-frames.npy")
        cut = () if settings == job.settings else (
            f"The video was rendered with {settings.video_steps} denoising steps instead of "
            f"{job.settings.video_steps}, to fit this turn's GPU time.",)
        yield VideoAnimated(frames, animation.fps, animation.frame_count, time.perf_counter() - begun, cut)
    except InputError as error:     # the GPU engine cannot take this input; the lite one may
        yield HandedOver(stage, str(error))
    except Exception as error:      # a failed GPU stage must end in a lite answer, not a stack trace
        log.warning("GPU %s stage failed", stage, exc_info=True)
        yield HandedOver(stage, describe(error))


@dataclass
class _Turn:
    reply: Reply
    query: UnderstandingRequest
    avatar: Avatar
    portrait: np.ndarray
    settings: GenerationSettings
    workdir: Path
    cpu_emotion: EmotionResult
    cpu_seconds: float
    speech: Speech | None = None
    animated: VideoAnimated | None = None


def _missing(reply: Reply) -> str:
    """What is still to be made, in words: 'reply, speech and video'."""
    parts = [name for name, missing in (("emotion vote", reply.emotion is None),
                                        ("reply", reply.stage in ("started", "emotion", "text-streaming")),
                                        ("speech", reply.wav_path is None), ("video", reply.mp4_path is None))
             if missing]
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


class FullTierPipeline:
    """The full tier with the lite tier behind it. respond() yields a growing Reply like E3RGPipeline.respond.

    The @spaces.GPU function is made here, so the pipeline must be built at import (before the app launches):
    ZeroGPU only reports a Space as a GPU app when a decorated function exists at launch.
    """

    def __init__(self, tier: FullTier, lite: E3RGPipeline):
        self.tier, self.lite = tier, lite
        self.notices = [] if tier.engines else [
            f"The GPU engines are not available ({tier.problem}); the lite (CPU) engines answered."]
        self.gpu_turn = None if tier.engines is None else spaces.GPU(duration=gpu_duration)(
            partial(run_on_gpu, tier, lite.avatars))

    @property
    def avatars(self) -> AvatarStore:
        return self.lite.avatars

    @property
    def supported_settings(self) -> frozenset[str]:
        """The generation settings that an engine serving this pipeline honours."""
        sets = [self.lite.engines] + ([self.tier.engines] if self.tier.engines else [])
        chosen_here = {"diffusion_video"} if self.tier.engines else set()
        return frozenset(chosen_here).union(*(engines.speech.supported_settings | engines.video.supported_settings
                                              for engines in sets))

    run = E3RGPipeline.run      # respond() to the end, then reply.json: the same steps for either pipeline

    def respond(self, request: ResponseRequest, workdir: Path, avatar: Avatar | None = None) -> Iterator[Reply]:
        workdir.mkdir(parents=True, exist_ok=True)
        reply = Reply(notices=list(self.notices))
        avatar = avatar or self.lite.avatars.get(request.avatar)
        query = self.lite.understanding_request(request, reply)
        reply.history, reply.avatar = query.history, avatar.name
        started = time.perf_counter()
        cpu_emotion = self.lite.understand(query, reply.notices)
        cpu_seconds = time.perf_counter() - started
        started = time.perf_counter()
        portrait = avatar.portrait()
        reply.seconds["memory"] = time.perf_counter() - started
        turn = _Turn(reply, query, avatar, portrait, request.settings, workdir, cpu_emotion, cpu_seconds)
        if self.gpu_turn is not None:
            yield from self._on_gpu(turn)
        yield from self._on_lite(turn)

    # -- the GPU call --------------------------------------------------------------------------------
    def _job(self, turn: _Turn) -> GpuJob:
        ranks = {voter.name: voter.priority for voter in self.lite.engines.voters}
        return GpuJob(query=turn.query, cpu_votes=tuple(CastVote(vote, ranks[vote.voter])
                                                        for vote in turn.cpu_emotion.votes),
                      avatar=turn.avatar, portrait=turn.portrait, settings=turn.settings, workdir=turn.workdir,
                      plan=plan_turn(self.tier.costs, turn.query, turn.settings))

    def _on_gpu(self, turn: _Turn) -> Iterator[Reply]:
        reply = turn.reply
        try:
            job = self._job(turn)
        except Exception as error:      # the GPU engines cannot take this turn (e.g. too long for them)
            reason = str(error) if isinstance(error, InputError) else describe(error)
            log.warning("the turn could not be priced for the GPU", exc_info=not isinstance(error, InputError))
            reply.notices.append(f"The GPU engines cannot take this turn: {reason.rstrip('.')}. The lite (CPU) "
                                 f"engines made the {_missing(reply)}.")
            return
        started = time.perf_counter()
        events = self.gpu_turn(job)
        try:
            for event in events:
                if isinstance(event, HandedOver):
                    reply.notices.append(f"The GPU {event.stage} stage handed over: {event.reason.rstrip('.')}. "
                                         f"The lite (CPU) engines made the {_missing(reply)}.")
                    return
                self._apply(turn, event)
                if not isinstance(event, VideoAnimated):
                    yield reply
        except Exception as error:      # refused or failed call (quota, no GPU, worker error): answer on lite
            log.warning("the GPU call failed", exc_info=True)
            reply.notices.append(f"The GPU could not finish this turn ({describe(error)}); the lite (CPU) engines "
                                 f"made the {_missing(reply)}.")
        finally:
            events.close()
            reply.seconds["gpu"] = time.perf_counter() - started
        if turn.animated is not None:
            yield from self._encode(turn)

    def _encode(self, turn: _Turn) -> Iterator[Reply]:
        """The GPU's frames as the reply's mp4, encoded here once the GPU call has ended."""
        reply, animated, video = turn.reply, turn.animated, self.tier.engines.video
        started = time.perf_counter()
        try:
            frames = np.load(animated.frames_path, mmap_mode="r", allow_pickle=False)
            rendered = video.encode(Animation(frames, animated.fps, animated.frame_count, turn.speech),
                                    turn.workdir / "reply.mp4")
        except Exception as error:      # an unreadable frames file or a failed encode: the lite video follows
            log.warning("the GPU video could not be encoded", exc_info=True)
            reply.notices.append(f"The GPU video could not be encoded ({describe(error)}); the lite (CPU) engines "
                                 f"made the {_missing(reply)}.")
            return
        finally:
            animated.frames_path.unlink(missing_ok=True)
        reply.mp4_path, reply.engines["video"] = rendered.path, rendered.engine
        reply.seconds["video"] = animated.seconds + time.perf_counter() - started
        reply.notices.extend(animated.notices)
        reply.stage = "done"
        yield reply

    def _apply(self, turn: _Turn, event: object) -> None:
        reply = turn.reply
        if isinstance(event, EmotionVoted):
            reply.emotion = event.emotion
            reply.engines["emotion"] = event.emotion.voted_by
            reply.seconds["emotion"] = turn.cpu_seconds + event.seconds
            reply.notices.extend(event.notices)
            reply.stage = "emotion"
        elif isinstance(event, ReplySoFar):
            reply.text, reply.stage = event.text, "text-streaming"
        elif isinstance(event, ReplyWritten):
            reply.text, reply.engines["text"], reply.seconds["text"] = event.text, event.writer, event.seconds
            reply.notices.extend(event.notices)
            reply.stage = "text"
        elif isinstance(event, SpeechMade):
            turn.speech = event.speech
            reply.wav_path, reply.engines["speech"] = event.wav_path, event.speech.engine
            reply.seconds["speech"], reply.stage = event.seconds, "speech"
        elif isinstance(event, VideoAnimated):
            turn.animated = event

    # -- the lite tier, for whatever is left ----------------------------------------------------------
    def _on_lite(self, turn: _Turn) -> Iterator[Reply]:
        reply, lite = turn.reply, self.lite.engines
        if reply.stage == "done":
            return
        reply.notices.extend(notice for notice in lite.notices if notice not in reply.notices)
        if reply.emotion is None:
            reply.emotion = turn.cpu_emotion
            reply.engines["emotion"] = reply.emotion.voted_by
            reply.seconds["emotion"], reply.stage = turn.cpu_seconds, "emotion"
            yield reply
        if reply.stage in ("emotion", "text-streaming"):
            started = time.perf_counter()
            reply.stage = "text-streaming"
            for reply.text in self.lite.write(turn.query, reply.emotion, reply.notices):
                yield reply
            reply.engines["text"], reply.seconds["text"] = lite.writer.name, time.perf_counter() - started
            reply.stage = "text"
            yield reply
        if turn.speech is None:
            started = time.perf_counter()
            turn.speech = lite.speech.synthesize(reply.text, reply.emotion.coarse, turn.avatar, turn.settings)
            reply.wav_path = write_wav(turn.workdir / "reply.wav", turn.speech.samples, turn.speech.sample_rate)
            reply.engines["speech"], reply.seconds["speech"] = turn.speech.engine, time.perf_counter() - started
            reply.stage = "speech"
            yield reply
        started = time.perf_counter()
        video = lite.video.render(turn.portrait, turn.speech, reply.emotion.coarse, turn.settings,
                                  turn.workdir / "reply.mp4")
        reply.mp4_path, reply.engines["video"] = video.path, video.engine
        reply.seconds["video"], reply.stage = time.perf_counter() - started, "done"
        yield reply
