"""The engines the app serves with. app.py loads them with load_engines(): before launch when the full tier is
wanted (ZeroGPU needs its models and GPU function at start-up), else in the background while the page comes up.
Nothing loads when this module is imported."""
from __future__ import annotations

import threading

from .contracts import GenerationSettings
from .memory.avatars import AvatarStore
from .runner import TurnRunner
from .tiers.full import full_tier_wanted

AVATARS = AvatarStore()
DEFAULT_SETTINGS = GenerationSettings(seed=0)


class _Engines:
    """The process's one runner, built once by whichever caller comes first; the others wait for it."""

    def __init__(self):
        self._lock = threading.Lock()
        self._runner: TurnRunner | None = None

    def runner(self) -> TurnRunner:
        with self._lock:
            if self._runner is None:
                from .tiers import select_runner
                from .tiers.full import load_tier
                self._runner = select_runner(AVATARS, load_tier())
            return self._runner


_ENGINES = _Engines()


def load_engines() -> TurnRunner:
    """Loads the engines the app serves with (once; later calls return the same runner)."""
    return _ENGINES.runner()


def runner() -> TurnRunner:
    """The runner serving requests, loading the engines first when app.py has not yet done so."""
    return _ENGINES.runner()


def supported_settings() -> frozenset[str]:
    """The generation settings the serving engines read (the lite tier's are known without loading it)."""
    if full_tier_wanted():
        return runner().supported_settings
    from .tiers.lite import lite_supported_settings
    return lite_supported_settings()
