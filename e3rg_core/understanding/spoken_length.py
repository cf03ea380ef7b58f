"""How long the lite voice takes to say a reply, estimated from its letters and pauses, so a writer can keep a
reply under REPLY_SPEECH_SECONDS without synthesising it."""
from __future__ import annotations

import re

from ..settings import REPLY_SPEECH_SECONDS

# Fitted to the lite voice (hibari-tts) in its slowest style (sad, default intensity) on the project's 104 written
# replies of the time: 0.34 s + 0.074 s a letter or digit + 0.49 s a pause (a run of punctuation), at most 0.72 s
# short. Hence a second's margin. Issue 21's slower sad style runs up to 1.5 s past the estimate; the voice speeds
# such a reply up to fit (tests/understanding/test_stances_and_templates.py checks the 8 s).
SPOKEN_SECONDS = REPLY_SPEECH_SECONDS - 1.0


def spoken_seconds(text: str) -> float:
    """About how long the lite voice takes to say the text in its slowest style (see SPOKEN_SECONDS)."""
    return 0.34 + 0.074 * len(re.findall(r"[A-Za-z0-9]", text)) + 0.49 * len(re.findall(r"[,.!?;:]+", text))
