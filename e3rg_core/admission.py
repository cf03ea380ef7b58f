"""Admission of the API's turns, which skip gradio's queue (app.py): at most `running` at once and `waiting` more
waiting for them, as gradio's queue bounds the page's; a turn beyond both is turned away at once with
ServerBusyError, and nothing is kept of it."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import ServerBusyError


class TurnGate:
    def __init__(self, running: int, waiting: int):
        self.running, self.waiting = running, waiting
        self._slots = threading.BoundedSemaphore(running)
        self._lock = threading.Lock()
        self._admitted = 0      # running and waiting

    @property
    def admitted(self) -> int:
        """Turns running and waiting now."""
        return self._admitted

    @contextmanager
    def admit(self) -> Iterator[None]:
        with self._lock:
            if self._admitted >= self.running + self.waiting:
                raise ServerBusyError(f"The Space is busy: {self.running} turns are being answered and "
                                      f"{self.waiting} are waiting. Please try again in a minute.")
            self._admitted += 1
        try:
            with self._slots:
                yield
        finally:
            with self._lock:
                self._admitted -= 1
