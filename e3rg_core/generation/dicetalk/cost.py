"""GPU time of one DICE-Talk render, estimated before the call (for a ZeroGPU duration).

The UNet dominates: steps x windows calls of 3 x 25 frames, growing with the pixel count. The per-call seconds come
from reports on Sonic, whose sampler DICE-Talk shares (Sonic issues #23, #85), padded so that a slow call is not cut
off; benchmarks/dicetalk_speed.py measures it on a CUDA machine.
"""
from __future__ import annotations

import math

from .portrait import SHORT_SIDE
from .sampler import FPS, WINDOW_FRAMES

UNET_SECONDS_PER_CALL = 1.0          # (est.) one 75-frame call at 512x512
SECONDS_PER_OUTPUT_FRAME = 0.03      # (est.) VAE decode + RIFE + transfer, per 25 fps frame at 512x512
FIXED_SECONDS = 15.0                 # (est.) whisper, CLIP, VAE encode, moving inputs, muxing
MARGIN = 1.25


def unet_calls(audio_seconds: float, steps: int) -> int:
    frames = int(audio_seconds * FPS)
    return steps * math.ceil((frames + WINDOW_FRAMES) / WINDOW_FRAMES)


def estimate_gpu_seconds(audio_seconds: float, steps: int, pixels: int = SHORT_SIDE * SHORT_SIDE) -> int:
    """Whole seconds of GPU time to request for a render of this much speech."""
    area = pixels / (SHORT_SIDE * SHORT_SIDE)
    frames = 2 * int(audio_seconds * FPS)
    seconds = (unet_calls(audio_seconds, steps) * UNET_SECONDS_PER_CALL + frames * SECONDS_PER_OUTPUT_FRAME) * area
    return math.ceil((seconds + FIXED_SECONDS) * MARGIN)
