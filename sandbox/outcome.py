"""What a task in the sandbox came to: the limits it ran under and what the fork server reported."""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.errors import MachineBusy, SandboxLost
from sandbox.inside import protocol
from sandbox.inside.protocol import EndedFor

WALL_FACTOR = 3  # a run awake (not waiting for a CPU) this many times its CPU limit is sleeping: TLE
CAP_FACTOR = 20  # plain wall-clock time this many times the CPU limit: too busy a machine to judge
# A run held back by other work (it waited for a CPU for CONTENDED_SHARE of its wall clock or more)
# runs on to CONTENDED_FACTOR times its CPU limit: up to there, contention can explain an overrun
# (grading judges it again); past it, nothing can (Kattis's time_limit_to_tle). docs/sandbox.md.
CONTENDED_FACTOR = 1.5
CONTENDED_SHARE = 0.25
FILE_LIMIT_BYTES = 8 << 20  # stdout+stderr beyond this is an output flood (OLE)
OUTPUT_KEEP_BYTES = 64 << 10  # what the judge keeps of the captured output
ADDRESS_SLACK_BYTES = 96 << 20  # thread stacks and allocator arenas, beyond the memory limit
TASK_LIMIT = 64  # threads a run may start: they buy nothing under a CPU-time limit; a swarm could exhaust pids


@dataclass(frozen=True)
class Limits:
    """A run's limits as a problem gives them; the fork server's clock (inside/clock.py) enforces
    the three times derived from the CPU limit."""

    cpu_ms: int
    memory_mb: int

    @property
    def wall_ms(self) -> int:
        """Wall-clock time the run may spend neither running nor waiting for a CPU."""
        return self.cpu_ms * WALL_FACTOR

    @property
    def cap_ms(self) -> int:
        """Plain wall-clock time after which the machine, not the run, is blamed."""
        return self.cpu_ms * CAP_FACTOR

    @property
    def contended_cpu_ms(self) -> int:
        """CPU time a run held back by other work may reach: an overrun up to it is judged again."""
        return round(self.cpu_ms * CONTENDED_FACTOR)

    def for_task(self, result_bytes: int, file_bytes: int = FILE_LIMIT_BYTES) -> protocol.Limits:
        return protocol.Limits(cpu_ms=self.cpu_ms, wall_ms=self.wall_ms, cap_ms=self.cap_ms,
                               memory_bytes=self.memory_mb << 20, address_slack_bytes=ADDRESS_SLACK_BYTES,
                               tasks=TASK_LIMIT, file_bytes=file_bytes, output_keep_bytes=OUTPUT_KEEP_BYTES,
                               result_bytes=result_bytes, contended_cpu_ms=self.contended_cpu_ms,
                               contended_share=CONTENDED_SHARE)


COMPILE_LIMITS = Limits(cpu_ms=5000, memory_mb=512)  # parsing and compiling the file


@dataclass
class RunOutcome:
    """What the operating system reported about one task, and the bytes the task left behind."""

    cpu_ms: float  # user + system: what the time limit is about
    user_ms: float  # user alone: the program's own work (system time is mostly page faults)
    wall_ms: float
    memory_mb: float
    ended_for: EndedFor | None  # killed by the fork server for time, or for lingering
    exit_code: int | None
    signal: int | None
    output_size: int
    output_lines: int | None
    output: bytes
    result: bytes
    setup_error: str | None = None
    judge_ended: bool = False  # interactive: the judge said `end` (a child killed after that was lingering)
    waited_ms: float = 0.0  # time it waited for a CPU (inside/clock.py)
    contended: bool = False  # other work held it back: it waited for a CPU CONTENDED_SHARE of its wall clock

    def held_back(self, limits: Limits) -> bool:
        """Over its CPU limit by no more than contention explains, in a run other work held back that
        ended by itself (one the clock ended, for its CPU time or asleep, is TLE whatever the load)."""
        return (self.contended and limits.cpu_ms < self.cpu_ms <= limits.contended_cpu_ms
                and self.ended_for in (None, EndedFor.LINGERING))


def outcome_of(header: dict, parts: list[bytes]) -> RunOutcome:
    """The fork server's Status, checked field by field (a malformed one is the run's doing);
    MachineBusy when the run reached the wall-clock cap."""
    try:
        status = protocol.from_wire(protocol.Status, header)
    except ValueError as exc:
        raise SandboxLost(f"the fork server's report is malformed ({exc})") from None
    numbers = (status.cpu_ms, status.user_ms, status.wall_ms, status.peak_rss_kb, status.base_rss_kb,
               status.output_size, status.output_lines, status.waited_ms)
    if len(parts) != 2 or any(n < 0 for n in numbers) or status.ended_for not in (None, *EndedFor):
        raise SandboxLost("the fork server's report is malformed")
    if status.ended_for == EndedFor.BUSY:
        raise MachineBusy(MachineBusy.MESSAGE)
    return RunOutcome(
        cpu_ms=float(status.cpu_ms), user_ms=float(min(status.user_ms, status.cpu_ms)), wall_ms=float(status.wall_ms),
        memory_mb=max(0, status.peak_rss_kb - status.base_rss_kb) / 1024, ended_for=status.ended_for,
        exit_code=status.exit_code, signal=status.signal, output_size=status.output_size,
        output_lines=status.output_lines, output=parts[1], result=parts[0],
        setup_error=None if status.setup_error is None else status.setup_error[:2000],
        judge_ended=status.judge_ended, waited_ms=float(status.waited_ms), contended=status.contended,
    )
