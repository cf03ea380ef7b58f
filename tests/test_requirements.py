"""requirements.txt gives the Space a torch that ZeroGPU supports, while local installs keep constraints.txt's CPU
build: `pip install -c constraints.txt -r requirements.txt` (scripts/install.sh) must not want another torch."""
import json
import subprocess
import sys
from pathlib import Path

import yaml
from packaging.markers import default_environment
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
# hub-docs docs/hub/spaces-zerogpu.md ("Supported Versions", 2026-08): the torch versions and Pythons of ZeroGPU.
ZEROGPU_TORCH_VERSIONS = ("2.8.0", "2.9.1", "2.10.0", "2.11.0")
ZEROGPU_PYTHONS = {"3.10": "3.10.13", "3.12": "3.12.12"}


def requirements(path: Path) -> list[Requirement]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [Requirement(line) for line in lines if line and not line.startswith("-")]


def torch_requirements(environment: dict[str, str]) -> list[Requirement]:
    return [req for req in requirements(ROOT / "requirements.txt")
            if req.name == "torch" and (req.marker is None or req.marker.evaluate(environment))]


def space_environment(patch: int | None = None) -> dict[str, str]:
    """The markers' environment on the Space: ZeroGPU's Python for README's python_version, or another patch
    release of it."""
    front_matter = yaml.safe_load((ROOT / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    python = ZEROGPU_PYTHONS[str(front_matter["python_version"])]
    if patch is not None:
        python = f"{python.rsplit('.', 1)[0]}.{patch}"
    return {**default_environment(), "python_full_version": python, "python_version": python.rsplit(".", 1)[0]}


def test_the_space_pins_a_torch_that_zerogpu_supports_on_any_patch_release():
    for environment in (space_environment(), *(space_environment(patch) for patch in range(30))):
        (torch,) = torch_requirements(environment)
        (pin,) = torch.specifier
        assert pin.operator == "==" and pin.version in ZEROGPU_TORCH_VERSIONS, environment["python_full_version"]


def test_local_installs_keep_the_constrained_cpu_torch():
    (constraint,) = [req for req in requirements(ROOT / "constraints.txt") if req.name == "torch"]
    (local,) = [spec.version for spec in constraint.specifier]
    wanted = torch_requirements(dict(default_environment()))
    assert wanted and all(req.specifier.contains(local) for req in wanted)
    assert space_environment()["python_version"] != default_environment()["python_version"]


def test_pip_wants_no_other_torch_with_the_constraints():
    report = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", "-", "-c", "constraints.txt",
         "-r", "requirements.txt"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert report.returncode == 0, report.stderr
    installs = {item["metadata"]["name"].lower() for item in json.loads(report.stdout)["install"]}
    assert not installs & {"torch", "torchvision", "torchaudio"}
