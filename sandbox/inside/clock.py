"""When the fork server ends a run for time, and why: the verdict must depend on the code alone.

Three limits, checked only at the moments one of them could first be reached (a run that ends
early is never looked at):
- `cpu`: its CPU time since its walls went up passed the limit (the kernel's own count for the
  whole process, the figure wait4 reports afterwards); for a run the machine held back
  (`contended`), the higher limit contention could explain, so that the judge can tell a run
  that other work slowed down from one that is too slow (grading judges the first again).
- `sleeping`: it is asleep (no task runnable) after the wall limit of wall-clock time not spent
  waiting for a CPU: wall-clock time minus the time it waited for one (`waited_ms`: run delay in
  /proc/PID/task/*/schedstat, which is also where a cgroup's CPU quota shows), minus, for an
  interactive run, the time the judge took to send its next row. A busy machine slows a run down
  without bringing it closer to this limit; sleeping, blocking or being stopped does.
- `busy`: plain wall-clock time reached the cap: the machine gave the run too little CPU to judge
  it at all, which is nobody's verdict (the judge asks for a rerun).
A run cannot make itself wait: it may not lower its own priority or pin its threads (seccomp), and
its threads' waits are not added up (`waited_ms`).
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
    """How long the run waited for a CPU, and whether a task of it is runnable now.

    The wait is the longest run delay of any one of its live tasks: for a run of one thread (an
    honest run: BLAS is pinned to one) the wall-clock time it was ready and not running; with
    more, a lower bound of that time. Summed, 41 threads waking together would each add the same
    wait and a run could look starved 41 times over; so threads can make a run look less held
    back, never more. The kernel adds a wait to the count only once it is over, so a runnable
    task may be waiting still."""
    longest, runnable = 0, False
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0, False
    for tid in tasks:
        try:
            longest = max(longest, int(_read(f"/proc/{pid}/task/{tid}/schedstat").split()[1]))
            runnable = runnable or _read(f"/proc/{pid}/task/{tid}/stat").rpartition(b")")[2].split()[0] == b"R"
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
    return longest / 1e6, runnable


def contended(cpu_ms: float, waited_ms: float, wall_ms: float, share: float) -> bool:
    """Whether other work held the run back: it waited for a CPU for `share` of its wall-clock time
    or more, and its CPU time and that wait fit in that time, as they do for one thread; a run
    whose tasks wait behind each other (its own doing) uses more CPU than that."""
    return wall_ms > 0 and waited_ms >= share * wall_ms and cpu_ms + waited_ms <= wall_ms * 1.05 + 5


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
        self.contended_limit, self.share = max(limits.cpu_ms, limits.contended_cpu_ms), limits.contended_share
        self.answers_fd = answers_fd  # interactive: the pipe of answers the judge reads
        self.start = time.monotonic()
        self.judge_ms = 0.0  # interactive: the judge's own time between an answer and the next row
        self.waited_ms = 0.0  # the run's wait for a CPU at the last look
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
        waited, runnable = self.look()
        limit, least_s = self.cpu_limit, MIN_CHECK_S
        if used > self.cpu_limit:  # held back by other work, it runs on to where contention explains no more
            if used > self.contended_limit or not self.contended(used, elapsed):
                return "cpu"
            limit, least_s = self.contended_limit, RECHECK_S
        awake = elapsed - waited - self.judge_ms
        if awake < self.wall_limit:
            wait_ms = min((limit - used) / CPU_RATE, self.wall_limit - awake, self.cap - elapsed)
            self.next_check = now + max(wait_ms / 1000, least_s)
        elif runnable or (self.answers_fd is not None and unread_bytes(self.answers_fd) > 0):
            self.next_check = now + RECHECK_S  # running or waiting for a CPU, or for the judge: not asleep
        else:
            return "sleeping"
        return None

    def over_limit(self, base_cpu_ms: float) -> bool:
        """Whether an ended, unreaped run used more CPU time than its limit."""
        try:
            return cpu_ms(self.pid) - base_cpu_ms > self.cpu_limit
        except OSError:
            return True

    def look(self) -> tuple[float, bool]:
        """The run's wait for a CPU so far (kept: an ended run's tasks are gone), and whether a task
        of it is runnable now."""
        waited, runnable = waited_ms(self.pid)
        self.waited_ms = max(self.waited_ms, waited)
        return self.waited_ms, runnable

    def contended(self, used_ms: float, elapsed_ms: float) -> bool:
        """Over the plain wall clock: `judge_ms` may count a judge's wait twice (in its turn and
        in its own run delay), which is safe for the sleeping rule only."""
        return contended(used_ms, self.waited_ms, elapsed_ms, self.share)
