"""Comparing the pitch of voices."""
import numpy as np


def semitones(a: float, b: float) -> float:
    """How many semitones the pitch a lies above b (below, when negative)."""
    return 12 * np.log2(a / b)
