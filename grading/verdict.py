"""The verdicts that a run's limits, exit and own report decide before its values are compared."""

from __future__ import annotations

import signal

from grading.judgement import Verdict
from sandbox.inside.protocol import STEP, EndedFor, Phase, Result, ResultStatus
from sandbox.outcome import FILE_LIMIT_BYTES, WALL_FACTOR, Limits, RunOutcome


def classify(outcome: RunOutcome, report: Result | None, limits: Limits) -> tuple[Verdict | None, str]:
    """A verdict decided by limits, exit status or the run's own report; None when values decide.

    The report is the run's claim and can be forged, so it can only ever make the run's own
    verdict RE, MLE or WA, never CE or JE.
    """
    status = report.status if report is not None else None
    message = report.message if report is not None else None
    if outcome.cpu_ms > limits.cpu_ms:  # the figure shown never reads as within the limit
        used = over(outcome.cpu_ms, limits.cpu_ms)
        return Verdict.TLE, f"used {used} ms of CPU time, over the limit of {limits.cpu_ms} ms"
    if outcome.ended_for == EndedFor.CPU:
        return Verdict.TLE, f"stopped on reaching the limit of {limits.cpu_ms} ms of CPU time"
    if outcome.ended_for == EndedFor.SLEEPING:  # awake includes running: the wall limit is not all sleep
        wall = over(outcome.wall_ms / 1000, limits.wall_ms / 1000, or_at=True, least=1)
        return Verdict.TLE, (f"sleeping or blocked: ended after {wall} s of wall-clock time, "
                             f"{limits.wall_ms / 1000:g} s or more of it not spent waiting for a CPU "
                             f"(the limit, {WALL_FACTOR}x the time limit), while it used {outcome.cpu_ms:.0f} ms of "
                             "CPU time")
    if outcome.output_size >= FILE_LIMIT_BYTES:
        return Verdict.OLE, (f"wrote {FILE_LIMIT_BYTES >> 20} MiB ({FILE_LIMIT_BYTES} bytes) to stdout/stderr, all "
                             "that the limit allows" if outcome.output_size == FILE_LIMIT_BYTES else
                             f"wrote {outcome.output_size} bytes to stdout/stderr, over the limit of "
                             f"{FILE_LIMIT_BYTES >> 20} MiB ({FILE_LIMIT_BYTES} bytes)")
    if outcome.memory_mb > limits.memory_mb:
        return Verdict.MLE, (f"peak memory {over(outcome.memory_mb, limits.memory_mb)} MiB, over the limit of "
                             f"{limits.memory_mb} MiB" + (", and a MemoryError raised" if status == ResultStatus.MEMORY
                                                          else ""))
    if status == ResultStatus.MEMORY:  # the allocation never happened: the peak measured is what the run held before
        asked = (message or "")[:500].partition(": ")[2]  # numpy's says the size it asked for
        return Verdict.MLE, ("MemoryError: an allocation was refused, as it would have taken the run past the memory "
                             f"limit of {limits.memory_mb} MiB" + (f" ({asked})" if asked else "")
                             + f"; its measured peak, {outcome.memory_mb:.0f} MiB, leaves out the refused allocation")
    if report is not None and status == ResultStatus.EXCEPTION:
        where = {Phase.IMPORT: " while importing the file", Phase.COMPILE: " while compiling the file",
                 Phase.INIT: " while constructing Solution()", Phase.LOOKUP: " while looking up the method"}
        phase = str(report.phase)
        during = f" in {phase} (counting from 0)" if phase.startswith(STEP) else where.get(Phase(phase), "") \
            if phase in Phase.__members__.values() else ""
        return Verdict.RE, (message if message is not None else "an exception") + during
    if status == ResultStatus.LOOKUP:
        return Verdict.RE, message or ""
    if outcome.signal in (signal.SIGXCPU, signal.SIGXFSZ):  # the kernel sends them only past the limits above
        return Verdict.RE, f"killed by signal {signal_name(outcome.signal)}, under the limits: the run sent it itself"
    if outcome.signal is not None:
        return Verdict.RE, f"killed by signal {signal_name(outcome.signal)}"
    if status == ResultStatus.INVALID:
        return Verdict.WA, message if message is not None else "the returned value is not an array of numbers"
    if status != ResultStatus.OK:
        return Verdict.RE, f"the process exited (code {outcome.exit_code}) before the method returned a result"
    return None, ""


def over(value: float, limit: float, or_at: bool = False, least: int = 0) -> str:
    """`value` with the fewest decimals (at least `least`, at most 3) that still read over `limit`
    (at it or over, with `or_at`): 1000.4 ms is "1000.4", never "1000" beside a limit of 1000 ms."""
    for digits in range(least, 4):
        shown = f"{value:.{digits}f}"
        if float(shown) > limit or or_at and float(shown) >= limit:
            return shown
    return f"more than {limit:g}"


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
