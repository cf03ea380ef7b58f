"""scripts/full_size_dry_run.py at miniature size, as an operator runs it: the same writers, loaders and steps as the
full-size run (which takes tens of minutes and ~20 GB of disk), so the script cannot rot between runs."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "full_size_dry_run.py"


# About 2 min on 2 idle cores (four processes, each importing torch and transformers); room for a busy runner.
@pytest.mark.timeout(1200)
def test_the_dry_run_loads_and_steps_every_engine_and_writes_its_table(tmp_path):
    out = tmp_path / "dry_run.json"
    run = subprocess.run([sys.executable, SCRIPT, "--miniature", "--out", out, "--workdir", tmp_path],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    report = json.loads(out.read_text())
    rows = {row["key"]: row for row in report["rows"]}
    assert list(rows) == ["ola", "qwen", "openvoice", "dicetalk"] and report["miniature"]
    for row in rows.values():
        assert row["ok"] and row["build_seconds"] > 0 and row["step_seconds"] > 0
        assert row["parameters"] > 0 and row["weights_gib"] >= 0
        assert 0 < row["build_memory"]["peak_anon_gib"] <= row["process_peak_rss_gib"]
        assert row["engine"] in run.stdout
    # The LLM voters answered with generated text; the 4-bit layers hold fewer bytes than bf16 ones would.
    assert rows["ola"]["answer"] is not None and rows["qwen"]["answer"] is not None
    assert "8 frames" in rows["ola"]["step"] and "1 speech chunk" in rows["ola"]["step"]
    assert rows["dicetalk"]["step"].startswith(
        "one UNet call: 25 of a window's 25 frames x 3 guidance branches at 64x64")
    assert "| engine | write s | build s |" in run.stdout

    # A run of one engine replaces its row and keeps the others.
    report["rows"][2]["step_seconds"] = -1.0
    out.write_text(json.dumps(report))
    again = subprocess.run([sys.executable, SCRIPT, "--miniature", "--engines", "openvoice", "--out", out,
                            "--workdir", tmp_path], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout[-4000:] + again.stderr[-4000:]
    updated = {row["key"]: row for row in json.loads(out.read_text())["rows"]}
    assert list(updated) == list(rows) and updated["ola"] == rows["ola"]
    assert updated["openvoice"]["step_seconds"] > 0
