"""scripts/gpu_smoke.py end to end, as an operator runs it. Without CUDA it runs the same tiny models on the CPU
(4-bit through bitsandbytes' CPU kernels), which keeps every step of the script working between GPU sessions."""
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "gpu_smoke.py"


def test_the_gpu_smoke_script_passes_every_step_with_one_gpu_call():
    run = subprocess.run([sys.executable, SCRIPT], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    table = run.stdout[run.stdout.index("\nstep"):]
    rows = re.findall(r"^(.+?)\s+(\d+\.\d\d)  (ok|FAILED)$", table, flags=re.MULTILINE)
    assert len(rows) == 14 and all(result == "ok" for *_, result in rows)
    assert {"Ola-Omni reply (4-bit NF4)", "Qwen2.5-Omni vote (4-bit NF4)"} <= {name.strip() for name, *_ in rows}
    turn = run.stdout[run.stdout.index("GPU calls:"):]
    assert turn.startswith("GPU calls: 1;")
    assert "'text': 'ola-omni-7b'" in turn and "'speech': 'full: OpenVoice" in turn
    assert "'video': 'full: DICE-Talk" in turn and "notice:" not in turn
