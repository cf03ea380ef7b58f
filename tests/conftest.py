"""Fixtures shared by several test files."""
import importlib.util
from pathlib import Path

import pytest

GPU_SMOKE_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "gpu_smoke.py"


@pytest.fixture(scope="module")
def one_torch_thread():
    """Torch on one thread: golden comparisons stay bit-stable and parallel BLAS does not fight the other
    libraries (ffmpeg, llama.cpp) for the two cores."""
    import torch
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(scope="session")
def gpu_smoke():
    """scripts/gpu_smoke.py as a module: its tiny checkpoint writers are shared with the tests."""
    spec = importlib.util.spec_from_file_location("gpu_smoke", GPU_SMOKE_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
