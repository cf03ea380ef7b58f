"""The project's own listener writing per stance (listener_examples.json): reply openers and example
exchanges that show the model the length and tone of a reply."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import CheckpointMismatchError
from .prompts import STANCES

EXAMPLES_FILE = Path(__file__).with_name("listener_examples.json")
SHOTS = 3                   # example exchanges of the stance in the prompt, the same for every turn


@dataclass(frozen=True)
class StanceWriting:
    """The project's own writing for one stance: reply openers and example (speaker, listener) exchanges."""
    openers: tuple[str, ...]
    exchanges: tuple[tuple[str, str], ...]


def load_writing(path: Path = EXAMPLES_FILE) -> dict[str, StanceWriting]:
    """Every stance's openers and exchanges (at least one opener and SHOTS exchanges each)."""
    try:
        stances = json.loads(path.read_text(encoding="utf-8"))["stances"]
        writing = {name: StanceWriting(tuple(str(o) for o in stances[name]["openers"]),
                                       tuple((str(x["speaker"]), str(x["listener"]))
                                             for x in stances[name]["exchanges"]))
                   for name in STANCES}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CheckpointMismatchError(f"{path.name} is not a listener writing file: {error!r}") from None
    short = [name for name, w in writing.items() if not w.openers or len(w.exchanges) < SHOTS]
    if short:
        raise CheckpointMismatchError(f"{path.name}: no openers or fewer than {SHOTS} exchanges for "
                                      f"{', '.join(short)}.")
    return writing
