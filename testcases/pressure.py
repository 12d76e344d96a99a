"""How much of a stretch of time other work kept runnable tasks off the CPUs (Linux PSI).

A CPU time measured while the machine is oversubscribed is inflated by shared caches and cores, so
a time margin measured then proves nothing either way; /proc/pressure/cpu's "some" line counts
the microseconds in which at least one runnable task was waiting for a CPU.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

# JUDGE_PSI_CPU names another file of the same format: a container's own cgroup cpu.pressure, or a
# test's stand-in.
PSI_CPU = Path(os.environ.get("JUDGE_PSI_CPU", "/proc/pressure/cpu"))


class Stretch:
    """Started on creation; `share()` is the fraction of wall time since then with a task waiting
    for a CPU, or None where the kernel has no PSI."""

    def __init__(self) -> None:
        self._stall, self._start = _stalled_us(), time.monotonic()

    def share(self) -> float | None:
        stall, elapsed = _stalled_us(), time.monotonic() - self._start
        if stall is None or self._stall is None or elapsed <= 0:
            return None
        return min(1.0, (stall - self._stall) / 1e6 / elapsed)


def _stalled_us() -> int | None:
    try:
        for line in PSI_CPU.read_text().splitlines():
            if line.startswith("some "):
                return int(line.rsplit("total=", 1)[1])
    except (OSError, ValueError, IndexError):
        return None
    return None
