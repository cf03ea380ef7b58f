"""Watching a tier's @spaces.GPU function: what spaces.GPU made, and each call made to it in a turn."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spaces.zero.gradio import error

from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.runner import Tier, TurnRunner
from e3rg_core.tiers.lite import example_pool
from e3rg_core.tiers.zerogpu import GpuJob


def quota_refusal() -> Exception:
    """What spaces' scheduler raises for a call larger than the visitor's quota left (spaces/zero/client.py)."""
    return error("ZeroGPU quota exceeded", "You have exceeded your free ZeroGPU quota (200s requested vs. 41s left). "
                                           "Try again in 0:10:00.")


class GpuCallSpy:
    """Wraps the tier's @spaces.GPU function: counts its real calls and keeps each job and what it yielded."""

    def __init__(self, real, refuse_first: int = 0):
        self.real, self.jobs, self.events, self.refuse_first = real, [], [], refuse_first
        self.mp4_when_the_call_ended = []

    def __call__(self, job: GpuJob):
        self.jobs.append(job)
        if len(self.jobs) <= self.refuse_first:
            raise quota_refusal()       # as ZeroGPU refuses a call: before it begins
        for event in self.real(job):
            self.events.append(event)
            yield event
        self.mp4_when_the_call_ended.append((job.turn.workdir / "reply.mp4").exists())


def spied_runner(tier: Tier, lite: Tier, monkeypatch, refuse_first: int = 0) -> tuple[TurnRunner, GpuCallSpy]:
    spy = GpuCallSpy(tier.gpu_call.call, refuse_first)
    monkeypatch.setattr(tier.gpu_call, "call", spy)
    return TurnRunner(tier, AvatarStore(), example_pool(), None, lite), spy


@dataclass(frozen=True)
class GpuFunction:
    task: Callable          # the function given to spaces.GPU
    options: dict           # spaces.GPU's keyword arguments (duration)
    returned: Callable      # what the tier was handed back


class GpuFunctionsMade:
    """spaces.GPU as it is, keeping each function it decorated.

    Off ZeroGPU spaces.GPU hands back the function itself, and its ZeroGPU wrapper cannot be built here
    (spaces.zero.torch needs a CUDA build of torch). So what the real decorator returned is handed back inside a
    function of its own: a tier that kept the undecorated function would not hold it."""

    def __init__(self, real: Callable):
        self.real, self.made = real, []

    def __call__(self, **options):
        def decorate(task):
            decorated = self.real(**options)(task)

            def gpu_function(job):
                yield from decorated(job)
            self.made.append(GpuFunction(task, options, gpu_function))
            return gpu_function
        return decorate
