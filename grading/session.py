"""Judging one submission file on one problem's tests: compile, import check, runs, verdicts,
the report's data. The sandbox (sandbox/) runs the code; this module decides what came of it."""

from __future__ import annotations

import contextlib
import io
import re
import signal
import time
import tokenize
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from hashlib import sha256
from pathlib import Path

import numpy as np

from grading.checker import compare
from grading.detect import detect_problem
from grading.judgement import Report, TestResult, Verdict
from grading.result import returned_array
from grading.source import MAX_SOURCE_BYTES, read_source
from grading.tests import Reader, TestData, select_tests
from grading.verdict import classify, signal_name
from problems import Problem, ProblemError, TestCase
from sandbox.errors import MachineBusy, SandboxError, SandboxLost, SandboxUnavailable
from sandbox.inside.protocol import EndedFor, Phase, Result, ResultStatus, read_compiled, read_result
from sandbox.outcome import COMPILE_LIMITS, Limits, RunOutcome
from sandbox.sandbox import Sandbox, submission_sandbox

_FRAME = re.compile(r'\s*File "[^"]*", line (\d+)')
RESULT_HEADER_BYTES = 4096  # a run's answer: its float64 bytes and a JSON header line up to this
RERUNS = 2  # more runs of a test that other work held back over its time limit (docs/sandbox.md)
RERUN_DELAY_S = 3.0  # before each: a machine's load comes and goes (another judging, an install)


def judge_file(path: Path, problem: Problem | None, tests: Sequence[Path | TestData] | None = None,
               run_all: bool = False, time_limit_ms: int | None = None, patterns: list[str] | None = None,
               cases: Callable[[Problem], list[TestCase]] | None = None, keep_output: bool = False,
               on_test: Callable[[Report, TestResult], None] | None = None, sandbox: Sandbox | None = None,
               keep_sandbox: bool = False) -> Report:
    """Judge `path` on `tests` (default: the problem's tests matching `patterns`); stop at the
    first failure unless run_all. With no problem, the one whose method the file defines.

    `time_limit_ms` overrides problem.toml's limit: verification measures how far past the
    limit a slow solution goes, which a run cut off at the limit cannot show.
    `cases(problem)`, when given, makes the tests in memory instead (the practice layer's `run`),
    and `keep_output` keeps each run's returned array on its TestResult. `on_test(report, result)`
    is told of each test as soon as it is judged (the web page shows verdicts as they come).
    `sandbox`: one started already for this file (it boots while the caller loads); closed here,
    unless `keep_sandbox`: a warm one (Sandbox(warm=True)) the caller keeps for its next file, which
    is released instead (one that was lost on the way is closed: `sandbox.alive` tells). `tests`
    may hold tests already read (TestData), as a warm worker keeps them.
    Raises ProblemError when the problem cannot be told or no test matches, SandboxUnavailable
    when no sandbox with every wall can be had here, MachineBusy when the machine gave a run too
    little CPU to judge it.
    """
    report = Report(problem, str(path), Verdict.AC, 0)
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

    def items(problem: Problem) -> Sequence[TestCase | Path | TestData]:
        return list(cases(problem)) if cases is not None else (tests if tests is not None else
                                                               select_tests(problem, patterns))

    reader = Reader(problem, items(problem)) if problem is not None else None  # reads while the sandbox starts
    report.total = len(reader) if reader is not None else 0
    with _Session(path, source, sandbox, keep_sandbox) as session, contextlib.ExitStack() as stack:
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
                reader = stack.enter_context(Reader(problem, items(problem)))
                report.problem, report.total = problem, len(reader)
            assert reader is not None  # read with the problem, given or told
            session._live().check_hidden(problem.root)
            limits = Limits(time_limit_ms or problem.time_limit_ms, problem.memory_limit_mb)
            if not session.check(problem, limits, report):
                return report
            for result in session.results(problem, reader, limits, keep_output):
                report.tests.append(result)
                if on_test is not None:
                    on_test(report, result)
                if result.verdict != Verdict.AC:
                    if report.verdict == Verdict.AC:
                        report.verdict = result.verdict
                    if not run_all or result.verdict == Verdict.JE:
                        break
        except SandboxUnavailable:
            raise
        except SandboxError as exc:
            report.verdict, report.message = Verdict.JE, f"the sandbox failed: {exc}"
    if report.first_failure is not None and not report.message:
        report.message = report.first_failure.message
    return report


