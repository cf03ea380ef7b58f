"""Models load where a reader expects them: app.py's explicit serving.load_engines(), never as a side effect of
importing a module."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Importing every module of the package, and the app itself, must not build a runner or read a model file.
IMPORT_ALL = """
import importlib, pkgutil, sys
import e3rg_core
names = [m.name for m in pkgutil.walk_packages(e3rg_core.__path__, "e3rg_core.") if not m.name.endswith("__main__")]
for name in names:
    importlib.import_module(name)
import app
from e3rg_core import serving
# What loading the lite engines and the transcriber imports (the voice, the face model's reader, speech-to-text).
loaded = [name for name in ("hibari", "h5py", "faster_whisper", "ctranslate2", "onnxruntime") if name in sys.modules]
print("RUNNER", serving._ENGINES._runner is not None, "MODULES", len(names), "RUNTIMES", ",".join(loaded))
"""


def test_importing_the_package_and_the_app_loads_no_engine():
    done = subprocess.run([sys.executable, "-c", IMPORT_ALL], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("RUNNER False MODULES"), line
    assert int(line.split()[3]) > 40            # every module was imported
    assert line.endswith("RUNTIMES"), line      # no model runtime was even imported


def test_the_runner_is_built_once_by_the_first_caller():
    from e3rg_core import serving
    assert serving.load_engines() is serving.runner() is serving.load_engines()
