"""Judging one submission file on one problem's tests: compile, import check, the tests' runs
(by the grader of the problem's kind), the report's data. The sandbox (sandbox/) runs the code;
the graders decide what came of each run."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path

from grading.detect import detect_problem
from grading.grader import Grader, or_default, source_lines, with_source
from grading.interactive import InteractiveGrader
from grading.judgement import Report, TestResult, Verdict
from grading.source import MAX_SOURCE_BYTES, read_source
from grading.standard import StandardGrader
from grading.tests import Reader, TestData, select_tests
from grading.verdict import signal_name
from problems import Problem, ProblemError, TestCase
from sandbox.errors import MachineBusy, SandboxError, SandboxLost, SandboxUnavailable
from sandbox.inside.protocol import EndedFor, Phase, ResultStatus, read_compiled, read_result
from sandbox.outcome import COMPILE_LIMITS, Limits
from sandbox.sandbox import Sandbox, submission_sandbox

GRADERS: dict[str, Grader] = {"function": StandardGrader(), "interactive": InteractiveGrader()}  # by problem.kind

Tests = Callable[[Problem], Sequence[TestCase | Path | TestData]]  # a problem's tests to judge, made for it


def stored(patterns: list[str] | None = None) -> Tests:
    """The problem's stored tests matching `patterns` (names, numbers, globs), every one by default."""
    return lambda problem: select_tests(problem, patterns)


def given(tests: Sequence[Path | TestData]) -> Tests:
    """These tests: files, or tests already read (TestData, as a warm worker keeps them)."""
    return lambda problem: tests


@dataclass(frozen=True)
class Options:
    """How a file is judged; the defaults judge it as a user's file is judged.

    `tests` makes the tests for the problem (told from the file when none is given): `stored`,
    `given`, or cases made in memory (the practice layer's `run`). `run_all` goes on past the
    first failure. `time_limit_ms` overrides problem.toml's limit: verification measures how far
    past the limit a slow solution goes, which a run cut off at the limit cannot show.
    `held_is_tle`: a test held back on every run is TLE, not undecided (verification judges a slow
    solution at 3x the limit, where an overrun that contention inflated by its most, 1.5x, is
    still past twice the real limit). `keep_output` keeps each run's returned array on its
    TestResult. `on_test(report, result)` is told of each test as soon as it is judged (the web
    page shows verdicts as they come).
    `sandbox`: one started already for this file (it boots while the caller loads); closed at the
    end, unless `keep_sandbox`: a warm one (Sandbox(warm=True)) the caller keeps for its next file,
    which is released instead (one that was lost on the way is closed: `sandbox.alive` tells)."""

    tests: Tests = stored()
    run_all: bool = False
    time_limit_ms: int | None = None
    held_is_tle: bool = False
    keep_output: bool = False
    on_test: Callable[[Report, TestResult], None] | None = None
    sandbox: Sandbox | None = None
    keep_sandbox: bool = False


def judge_file(path: Path, problem: Problem | None, options: Options = Options()) -> Report:
    """Judge `path` on the problem's tests (Options); with no problem, the one whose method the
    file defines. Raises ProblemError when the problem cannot be told or no test matches, SandboxUnavailable
    when no sandbox with every wall can be had here, MachineBusy when the machine gave a run too
    little CPU to judge it.
    """
    report = Report(problem, str(path), Verdict.AC, 0)
    sandbox, keep_sandbox = options.sandbox, options.keep_sandbox
    source = read_source(path)
    if source is None:
        if sandbox is not None and not keep_sandbox:
            sandbox.close()
        report.verdict = Verdict.CE
        report.message = (f"the file is {path.stat().st_size} bytes, over the {MAX_SOURCE_BYTES >> 20} MiB limit "
                          "for a source file")
        return report
    report.source_sha256, report.source = sha256(source).hexdigest(), source
    sandbox = sandbox or submission_sandbox(path)
    sandbox.start()  # it boots while the tests are read

    reader = Reader(problem, options.tests(problem)) if problem is not None else None  # reads while the sandbox starts
    report.total = len(reader) if reader is not None else 0
    with Session(path, source, sandbox, keep_sandbox) as session, contextlib.ExitStack() as stack:
        if reader is not None:
            stack.enter_context(reader)
        try:
            methods = session.start(report)
            if report.verdict != Verdict.AC:
                return report
            if problem is None:
                problem, reason = detect_problem(methods)
                if problem is None:
                    raise ProblemError(f"{path}: cannot tell the problem: {reason}")
                reader = stack.enter_context(Reader(problem, options.tests(problem)))
                report.problem, report.total = problem, len(reader)
            assert reader is not None  # read with the problem, given or told
            session.live().check_hidden(problem.root)
            limits = Limits(options.time_limit_ms or problem.time_limit_ms, problem.memory_limit_mb)
            if not session.check(problem, limits, report):
                return report
            held: TestResult | None = None  # the first test held back on every run (docs/sandbox.md)
            for result in GRADERS[problem.kind].results(session, problem, reader, limits, options.keep_output):
                report.tests.append(result)
                if options.on_test is not None:
                    options.on_test(report, result)
                if result.undecided and not options.held_is_tle:  # TLE or AC: a later test may settle it
                    held = held or result
                    continue
                if result.verdict != Verdict.AC:
                    if held is not None and result.verdict != Verdict.TLE:
                        raise MachineBusy(MachineBusy.MESSAGE)  # TLE or this one's, by the held test's
                    if held is not None:
                        held.message += (f"; the machine was busy on every run, but test {result.name} is TLE "
                                         "whatever the load, so the verdict is TLE either way")
                    if report.verdict == Verdict.AC:
                        report.verdict = Verdict.TLE if held is not None else result.verdict
                    if not options.run_all or result.verdict == Verdict.JE:
                        break
            if held is not None and report.verdict == Verdict.AC:  # AC or TLE: it cannot be told here
                raise MachineBusy(MachineBusy.MESSAGE)
        except SandboxUnavailable:
            raise
        except SandboxError as exc:
            report.verdict, report.message = Verdict.JE, f"the sandbox failed: {exc}"
    if report.first_failure is not None and not report.message:
        report.message = report.first_failure.message
    return report


