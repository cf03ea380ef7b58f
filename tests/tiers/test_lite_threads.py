"""The lite tier's math libraries each run on the calling thread alone: several turns call them at once, and their
own thread pools spun against each other on two cores (a turn hung in OpenBLAS in issue 25's soak)."""
from threadpoolctl import threadpool_info


def test_every_blas_and_torch_run_on_one_thread_once_the_lite_tier_is_loaded():
    import torch

    from e3rg_core.tiers.lite import lite_tier
    lite_tier()
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas, "no BLAS library is loaded"
    assert {pool["filepath"]: pool["num_threads"] for pool in blas} == {pool["filepath"]: 1 for pool in blas}
    assert torch.get_num_threads() == 1
