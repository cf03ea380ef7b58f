"""The tiers a turn can run on: lite (CPU, package-shipped models), full (the ported GPU engines) and the ZeroGPU
call that runs the full tier's GPU stages. A tier is data (runner.Tier); the runner is the same for all."""
from __future__ import annotations

from ..memory.avatars import AvatarStore
from ..runner import Tier, TurnRunner
from .full import FullEngines, full_tier
from .lite import example_pool, lite_tier, transcriber


def lite_runner(avatars: AvatarStore | None = None) -> TurnRunner:
    return TurnRunner(lite_tier(), avatars or AvatarStore(), example_pool(), transcriber())


def select_runner(avatars: AvatarStore | None = None, loaded: FullEngines | None = None) -> TurnRunner:
    """The runner the app should serve: the full tier, with the lite tier behind it, when the full tier was wanted
    (loaded: what full.load_tier() loaded), else the lite tier alone. ZeroGPU needs the GPU function this makes
    before the app launches, so app.py builds it at start-up when the full tier is wanted."""
    if loaded is None:
        return lite_runner(avatars)
    lite = lite_tier()
    if not loaded.any_loaded:
        problems = "; ".join(f"{name}: {why}" for name, why in loaded.problems.items())
        serving = Tier("lite", lite.engines, notices=(
            f"The GPU engines are not available ({problems}); the lite (CPU) engines answered.",))
    else:
        serving = full_tier(loaded, lite.engines)
    return TurnRunner(serving, avatars or AvatarStore(), example_pool(), transcriber(), lite)
