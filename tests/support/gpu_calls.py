"""Watching a tier's @spaces.GPU function: each call made to it in a turn."""
from __future__ import annotations

from e3rg_core.memory.avatars import AvatarStore
from e3rg_core.runner import Tier, TurnRunner
from e3rg_core.tiers.lite import example_pool
from e3rg_core.tiers.zerogpu import GpuJob


class GpuCallSpy:
    """Wraps the tier's @spaces.GPU function: counts its real calls and keeps each job and what it yielded."""

    def __init__(self, real, fail_first: int = 0):
        self.real, self.jobs, self.events, self.fail_first = real, [], [], fail_first
        self.mp4_when_the_call_ended = []

    def __call__(self, job: GpuJob):
        self.jobs.append(job)
        if len(self.jobs) <= self.fail_first:
            raise RuntimeError("ZeroGPU quota exceeded")     # what a refused call raises before it begins
        for event in self.real(job):
            self.events.append(event)
            yield event
        self.mp4_when_the_call_ended.append((job.turn.workdir / "reply.mp4").exists())


def spied_runner(tier: Tier, lite: Tier, monkeypatch, fail_first: int = 0) -> tuple[TurnRunner, GpuCallSpy]:
    spy = GpuCallSpy(tier.gpu_call.call, fail_first)
    monkeypatch.setattr(tier.gpu_call, "call", spy)
    return TurnRunner(tier, AvatarStore(), example_pool(), None, lite), spy

