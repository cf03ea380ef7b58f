"""The full tier's one @spaces.GPU call per turn: the runner's GPU stages, priced from the request.

ZeroGPU admits a call by the duration it asks for, so the turn is priced first (GpuPlan), under a hard cap. The call
runs in a forked worker: its argument and events are picklable, and the video's frames travel by file. A video that
would overrun is rendered with fewer steps or left to the lite portrait; a call refused for its duration is asked
once more without the video, and any other failure hands the turn to the lite tier.
"""
import spaces  # first: on ZeroGPU it patches torch before anything touches CUDA

import logging
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain
from pathlib import Path

import numpy as np

from ..contracts import Animation, EngineSet, GenerationSettings, Speech, UnderstandingRequest
from ..errors import EngineUnavailableError, InputError, describe
from ..runner import Animated, Event, FramesStored, HandedOver, Notice, Stage, TurnJob, advance, run_stage
from ..settings import MAX_GPU_SECONDS, MAX_REPLY_TOKENS, MAX_SPEECH_SECONDS, MIN_VIDEO_STEPS

log = logging.getLogger(__name__)

# What a turn's GPU call costs beyond its engines' own estimates (generation/*/cost.py, understanding/ola/cost.py).
# Each is an estimate until measured on a GPU (issue 17, scripts/gpu_smoke.py):
# - a cold start forks a worker and moves the packed weights onto the GPU (spaces' zero/wrappers.py): our guess
#   for that move over PCIe, plus the fork;
WORKER_START_SECONDS = 15.0
# - OpenAI's rule of thumb for English through a BPE tokenizer: a token is about three quarters of a word;
WORDS_PER_TOKEN = 0.75
# - a slow conversational pace (150 words a minute), slower than the lite voice speaks, so that a reply's speech is
#   overestimated;
SPOKEN_WORDS_PER_SECOND = 2.5
# - our margin on the understanding and speech estimates, which no GPU has measured (DICE-Talk's has its own).
ESTIMATE_MARGIN = 1.5
# The titles of the errors spaces' scheduler raises for a call it will not admit for the duration asked
# (spaces/zero/client.py, schedule): a shorter call may still be admitted. Any other failure is no refusal.
DURATION_REFUSALS = frozenset({"ZeroGPU quota exceeded", "ZeroGPU illegal duration",
                               "ZeroGPU pending credits exceeded"})


@dataclass(frozen=True)
class TierCosts:
    """GPU seconds of each stage of one turn, priced from the request before the GPU call."""
    understanding: Callable[[UnderstandingRequest], float]     # every GPU voter and the reply writer
    speech: Callable[[float], float]                           # seconds of speech -> GPU seconds
    video: Callable[[float, GenerationSettings], float]        # seconds of speech -> GPU seconds


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


def plan_turn(costs: TierCosts, query: UnderstandingRequest, settings: GenerationSettings,
              stages: tuple[Stage, ...]) -> GpuPlan:
    speech_seconds = reply_speech_seconds()
    return GpuPlan(startup=WORKER_START_SECONDS,
                   understanding=ESTIMATE_MARGIN * costs.understanding(query)
                   if {Stage.EMOTION, Stage.TEXT} & set(stages) else 0.0,
                   speech=ESTIMATE_MARGIN * costs.speech(speech_seconds) if Stage.SPEECH in stages else 0.0,
                   video=costs.video(speech_seconds, settings) if Stage.VIDEO in stages else 0.0)


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
class GpuJob:
    """The GPU call's one argument: the turn so far, the stages to run and the price asked."""
    turn: TurnJob
    stages: tuple[Stage, ...]
    plan: GpuPlan


def gpu_duration(job: GpuJob) -> int:
    """@spaces.GPU's duration callable: called with the GPU function's own argument, it asks for the plan."""
    return job.plan.seconds


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


