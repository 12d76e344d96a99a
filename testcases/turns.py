"""Judgings of one `make verify` run share the machine, or one of them has it alone.

verify judges two problems at once (one per core), each judging with its own lanes, so every run
waits for a CPU part of the time and shares the caches: fine for verdicts, not for a time margin.
A time measured over a margin is measured again alone: every judging holds a shared lock on one
file for its duration, and the measurement alone holds it exclusively (flock), so the other
workers start nothing meanwhile.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

_lock: Path | None = None  # set in every worker of a verify run; None: nothing to take turns with


def share_with(path: Path | None) -> None:
    """This process takes turns with every other process given the same file."""
    global _lock
    _lock = path


@contextlib.contextmanager
def turn(alone: bool = False) -> Iterator[None]:
    """The machine shared with the run's other judgings, or (alone) with none of them."""
    if _lock is None:
        yield
        return
    fd = os.open(_lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # releases the lock
