"""When the fork server ends a run for time, and why: the verdict must depend on the code alone.

Three limits, checked only at the moments one of them could first be reached (a run that ends
early is never looked at):
- `cpu`: its CPU time since its walls went up passed the limit (the kernel's own count for the
  whole process, the figure wait4 reports afterwards).
- `sleeping`: it is asleep (no task runnable) after the wall limit of wall-clock time not spent
  waiting for a CPU: wall-clock time minus the time its tasks spent runnable but waiting (the
  run delay in /proc/PID/task/*/schedstat, which is also where a cgroup's CPU quota shows), minus,
  for an interactive run, the time the judge took to send its next row. A busy machine slows a
  run down without bringing it closer to this limit; sleeping, blocking or being stopped does.
- `busy`: plain wall-clock time reached the cap: the machine gave the run too little CPU to judge
  it at all, which is nobody's verdict (the judge asks for a rerun).
"""

from __future__ import annotations

import fcntl
import os
import termios
import time

# How fast a run's CPU time can grow against the wall clock: one second a second per core.
CPU_RATE = max(1, len(os.sched_getaffinity(0)))
MIN_CHECK_S = 0.002  # the least time between two looks at one run
RECHECK_S = 0.02  # past the wall limit but not asleep (runnable, or its answer unread): look again


def cpu_ms(pid: int) -> float:
    """The process's CPU time (all its threads, the ended ones too): its CPUCLOCK_SCHED clock."""
    return time.clock_gettime_ns(((~pid) << 3) | 2) / 1e6


def waited_ms(pid: int) -> tuple[float, bool]:
    """Time the process's live tasks spent runnable, waiting for a CPU, and whether one is runnable
    now: the kernel adds a wait to that count only once it is over, so a runnable task may be
    waiting still."""
    total, runnable = 0, False
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0, False
    for tid in tasks:
        try:
            total += int(_read(f"/proc/{pid}/task/{tid}/schedstat").split()[1])
            runnable = runnable or _read(f"/proc/{pid}/task/{tid}/stat").rpartition(b")")[2].split()[0] == b"R"
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
    return total / 1e6, runnable


def _read(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 1024)
    finally:
        os.close(fd)


def unread_bytes(fd: int) -> int:
    """Bytes waiting in a pipe (either end)."""
    return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, bytes(4)), "little", signed=True)


class Clock:
    """One run's time limits. `check` says whether to end it now, and when to look again."""

    def __init__(self, limits, pid: int, answers_fd: int | None = None):
        self.pid = pid
        self.cpu_limit, self.wall_limit, self.cap = limits.cpu_ms, limits.wall_ms, limits.cap_ms
        self.answers_fd = answers_fd  # interactive: the pipe of answers the judge reads
        self.start = time.monotonic()
        self.judge_ms = 0.0  # interactive: the judge's own time between an answer and the next row
        self.next_check = self.start + min(self.cpu_limit / CPU_RATE, self.wall_limit, self.cap) / 1000

    def check(self, now: float, base_cpu_ms: float) -> str | None:
        """The reason to end the run now (cpu, sleeping, busy), or None and `next_check` moved on."""
        elapsed = (now - self.start) * 1000
        if elapsed >= self.cap:
            return "busy"
        try:
            used = cpu_ms(self.pid) - base_cpu_ms
        except OSError:  # reaped meanwhile: its exit is being reported
            return None
        if used > self.cpu_limit:
            return "cpu"
        waited, runnable = waited_ms(self.pid)
        awake = elapsed - waited - self.judge_ms
        if awake < self.wall_limit:
            wait_ms = min((self.cpu_limit - used) / CPU_RATE, self.wall_limit - awake, self.cap - elapsed)
            self.next_check = now + max(wait_ms / 1000, MIN_CHECK_S)
        elif runnable or (self.answers_fd is not None and unread_bytes(self.answers_fd) > 0):
            self.next_check = now + RECHECK_S  # running or waiting for a CPU, or for the judge: not asleep
        else:
            return "sleeping"
        return None