def run_on_gpu(engines: EngineSet, costs: TierCosts, device: str, job: GpuJob) -> Iterator[Event]:
    """The body of the @spaces.GPU function: the runner's stages on the full engines, within the plan's time."""
    started = time.perf_counter()
    import torch
    if torch.device(device).type == "cuda" and not torch.cuda.is_available():
        raise EngineUnavailableError(f"the GPU call found no CUDA device for the engines placed on {device}")

    def fit_video(speech: Speech, settings: GenerationSettings) -> GenerationSettings | str:
        # The duration asked for includes the worker's start, which this body's clock never saw.
        left = job.plan.seconds - job.plan.startup - (time.perf_counter() - started)
        fitted = fit_video_steps(costs, speech.seconds, settings, left)
        if fitted is not None:
            return fitted
        fewest = replace(settings, video_steps=min(MIN_VIDEO_STEPS, settings.video_steps))
        return (f"a diffusion video of this {speech.seconds:.0f} s reply needs about "
                f"{costs.video(speech.seconds, fewest):.0f} s of GPU time even at {fewest.video_steps} steps, and "
                f"{max(left, 0):.0f} s of this turn's {job.plan.seconds} s were left")

    turn = job.turn
    for stage in job.stages:
        try:
            for event in run_stage(stage, turn, engines, fit_video):
                if isinstance(event, Animated):
                    begun = time.perf_counter()
                    path = store_frames(event.animation, turn.workdir / "reply-frames.npy")
                    event = FramesStored(path, event.animation.fps, event.animation.frame_count, event.engine,
                                         event.seconds + time.perf_counter() - begun, event.notices)
                turn = advance(turn, event)
                yield event
                if isinstance(event, HandedOver):
                    return
        except InputError as error:     # the GPU engine cannot take this input; the lite one may
            yield HandedOver(stage, str(error))
            return
        except Exception as error:      # a failed GPU stage must end in a lite answer, not a stack trace
            log.warning("GPU %s stage failed", stage.value, exc_info=True)
            yield HandedOver(stage, describe(error))
            return


def refused_for_its_duration(error: Exception) -> bool:
    """Whether ZeroGPU refused the call for the duration it asked, before it began (not a failure inside it)."""
    return getattr(error, "title", None) in DURATION_REFUSALS


class ZeroGpuCall:
    """The tier's GPU call: prices a turn's GPU stages and runs them in one @spaces.GPU call.

    It is made when the tier loads, at import: ZeroGPU only reports a Space as a GPU app when a decorated function
    exists at launch."""

    def __init__(self, engines: EngineSet, costs: TierCosts, device: str):
        self.costs = costs
        self.call = spaces.GPU(duration=gpu_duration)(partial(run_on_gpu, engines, costs, device))

    def __call__(self, turn: TurnJob, stages: tuple[Stage, ...]) -> Iterator[Event]:
        job = GpuJob(turn, stages, plan_turn(self.costs, turn.query, turn.settings, stages))
        return self._events(job)

    def _events(self, job: GpuJob) -> Iterator[Event]:
        without_video = tuple(stage for stage in job.stages if stage is not Stage.VIDEO)
        events, begun = None, False
        try:
            events = self.call(job)
            for event in events:
                begun = True
                yield event
            return
        except Exception as error:
            # Only a refused call with the video is asked again, and only when other stages remain: a call of no
            # stage would book a worker's start against the visitor's quota for nothing.
            if begun or not refused_for_its_duration(error) or Stage.VIDEO not in job.stages or not without_video:
                raise
            refusal = error
        finally:
            if events is not None:
                events.close()
        # Refused before it began (most often the visitor's quota): once more without the diffusion video.
        shorter = replace(job, stages=without_video,
                          plan=plan_turn(self.costs, job.turn.query, job.turn.settings, without_video))
        yield Notice(f"The GPU refused a {job.plan.seconds} s turn ({describe(refusal)}); it was asked again for "
                     f"{shorter.plan.seconds} s without the diffusion video, which the lite portrait makes instead.")
        yield from self.call(shorter)
