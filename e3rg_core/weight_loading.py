"""Loading transformers checkpoints in the calling thread, as ZeroGPU needs.

transformers 5 (core_model_loading.convert_and_load_state_dict_in_model) reads and places a checkpoint's tensors
in a pool of worker threads unless HF_DEACTIVATE_ASYNC_LOAD is set, the load quantises on the fly (bitsandbytes
NF4: already one thread) or it offloads to disk. On ZeroGPU, torch's CUDA is emulated by a TorchFunctionMode that
`spaces` enters in the main thread only, and torch function modes are per thread: a bf16 tensor moved to "cuda"
in a loader thread escapes the emulation and reaches the real CUDA initialisation, which ZeroGPU refuses
outside @spaces.GPU. So every load that places unquantised weights on a device runs inside
one_thread_weight_loading().
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
