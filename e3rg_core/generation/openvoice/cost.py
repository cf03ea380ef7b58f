"""GPU time of one OpenVoice reply, estimated before the call (for a ZeroGPU duration); not measured on a GPU.

2 s + 0.1 s per second of speech prices a sentence above what OpenVoice issue #265 reports, as an admission estimate
should; the fixed part also covers measuring a new avatar's reference voice.
"""
from __future__ import annotations

SPEECH_FIXED_SECONDS = 2.0          # (est.) text front end, model launches, and the avatar's tone colour when not
                                    # yet cached with the avatar (a reference embedding, measured once)
SPEECH_SECONDS_PER_SECOND = 0.1     # (est.) VITS base speaker + tone colour conversion, per second of speech


def openvoice_gpu_seconds(speech_seconds: float) -> float:
    """GPU seconds of speaking `speech_seconds` of reply in the avatar's voice."""
    return SPEECH_FIXED_SECONDS + SPEECH_SECONDS_PER_SECOND * speech_seconds
