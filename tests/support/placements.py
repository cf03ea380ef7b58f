"""Seeing tensor placements the way ZeroGPU's CUDA emulation does: a torch function mode, which is per thread."""
import torch
from torch.overrides import TorchFunctionMode


class PlacementsSeen(TorchFunctionMode):
    """Counts Tensor.to calls made in the thread that entered it."""

    def __init__(self):
        super().__init__()
        self.placements = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is torch.Tensor.to:
            self.placements += 1
        return func(*args, **(kwargs or {}))
