"""Fixtures shared by several test files."""
import pytest


@pytest.fixture(scope="module")
def one_torch_thread():
    """Torch on one thread: golden comparisons stay bit-stable and parallel BLAS does not fight the other
    libraries (ffmpeg, llama.cpp) for the two cores."""
    import torch
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)
