"""The C heap of a long-running server: glibc's malloc keeps memory that turns have freed, in one arena per thread
that ever allocated, and hands little of it back. Gradio serves each turn on a worker thread of a pool, so over
days every worker grows an arena of its own, full of freed but held pages. Fewer arenas, and a trim after every
turn (views.run_turn) and every sweep, keep resident memory where the live data is. Elsewhere than glibc (macOS,
musl) both do nothing."""
from __future__ import annotations

import ctypes
import ctypes.util
import logging
from functools import lru_cache

log = logging.getLogger(__name__)

M_ARENA_MAX = -8        # mallopt's parameter number, from glibc's malloc.h


@lru_cache(maxsize=1)
def _glibc():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt, libc.malloc_trim    # noqa: B018  (both are glibc's)
    except (OSError, AttributeError, TypeError):
        return None
    return libc


def limit_arenas(arenas: int) -> bool:
    """At most `arenas` malloc arenas from now on (threads share them); call before the server's threads start."""
    libc = _glibc()
    return bool(libc and libc.mallopt(M_ARENA_MAX, arenas))


def trim() -> bool:
    """Hand the free pages of every arena back to the system; True when some were."""
    libc = _glibc()
    return bool(libc and libc.malloc_trim(0))
