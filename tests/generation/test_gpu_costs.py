"""Each full engine's GPU-time estimate lives beside the engine and covers the published figure it came from."""
import pytest

from e3rg_core.generation.dicetalk.cost import estimate_gpu_seconds
from e3rg_core.generation.openvoice.cost import (SPEECH_FIXED_SECONDS, SPEECH_SECONDS_PER_SECOND,
                                                 openvoice_gpu_seconds)


def test_openvoice_prices_a_sentence_above_its_reported_time():
    # OpenVoice issue #265: ~0.2 s of TTS and ~0.5 s of conversion for one (about 3 s) sentence on a GPU.
    assert openvoice_gpu_seconds(3.0) > 0.2 + 0.5
    assert openvoice_gpu_seconds(20.0) - openvoice_gpu_seconds(10.0) == pytest.approx(10 * SPEECH_SECONDS_PER_SECOND)
    assert openvoice_gpu_seconds(0.0) == SPEECH_FIXED_SECONDS


def test_dicetalk_prices_ten_seconds_above_the_authors_three_minutes():
    # DICE-Talk's authors (in Sonic's issue #23, the same sampler): about 3 min for 10 s at the default 25 steps;
    # a user of Sonic (issue #85): about 2 min for 5 s on an RTX 4090.
    assert estimate_gpu_seconds(10.0, 25) >= 180 and estimate_gpu_seconds(5.0, 25) >= 120
    assert estimate_gpu_seconds(10.0, 10) < estimate_gpu_seconds(10.0, 25) < estimate_gpu_seconds(20.0, 25)
