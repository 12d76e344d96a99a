"""What every kind of problem's grader shares: the interface the session calls (as DMOJ's
dmoj/graders/base.py) and the steps of judging one run that do not depend on the kind: the
figures measured, a lost fork server, a run held back by other work, the traceback's lines."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from typing import Protocol

from grading.judgement import TestResult, Verdict
from grading.tests import Reader, TestData
from problems import Problem
from sandbox.errors import SandboxError, SandboxLost
from sandbox.outcome import Limits, RunOutcome
from sandbox.sandbox import Sandbox

_FRAME = re.compile(r'\s*File "[^"]*", line (\d+)')
RESULT_HEADER_BYTES = 4096  # a run's answer: its float64 bytes and a JSON header line up to this
RERUNS = 2  # more runs of a test that other work held back over its time limit (docs/sandbox.md)
RERUN_DELAY_S = 3.0  # before each: a machine's load comes and goes (another judging, an install)


class Runs(Protocol):
    """What a grader asks of the submission's session (grading/session.py)."""

    source_lines: list[str]  # the file's lines, to put back into tracebacks

    def live(self) -> Sandbox:
        """The sandbox, started again with the file compiled if the last run took it down."""
        ...

    def close(self) -> None:
        """End the sandbox (and every run in flight): a lost fork server is started again by `live`."""
        ...


class Grader(Protocol):
    """Judges a problem kind's tests, one result per test in test order; the caller may stop early."""

    def results(self, runs: Runs, problem: Problem, reader: Reader, limits: Limits,
                keep_output: bool) -> Iterator[TestResult]: ...


def measured(test: TestData, outcome: RunOutcome) -> TestResult:
    """A test's result with what the operating system measured; the verdict is decided after."""
    if outcome.setup_error is not None:
        raise SandboxError(f"the walls could not be put up: {outcome.setup_error}")
    return TestResult(
        name=test.name,
        verdict=Verdict.AC,
        time_ms=round(outcome.cpu_ms, 1),
        user_ms=round(outcome.user_ms, 1),
        memory_mb=round(outcome.memory_mb, 1),
        output=outcome.output.decode("utf-8", errors="replace"),
        output_size=outcome.output_size,
        output_lines=outcome.output_lines,
        sizes=test.sizes,
        note=test.note,
    )


def held_back(result: TestResult, outcome: RunOutcome, limits: Limits, judged_again: list[str]) -> bool:
    """Whether a run's TLE is one other work held back (its reason is then added to
    `judged_again`): the test is judged again, up to RERUNS times; held back on every run, it
    is undecided (judge_file settles it by the tests after it)."""
    if result.verdict != Verdict.TLE or not outcome.held_back(limits):
        return False
    judged_again.append(f"used {outcome.cpu_ms:.0f} ms of CPU time, over the limit of {limits.cpu_ms} ms, while it "
                        f"waited for a CPU {outcome.waited_ms / max(outcome.wall_ms, 1):.0%} of its "
                        f"{outcome.wall_ms / 1000:.1f} s of wall-clock time")
    return True


def lost(test: TestData, exc: SandboxLost) -> TestResult:
    """The result of a test whose run took its fork server down."""
    return TestResult(test.name, Verdict.TLE if exc.timed_out else Verdict.RE, sizes=test.sizes, note=test.note,
                      message=f"the run stopped or killed its sandbox's fork server ({exc})")


def source_lines(source: bytes) -> list[str]:
    """The file's lines, decoded as Python decodes it (BOM, coding line)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        encoding = "utf-8"
    return source.decode(encoding, errors="replace").splitlines()


def with_source(traceback: str, source: list[str]) -> str:
    """The sandbox cannot show the submission's lines in a traceback (the file is not there):
    put each one back under its `File "...", line N` entry, from the judge's own copy."""
    out = []
    lines = traceback.splitlines()
    for i, line in enumerate(lines):
        out.append(line)
        match = _FRAME.match(line)
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if match and not following.startswith("    ") and 1 <= int(match.group(1)) <= len(source):
            code = source[int(match.group(1)) - 1].strip()
            if code:
                out.append("    " + code[:200])
    return "\n".join(out) + ("\n" if out else "")


def or_default(text: str | None, default: str) -> str:
    """The run's text, or the judge's words where it sent none."""
    return text if text is not None else default
