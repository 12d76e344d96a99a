"""What a task in the sandbox came to: the limits it ran under and what the fork server reported.

Apart from judge/sandbox.py because nothing of it is needed before the sandbox is launched, and
the judge's start-up time, up to that launch, is part of every verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.sandbox import SandboxLost


class MachineBusy(Exception):
    """A run reached the wall-clock cap without reaching any limit: the machine gave it too little
    CPU to judge it. Not a verdict: the judging stops, nothing is recorded, a rerun is asked for."""

    MESSAGE = "the machine is too busy to judge this run: rerun"


WALL_FACTOR = 3  # a run awake (not waiting for a CPU) this many times its CPU limit is sleeping: TLE
CAP_FACTOR = 20  # plain wall-clock time this many times the CPU limit: too busy a machine to judge


@dataclass(frozen=True)
class Limits:
    """A run's limits; the fork server's clock (judge/inside/clock.py) enforces the three times."""

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


MAX_SOURCE_BYTES = 1 << 20  # a larger file is CE before anything parses it
COMPILE_LIMITS = Limits(cpu_ms=5000, memory_mb=512)  # parsing and compiling the file
ENDED_FOR = (None, "cpu", "sleeping", "busy", "lingering")  # why the fork server killed a run


@dataclass
class RunOutcome:
    """What the operating system reported about one task, and the bytes the task left behind."""

    cpu_ms: float  # user + system: what the time limit is about
    user_ms: float  # user alone: the program's own work (system time is mostly page faults)
    wall_ms: float
    memory_mb: float
    ended_for: str | None  # one of ENDED_FOR: killed by the fork server for time, or for lingering
    exit_code: int | None
    signal: int | None
    output_size: int
    output_lines: int | None
    output: bytes
    result: bytes
    setup_error: str | None = None
    judge_ended: bool = False  # interactive: the judge said `end` (a child killed after that was lingering)


def outcome_of(status: dict, parts: list[bytes]) -> RunOutcome:
    """The fork server's report, checked field by field: a malformed one is the run's doing."""

    def number(key: str) -> float:
        value = status.get(key)
        if type(value) not in (int, float) or value != value or value < 0:
            raise SandboxLost(f"the fork server's report has no valid {key}")
        return float(value)

    def optional_int(key: str) -> int | None:
        value = status.get(key)
        if value is not None and type(value) is not int:
            raise SandboxLost(f"the fork server's report has no valid {key}")
        return value

    if len(parts) != 2:
        raise SandboxLost("the fork server's report is incomplete")
    if status.get("ended_for") == "busy":
        raise MachineBusy(MachineBusy.MESSAGE)
    setup_error = status.get("setup_error")
    return RunOutcome(
        cpu_ms=number("cpu_ms"),
        user_ms=min(number("user_ms"), number("cpu_ms")),
        wall_ms=number("wall_ms"),
        memory_mb=max(0.0, number("peak_rss_kb") - number("base_rss_kb")) / 1024,
        ended_for=status.get("ended_for") if status.get("ended_for") in ENDED_FOR else None,
        exit_code=optional_int("exit_code"),
        signal=optional_int("signal"),
        output_size=int(number("output_size")),
        output_lines=optional_int("output_lines"),
        output=parts[1],
        result=parts[0],
        setup_error=None if setup_error is None else str(setup_error)[:2000],
        judge_ended=status.get("judge_ended") is True,
    )
