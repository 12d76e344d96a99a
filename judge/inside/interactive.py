"""The interactive run's supervision, inside the sandbox (an interactive problem's `step` calls).

Rows and answers do not pass through the fork server: the run reads its rows from, and writes its
answers to, two pipes whose other ends the judge holds, so a step costs two process wake-ups, not
four. The fork server keeps what only it can do: the wall clock, and the kill of a run that
lingers after the judge's `end`.
"""

from __future__ import annotations

import os
import select
import signal
import time

import wire

ENDED_GRACE_S = 0.2  # after the judge's `end`, the child's time to see its end frame and exit


def supervise(pid: int, deadline: float, proto_in: int) -> tuple[bool, bool]:
    """Wait for an interactive child's exit, the wall-clock deadline, or the judge's `end` followed
    by a short grace (then it is killed). Returns (timed out, the judge ended it)."""
    pidfd = os.pidfd_open(pid)
    ended_at = None
    try:
        while True:
            now = time.monotonic()
            limit = deadline if ended_at is None else min(deadline, ended_at + ENDED_GRACE_S)
            if now >= limit:
                os.kill(pid, signal.SIGKILL)
                return ended_at is None, ended_at is not None
            readers = [pidfd] + ([proto_in] if ended_at is None else [])
            ready = select.select(readers, [], [], limit - now)[0]
            if pidfd in ready:
                return False, ended_at is not None
            if proto_in in ready:
                try:
                    header, _ = wire.receive(proto_in)
                except (EOFError, ValueError):  # the judge is gone: so is its run
                    os.kill(pid, signal.SIGKILL)
                    os._exit(0)
                if header.get("kind") == "end":
                    ended_at = time.monotonic()
    finally:
        os.close(pidfd)


def await_end(proto_in: int) -> None:
    """After an interactive run's last report, the judge's `end`."""
    while True:
        try:
            header, _ = wire.receive(proto_in)
        except (EOFError, ValueError):
            os._exit(0)
        if header.get("kind") == "end":
            return
