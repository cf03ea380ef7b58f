"""Fixtures of the tiers' tests: the full engines on tiny models, and a record of the GPU functions made."""
import pytest
import spaces
from support.gpu_calls import GpuFunctionsMade

from e3rg_core.generation.lite_speech import LiteSpeechEngine
from e3rg_core.generation.lite_video import LiteTalkingPortrait
from e3rg_dev.hub_rehearsal import tiny
from e3rg_core.tiers.full import FullEngines
from e3rg_core.understanding.ola.engine import OlaRuntime
from e3rg_core.understanding.qwen_omni_voter import QwenOmniVoter


@pytest.fixture(scope="session")
def loaded(tmp_path_factory) -> FullEngines:
    """Every full engine 'loaded': tiny Ola and Qwen, with lite speech and video standing in for the GPU ones."""
    root = tmp_path_factory.mktemp("tiny")
    (root / "ola").mkdir()
    (root / "omni").mkdir()
    return FullEngines("cpu", ola=OlaRuntime.from_pretrained(tiny.write_tiny_ola(root / "ola"), device="cpu",
                                                             quantize=False),
                       qwen=QwenOmniVoter.from_pretrained(tiny.write_tiny_omni(root / "omni"), device="cpu",
                                                          quantize=False),
                       speech=LiteSpeechEngine(), video=LiteTalkingPortrait())


@pytest.fixture
def gpu_functions_made(monkeypatch) -> GpuFunctionsMade:
    made = GpuFunctionsMade(spaces.GPU)
    monkeypatch.setattr(spaces, "GPU", made)
    return made