class _Session:
    """A submission's sandbox across its tests: started again if a run takes its fork server down."""

    def __init__(self, path: Path, source: bytes, sandbox: Sandbox, keep: bool = False):
        self.path, self.source = path, source
        self.source_lines = _source_lines(source)
        self.sandbox: Sandbox | None = sandbox
        self.kept = sandbox if keep else None  # the caller's warm sandbox: released, not closed, at the end

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *exc) -> None:
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
        sandbox = self._live()  # the one given: nothing closed it yet
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
            outcome = self._live().check(problem.method, limits)
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
            report.message = f"importing the file failed: {_or(reply.message, 'an exception')}"
            report.traceback = with_source(reply.traceback or "", self.source_lines)
        elif reply.status == ResultStatus.LOOKUP:
            report.verdict, report.message = Verdict.CE, _or(reply.message, "no class Solution")
        return report.verdict != Verdict.CE  # anything else (a slow or hungry import) the tests judge

    def results(self, problem: Problem, reader: Reader, limits: Limits, keep_output: bool) -> Iterator[TestResult]:
        """Each test's result, in order. A function problem's runs go as many at once as the
        sandbox has lanes (each in its own child, its own CPU time); the caller may stop early,
        and closing the session then ends the runs still in flight."""
        if problem.interactive:  # one at a time
            for _, test in reader:
                judged_again: list[str] = []
                while True:
                    try:
                        result, outcome = _judge_interactive(self._live(), problem, test, limits, self.source_lines,
                                                             keep_output)
                    except SandboxLost as exc:
                        self.close()
                        result, outcome = _lost(test, exc), None
                    if outcome is None or not _held_back(result, outcome, limits, judged_again):
                        break
                    time.sleep(RERUN_DELAY_S)
                result.judged_again = judged_again
                yield result
            return
        tests = iter(reader)
        order = InOrder()
        tries: dict[int, list[str]] = {}  # tests judged again: why each earlier run did not count
        while True:
            sandbox = self._live()
            while len(order.in_flight) < sandbox.lanes and (item := order.next(tests)) is not None:
                number, test = item
                result_bytes = test.expected_count * 8 + RESULT_HEADER_BYTES
                sandbox.submit(number, problem.method, (test.specs, test.blobs), limits, result_bytes)
            if not order.in_flight:
                wait_s = order.wait_s()
                if wait_s is None:
                    return
                time.sleep(wait_s)  # a test judged again starts alone, a few seconds after its last run
                continue
            try:
                number, outcome = sandbox.collect()
                result = _judge_run(problem, order.in_flight[number], outcome, limits, self.source_lines, keep_output)
                if _held_back(result, outcome, limits, tries.setdefault(number, [])):
                    order.again_later(number, time.monotonic() + RERUN_DELAY_S)
                else:
                    result.judged_again = tries.pop(number)
                    order.done(number, result)
            except SandboxLost as exc:  # which run did it cannot be told: the first in flight is
                self.close()  # blamed, the others run again on a fresh fork server
                order.lost(partial(_lost, exc=exc))
            yield from order.ready()

    def _live(self) -> Sandbox:
        if self.sandbox is None:  # the last run took the fork server down: a fresh one
            self.sandbox = submission_sandbox(self.path)
            self.sandbox.start()
            self.sandbox.compile(self.source, self.path.name)
        return self.sandbox

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None


