"""The API's turn gate: `running` turns at once, `waiting` more wait, the rest are turned away at once; a freed
place is taken again."""
import threading

import pytest

from e3rg_core.admission import TurnGate
from e3rg_core.errors import ServerBusyError


def test_beyond_the_running_and_waiting_turns_a_caller_is_refused_and_later_let_in():
    gate, release, admitted = TurnGate(running=2, waiting=1), threading.Event(), []

    def turn():
        with gate.admit():
            admitted.append(1)
            release.wait(10)

    callers = [threading.Thread(target=turn) for _ in range(3)]     # two run, one waits
    for caller in callers:
        caller.start()
    while len(admitted) < 2 or gate.admitted < 3:
        threading.Event().wait(0.01)
    with pytest.raises(ServerBusyError, match="busy"):
        with gate.admit():
            pass
    release.set()
    for caller in callers:
        caller.join(10)
    assert len(admitted) == 3
    with gate.admit():      # the load has passed
        pass
