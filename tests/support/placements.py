"""Seeing tensor placements the way ZeroGPU's CUDA emulation does: a torch function mode, which is per thread."""
import os
from collections.abc import Callable

import torch
from torch.overrides import TorchFunctionMode

from e3rg_core.weight_loading import SYNCHRONOUS_LOAD_VARIABLE


class PlacementsSeen(TorchFunctionMode):
    """Counts Tensor.to calls made in the thread that entered it."""

    def __init__(self):
        super().__init__()
        self.placements = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is torch.Tensor.to:
            self.placements += 1
        return func(*args, **(kwargs or {}))


def assert_every_weight_placed_in_the_calling_thread(load: Callable[[], torch.nn.Module], monkeypatch) -> None:
    """load() places each of its model's tensors in the calling thread, where ZeroGPU's CUDA emulation sees it
    (e3rg_core.weight_loading), and leaves the variable that asks transformers for it as it found it."""
    monkeypatch.delenv(SYNCHRONOUS_LOAD_VARIABLE, raising=False)
    with PlacementsSeen() as mode:
        model = load()
    tensors = len(model.state_dict())
    assert mode.placements >= tensors, f"{mode.placements} placements seen for {tensors} tensors"
    assert SYNCHRONOUS_LOAD_VARIABLE not in os.environ