class InOrder:
    """Runs that may end in any order, reported in test order: which tests are in flight, which
    are finished and waiting for an earlier one, and which must run again."""

    def __init__(self):
        self.in_flight: dict[int, TestData] = {}
        self._again: list[tuple[int, TestData]] = []  # to run again on a fresh fork server
        self._later: list[tuple[float, int, TestData]] = []  # to judge again, alone, not before a time
        self._alone: int | None = None  # the test being judged again: nothing runs beside it
        self._finished: dict[int, TestResult] = {}
        self._shown = 0

    def next(self, tests: Iterator[tuple[int, TestData]]) -> tuple[int, TestData] | None:
        """The next test to start: none beside a test judged again; that test once nothing is in
        flight and its time has come; else one to run again, else the next read."""
        if self._alone in self.in_flight:
            return None
        if self._later:
            at, number, test = self._later[0]
            if self.in_flight or time.monotonic() < at:
                return None
            del self._later[0]
            self._alone, self.in_flight[number] = number, test
            return number, test
        item = self._again.pop(0) if self._again else next(tests, None)
        if item is not None:
            self.in_flight[item[0]] = item[1]
        return item

    def again_later(self, number: int, at: float) -> None:
        """A test other work held back: judged again, alone, from `at` on (`next`)."""
        self._later.append((at, number, self.in_flight.pop(number)))
        self._later.sort(key=lambda item: item[:2])

    def wait_s(self) -> float | None:
        """With nothing in flight: how long until a test judged again may start; None when none waits."""
        return max(0.0, self._later[0][0] - time.monotonic()) if self._later else None

    def done(self, number: int, result: TestResult) -> None:
        del self.in_flight[number]
        self._finished[number] = result

    def lost(self, blame: Callable[[TestData], TestResult]) -> None:
        """The fork server went down: the first test in flight is blamed, the others run again."""
        first = min(self.in_flight)
        self._finished[first] = blame(self.in_flight.pop(first))
        self._again = sorted([*self._again, *self.in_flight.items()], key=lambda item: item[0])
        self.in_flight.clear()

    def ready(self) -> Iterator[TestResult]:
        """The results whose earlier tests are all reported."""
        while self._shown in self._finished:
            yield self._finished.pop(self._shown)
            self._shown += 1


def _source_lines(source: bytes) -> list[str]:
    """The file's lines, decoded as Python decodes it (BOM, coding line)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        encoding = "utf-8"
    return source.decode(encoding, errors="replace").splitlines()


def _held_back(result: TestResult, outcome: RunOutcome, limits: Limits, judged_again: list[str]) -> bool:
    """Whether a run's TLE is to be judged again, other work having held it back (its reason is
    added to `judged_again`); MachineBusy when it was, on every run the test had."""
    if result.verdict != Verdict.TLE or not outcome.held_back(limits):
        return False
    judged_again.append(f"used {outcome.cpu_ms:.0f} ms of CPU time, over the limit of {limits.cpu_ms} ms, while it "
                        f"waited for a CPU {outcome.waited_ms / max(outcome.wall_ms, 1):.0%} of its "
                        f"{outcome.wall_ms / 1000:.1f} s of wall-clock time")
    if len(judged_again) > RERUNS:
        raise MachineBusy(MachineBusy.MESSAGE)
    return True


def _lost(test: TestData, exc: SandboxLost) -> TestResult:
    return TestResult(test.name, Verdict.TLE if exc.timed_out else Verdict.RE, sizes=test.sizes, note=test.note,
                      message=f"the run stopped or killed its sandbox's fork server ({exc})")


def _judge_run(problem: Problem, test: TestData, outcome: RunOutcome, limits: Limits,
               source_lines: list[str], keep_output: bool = False) -> TestResult:
    """A function problem's test, from what its run left behind."""
    result = _result(test, outcome)
    report, payload = read_result(outcome.result)
    verdict, message = classify(outcome, report, limits)
    if verdict is None:
        got = returned_array(report, payload)
        if got is None:
            verdict, message = Verdict.RE, "the run ended without a readable result"
        else:
            result.got = got.copy() if keep_output else None
            check = compare(got, test.expected, problem.abs_tol, problem.rel_tol)
            result.max_abs_err, result.max_rel_err = check.max_abs_err, check.max_rel_err
            verdict, message = (Verdict.AC if check.ok else Verdict.WA), check.message
            result.mismatch = None if check.ok else check.detail
    result.verdict, result.message = verdict, message
    if report is not None and report.status == ResultStatus.EXCEPTION:
        result.traceback = with_source(report.traceback or "", source_lines)
    return result


