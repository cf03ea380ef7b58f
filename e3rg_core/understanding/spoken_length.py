"""How long the lite voice takes to say a reply, estimated from its letters and pauses, so a writer can keep a
reply under REPLY_SPEECH_SECONDS without synthesising it."""
from __future__ import annotations

import re

from ..settings import REPLY_SPEECH_SECONDS

# The lite voice (hibari-tts) in its slowest style (sad, at the default intensity) took 0.34 s + 0.074 s a letter or
# digit + 0.49 s a pause (a run of punctuation) to say each of the project's 104 written replies, and at most 0.72 s
# more than that. Hence a second's margin; the voice speeds up a styled reply that still runs over.
SPOKEN_SECONDS = REPLY_SPEECH_SECONDS - 1.0


def spoken_seconds(text: str) -> float:
    """About how long the lite voice takes to say the text in its slowest style (see SPOKEN_SECONDS)."""
    return 0.34 + 0.074 * len(re.findall(r"[A-Za-z0-9]", text)) + 0.49 * len(re.findall(r"[,.!?;:]+", text))