def problem_of(path: Path) -> Problem | None:
    """The problem whose method the file defines, told by compiling it (no test runs); None when
    it does not compile. Raises ProblemError when no problem or several match."""
    return judge_file(path, None, Options(tests=lambda problem: [])).problem


class Session:
    """A submission's sandbox across its tests: started again if a run takes its fork server down
    (the graders' Runs)."""

    def __init__(self, path: Path, source: bytes, sandbox: Sandbox, keep: bool = False):
        self.path, self.source = path, source
        self.source_lines = source_lines(source)
        self.sandbox: Sandbox | None = sandbox
        self.kept = sandbox if keep else None  # the caller's warm sandbox: released, not closed, at the end

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        sandbox = self.sandbox
        if sandbox is not None and sandbox is self.kept:
            self.sandbox = None
            try:
                sandbox.release()
                return
            except SandboxError:  # it did not answer: closed, and its owner starts another
                pass
            sandbox.close()
        self.close()

    def start(self, report: Report) -> list[str]:
        """Compile the file in the sandbox; the Solution's method names (CE on failure)."""
        sandbox = self.live()  # the one given: nothing closed it yet
        report.isolation = sandbox.isolation
        outcome = sandbox.compile(self.source, self.path.name)
        if outcome.setup_error is not None:
            raise SandboxError(f"the walls could not be put up: {outcome.setup_error}")
        reply = read_compiled(outcome.result)
        if outcome.ended_for in (EndedFor.CPU, EndedFor.SLEEPING) or outcome.cpu_ms > COMPILE_LIMITS.cpu_ms:
            error = f"compiling the file took more than {COMPILE_LIMITS.cpu_ms // 1000} s"
        elif outcome.signal is not None:
            error = f"Python's compiler crashed on the file (signal {signal_name(outcome.signal)})"
        elif reply is not None and reply.ok:
            return reply.methods
        else:
            error = (reply.error if reply is not None else None) or "the file could not be compiled"
        report.verdict, report.message = Verdict.CE, error
        return []

    def check(self, problem: Problem, limits: Limits, report: Report) -> bool:
        """Import the file and find the method before any test input is in the sandbox: the only CE.

        The run could write a forged answer here, but there is nothing yet to learn and nothing
        to gain: a forged failure is the CE an exception at import would give.
        """
        try:
            outcome = self.live().check(problem.method, limits)
        except SandboxLost:  # the import took the fork server down: the first test shows how
            self.close()
            return True
        if outcome.setup_error is not None:
            raise SandboxError(f"the walls could not be put up: {outcome.setup_error}")
        reply, _ = read_result(outcome.result)
        if reply is None:
            pass
        elif reply.status == ResultStatus.EXCEPTION and reply.phase in (Phase.COMPILE, Phase.IMPORT):
            report.verdict = Verdict.CE
            report.message = f"importing the file failed: {or_default(reply.message, 'an exception')}"
            report.traceback = with_source(reply.traceback or "", self.source_lines)
        elif reply.status == ResultStatus.LOOKUP:
            report.verdict, report.message = Verdict.CE, or_default(reply.message, "no class Solution")
        return report.verdict != Verdict.CE  # anything else (a slow or hungry import) the tests judge

    def live(self) -> Sandbox:
        """The sandbox, started again with the file compiled if the last run took it down."""
        if self.sandbox is None:  # the last run took the fork server down: a fresh one
            self.sandbox = submission_sandbox(self.path)
            self.sandbox.start()
            self.sandbox.compile(self.source, self.path.name)
        return self.sandbox

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
