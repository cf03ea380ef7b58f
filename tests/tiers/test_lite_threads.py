"""The lite tier's math libraries each run on the calling thread alone: several turns call them at once, and their
own thread pools spun against each other on two cores (a turn hung in OpenBLAS in issue 25's soak)."""
import json
import subprocess
import sys

# In a fresh process, as the app loads it: other tests change torch's thread count in this one.
LOAD_AND_READ = """
import json, torch
from threadpoolctl import threadpool_info
from e3rg_core.tiers.lite import lite_tier
lite_tier()
blas = {pool["filepath"]: pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}
print(json.dumps({"blas": blas, "torch": torch.get_num_threads()}))
"""


def test_every_blas_and_torch_run_on_one_thread_once_the_lite_tier_is_loaded():
    done = subprocess.run([sys.executable, "-c", LOAD_AND_READ], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    threads = json.loads(done.stdout.strip().splitlines()[-1])
    assert threads["blas"], "no BLAS library is loaded"
    assert threads["blas"] == {path: 1 for path in threads["blas"]} and threads["torch"] == 1
