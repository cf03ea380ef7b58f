"""GPU time of one OpenVoice reply (V1 base speaker, then the tone colour converter), estimated before the call
(for a ZeroGPU duration). Nothing here was measured on a GPU.

Source: myshell-ai/OpenVoice issue #265 reports about 200 ms of base-speaker TTS and 500 ms of tone colour
conversion for one sentence on a GPU (unnamed). A spoken sentence lasts about 3 s, so 2 s + 0.1 s per second prices
it at 2.3 s, above the report, as an admission estimate should be; the fixed part also covers measuring a new
avatar's reference voice. The turn's price adds tiers/zerogpu.py's ESTIMATE_MARGIN on top.
(benchmarks/openvoice_rtf.py times the converter on a CPU, which says little about a GPU.)
"""
from __future__ import annotations

SPEECH_FIXED_SECONDS = 2.0          # (est.) text front end, model launches, and the avatar's tone colour when not
                                    # yet cached with the avatar (a reference embedding, measured once)
SPEECH_SECONDS_PER_SECOND = 0.1     # (est.) VITS base speaker + tone colour conversion, per second of speech


def openvoice_gpu_seconds(speech_seconds: float) -> float:
    """GPU seconds of speaking `speech_seconds` of reply in the avatar's voice."""
    return SPEECH_FIXED_SECONDS + SPEECH_SECONDS_PER_SECOND * speech_seconds
