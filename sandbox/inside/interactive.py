"""The interactive run's supervision, inside the sandbox (an interactive problem's `step` calls).

Rows and answers do not pass through the fork server: the run reads its rows from, and writes its
answers to, two pipes whose other ends the judge holds, so a step costs two process wake-ups, not
four. The fork server keeps what only it can do: the wall clock, and the kill of a run that
lingers after the judge's `end` (server.py's _supervise, with the pieces below). The wall clock
counts the judge's turns (from an answer to the next row) as the judge's, not the run's.
"""

from __future__ import annotations

import os
import signal

import wire
from protocol import Control, ControlKind, from_wire

ENDED_GRACE_S = 0.2  # after the judge's `end`, the child's time to see its end frame and exit


def receive(proto_in: int, pid: int) -> Control:
    """One message from the judge while a run steps. A judge that is gone (or talks nonsense)
    takes its run with it."""
    try:
        header, _ = wire.receive(proto_in)
        return from_wire(Control, header)
    except (EOFError, ValueError):
        os.kill(pid, signal.SIGKILL)
        os._exit(0)


def await_end(proto_in: int) -> None:
    """After an interactive run's last report, the judge's `end`."""
    while True:
        try:
            header, _ = wire.receive(proto_in)
        except (EOFError, ValueError):
            os._exit(0)
        if header.get("kind") == ControlKind.END:
            return
