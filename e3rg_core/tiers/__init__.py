"""The tiers a turn can run on: lite (CPU, package-shipped models), full (the ported GPU engines) and the ZeroGPU
call that runs the full tier's GPU stages. A tier is data (runner.Tier); the runner is the same for all."""
from __future__ import annotations

from ..memory.avatars import AvatarStore
from ..runner import Tier, TurnRunner
from .lite import example_pool, lite_tier, transcriber


def lite_runner(avatars: AvatarStore | None = None) -> TurnRunner:
    return TurnRunner(lite_tier(), avatars or AvatarStore(), example_pool(), transcriber())


def select_runner(avatars: AvatarStore | None = None) -> TurnRunner:
    """The runner the app should serve: the full tier, with the lite tier behind it, when the full tier was wanted
    (E3RG_TIER=full, or a GPU is present), else the lite tier alone. Call it at import time: importing tiers.full
    loads the GPU models, and ZeroGPU needs them (and the GPU function) before the app launches."""
    from .full import FULL_ENGINES, full_tier
    if FULL_ENGINES is None:
        return lite_runner(avatars)
    lite = lite_tier()
    if not FULL_ENGINES.any_loaded:
        problems = "; ".join(f"{name}: {why}" for name, why in FULL_ENGINES.problems.items())
        serving = Tier("lite", lite.engines, notices=(
            f"The GPU engines are not available ({problems}); the lite (CPU) engines answered.",))
    else:
        serving = full_tier(FULL_ENGINES, lite.engines)
    return TurnRunner(serving, avatars or AvatarStore(), example_pool(), transcriber(), lite)
