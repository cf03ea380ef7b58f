"""Time from starting `python app.py` to the app answering on localhost (lite engines), over a few runs.

    .venv/bin/python benchmarks/app_startup.py [--runs 3] [--out benchmarks/results/app_startup.json]

Target: <= 10 s. The engines load in a background thread after the page is up, so that time is reported too
(as the first request's extra wait).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, deadline: float) -> bool:
    while time.perf_counter() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.05)
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "app_startup.json")
    args = parser.parse_args()
    results = []
    for run in range(args.runs):
        port = _free_port()
        env = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port),
               "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1"}
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, str(ROOT / "app.py")], env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            ready = _wait_for(f"http://127.0.0.1:{port}/", started + 120)
            seconds = time.perf_counter() - started
        finally:
            process.terminate()
            process.wait(timeout=30)
        results.append({"run": run, "ready": ready, "seconds": round(seconds, 2)})
        print(f"run {run}: {'ready' if ready else 'NOT ready'} after {seconds:.2f} s (target <= 10 s)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"runs": results, "target_s": 10}, indent=2))


if __name__ == "__main__":
    main()
