"""CudaRules, the meta-device stand-in for CUDA's checks that the ports' placement tests run under."""
import pytest
import torch
from support.meta_device import CudaRules, meta, placed


def test_cuda_rules_refuse_what_meta_alone_lets_through():
    weight = meta(4, 3)
    torch.nn.functional.embedding(torch.arange(2), weight)      # meta's own kernels accept a CPU index
    with CudaRules(), pytest.raises(RuntimeError, match="mixes devices"):
        torch.nn.functional.embedding(torch.arange(2), weight)
    with CudaRules(), pytest.raises(RuntimeError, match="mixes dtypes"):
        meta(2, 4, dtype=torch.bfloat16) @ weight
    with CudaRules():
        assert placed(weight * torch.tensor(2.0)) == {("meta", torch.float32)}   # a CPU scalar is fine
