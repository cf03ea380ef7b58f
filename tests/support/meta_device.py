"""The ports' CUDA placement, checked without a GPU: the tiny models run on PyTorch's meta device.

A tensor made inside a forward without device= (torch.arange(n), torch.zeros(...), torch.tensor(...)) lands on the
CPU. The CPU tests cannot notice; on CUDA it fails. A meta tensor sits on a device other than the CPU and holds no
data, so it takes CUDA's part for free: each model is placed on "meta" in the dtypes its loader gives the real one on
CUDA, inputs arrive as the engines hand them over (CPU tensors or numpy arrays where the port moves them itself), and
the forwards run with nothing computed.

Meta enforces CUDA's device rule only in elementwise ops (a CPU tensor beside a meta one raises; a 0-dim CPU scalar
passes, as on CUDA). Matmuls, convolutions, embeddings, gathers and indexing take mixed devices and dtypes on meta
without complaint, so the forwards run under CudaRules, which applies CUDA's checks to every op.

Code that needs tensor values (.item(), .tolist(), nonzero) cannot run on meta; where a forward holds such a step,
the test runs the modules around it and says what was left out.
"""
from __future__ import annotations

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

META = torch.device("meta")
aten = torch.ops.aten
TRANSFERS = {aten._to_copy, aten.copy_}           # moving data between devices is what these are for
# CUDA's matmul and convolution kernels refuse operands of two dtypes; elementwise ops promote instead.
ONE_DTYPE = {aten.mm, aten.addmm, aten.bmm, aten.baddbmm, aten.convolution}


class CudaRules(TorchDispatchMode):
    """Raises where CUDA would: an op given tensors on two devices (0-dim CPU scalars aside), or a matmul or
    convolution given two dtypes. A CPU index tensor is refused too, although CUDA would copy it over: inside a
    forward that copy is a placement slip all the same."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        tensors = [value for value in tree_leaves((args, kwargs)) if isinstance(value, torch.Tensor)]
        devices = {str(tensor.device) for tensor in tensors if tensor.dim() > 0}
        if len(devices) > 1 and func.overloadpacket not in TRANSFERS:
            raise RuntimeError(f"{func} mixes devices {sorted(devices)}")
        dtypes = {str(tensor.dtype) for tensor in tensors}
        if len(dtypes) > 1 and func.overloadpacket in ONE_DTYPE:
            raise RuntimeError(f"{func} mixes dtypes {sorted(dtypes)}")
        return func(*args, **kwargs)


def placed(*tensors: torch.Tensor) -> set[tuple[str, torch.dtype]]:
    return {(tensor.device.type, tensor.dtype) for tensor in tensors}


def meta(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.empty(shape, device=META, dtype=dtype)
