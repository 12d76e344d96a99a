"""Verdicts, and the ones a run's limits, exit and own report decide before its values are compared."""

from __future__ import annotations

import signal
from enum import StrEnum

from grading.result import text
from sandbox.outcome import FILE_LIMIT_BYTES, Limits, RunOutcome


class Verdict(StrEnum):
    """In the order they take precedence for one test: TLE, OLE, MLE, then CE (the file), RE, WA, AC.
    JE is the judge's own failure, never the submission's."""

    AC = "AC"
    WA = "WA"
    TLE = "TLE"
    MLE = "MLE"
    OLE = "OLE"
    RE = "RE"
    CE = "CE"
    JE = "JE"

    @property
    def title(self) -> str:  # type: ignore[override]  # str.title, shadowed on purpose
        return _TITLES[self]


_TITLES = {Verdict.AC: "Accepted", Verdict.WA: "Wrong Answer", Verdict.TLE: "Time Limit Exceeded",
           Verdict.MLE: "Memory Limit Exceeded", Verdict.OLE: "Output Limit Exceeded", Verdict.RE: "Runtime Error",
           Verdict.CE: "Compilation Error", Verdict.JE: "Judge Error"}


def classify(outcome: RunOutcome, report: dict, limits: Limits) -> tuple[Verdict | None, str]:
    """A verdict decided by limits, exit status or the run's own report; None when values decide.

    The report is the run's claim and can be forged, so it can only ever make the run's own
    verdict RE, MLE or WA, never CE or JE.
    """
    if outcome.cpu_ms > limits.cpu_ms or outcome.signal == signal.SIGXCPU or outcome.ended_for == "cpu":
        if round(outcome.cpu_ms) > limits.cpu_ms:
            return Verdict.TLE, f"used {outcome.cpu_ms:.0f} ms of CPU time, over the limit of {limits.cpu_ms} ms"
        return Verdict.TLE, f"used more than the limit of {limits.cpu_ms} ms of CPU time"  # rounded, it reads as within
    if outcome.ended_for == "sleeping":
        return Verdict.TLE, (f"sleeping or blocked: ended after {outcome.wall_ms / 1000:.1f} s of wall-clock time, "
                             f"{limits.wall_ms / 1000:g} s of it neither running nor waiting for a CPU "
                             f"(CPU {outcome.cpu_ms:.0f} ms)")
    if outcome.output_size >= FILE_LIMIT_BYTES or outcome.signal == signal.SIGXFSZ:
        return Verdict.OLE, (f"wrote {outcome.output_size} bytes to stdout/stderr, over the limit of "
                             f"{FILE_LIMIT_BYTES >> 20} MiB")
    status = report.get("status")
    if outcome.memory_mb > limits.memory_mb or status == "memory":
        return Verdict.MLE, (f"peak memory {outcome.memory_mb:.0f} MiB, over the limit of {limits.memory_mb} MiB"
                             + (" (MemoryError raised)" if status == "memory" else ""))
    if status == "exception":
        where = {"import": " while importing the file", "compile": " while compiling the file",
                 "init": " while constructing Solution()", "lookup": " while looking up the method"}
        phase = str(report.get("phase"))
        during = f" in {phase} (counting from 0)" if phase.startswith("step ") else where.get(phase, "")
        return Verdict.RE, text(report, "message", "an exception") + during
    if status == "lookup":
        return Verdict.RE, text(report, "message")
    if outcome.signal is not None:
        return Verdict.RE, f"killed by signal {signal_name(outcome.signal)}"
    if status == "invalid":
        return Verdict.WA, text(report, "message", "the returned value is not an array of numbers")
    if status != "ok":
        return Verdict.RE, f"the process exited (code {outcome.exit_code}) before the method returned a result"
    return None, ""


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