def _judge_interactive(sandbox: Sandbox, problem: Problem, test: TestData, limits: Limits,
                       source_lines: list[str], keep_output: bool = False) -> tuple[TestResult, RunOutcome]:
    """Solution(*constructor arguments), then one call per row of the stream; each answer is checked
    while the run works on the next row, and the first wrong one ends the run. The result, and
    what the operating system said about the run."""
    expected, rows = test.expected, test.rows
    assert rows is not None  # an interactive problem's test has its stream
    answers: list[np.ndarray] = []
    failure: dict = {}
    errors = [0.0, 0.0]

    def on_step(t: int, payload: bytes) -> bool:
        reply, array = read_result(payload)
        got = returned_array(reply, array)
        if got is None:
            failure.update(step=t, message=_or(reply.message if reply is not None else None,
                                               "the answer is not an array of numbers"))
            return False
        check = compare(got, expected[t], problem.abs_tol, problem.rel_tol)
        errors[0] = max(errors[0], check.max_abs_err or 0.0)
        errors[1] = max(errors[1], check.max_rel_err or 0.0)
        answers.append(got)
        if not check.ok:
            failure.update(step=t, message=check.message, detail=check.detail)
        return check.ok

    answer_bytes = int(expected[0].size) * 8 + RESULT_HEADER_BYTES
    rows_bytes = [np.ascontiguousarray(row, dtype=np.float64).tobytes() for row in rows]
    outcome = sandbox.interact(problem.method, (test.specs, test.blobs), rows_bytes, limits, answer_bytes, on_step)
    if outcome.judge_ended and outcome.signal == signal.SIGKILL:  # killed for lingering after its last step
        outcome = replace(outcome, signal=None)
    result = _result(test, outcome)
    result.max_abs_err, result.max_rel_err = errors
    report, _ = read_result(outcome.result)
    if outcome.judge_ended and report is None:
        report = Result(ResultStatus.OK)
    verdict: Verdict | None
    if failure:  # decided before whatever ended the run after it (the judge's end, a kill for a bad answer)
        result.step, result.mismatch = failure["step"], failure.get("detail")
        verdict, message = Verdict.WA, f"step t = {failure['step']} (of 0..{len(rows) - 1}): {failure['message']}"
    else:
        verdict, message = classify(outcome, report, limits)
    if verdict is None:
        if len(answers) < len(rows):
            verdict = Verdict.RE
            message = f"the run ended after answering {len(answers)} of {len(rows)} steps"
        else:
            verdict = Verdict.AC
    if report is not None and report.status == ResultStatus.EXCEPTION and not failure:
        result.traceback = with_source(report.traceback or "", source_lines)
        if (step := report.step()) is not None:
            result.step = step
    if keep_output and answers:
        try:
            result.got = np.stack(answers)
        except ValueError:  # answers of different shapes: the first wrong one is what matters
            result.got = answers[-1]
    result.verdict, result.message = verdict, message
    return result, outcome


def _or(text: str | None, default: str) -> str:
    """The run's text, or the judge's words where it sent none."""
    return text if text is not None else default


def _result(test: TestData, outcome: RunOutcome) -> TestResult:
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
