"""Loading transformers checkpoints in the calling thread, as ZeroGPU needs.

transformers 5 places tensors from worker threads, but ZeroGPU emulates CUDA in the main thread only (torch function
modes are per thread): a tensor moved to "cuda" in a worker reaches the real CUDA initialisation, which ZeroGPU
refuses outside @spaces.GPU. So loads that place unquantised weights run inside one_thread_weight_loading().
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

SYNCHRONOUS_LOAD_VARIABLE = "HF_DEACTIVATE_ASYNC_LOAD"


@contextmanager
def one_thread_weight_loading() -> Iterator[None]:
    """transformers loads every tensor in the calling thread inside this block; the variable is restored after.

    The variable is process-wide while the block runs; loads happen at start-up, one engine after the other."""
    before = os.environ.get(SYNCHRONOUS_LOAD_VARIABLE)
    os.environ[SYNCHRONOUS_LOAD_VARIABLE] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(SYNCHRONOUS_LOAD_VARIABLE, None)
        else:
            os.environ[SYNCHRONOUS_LOAD_VARIABLE] = before
