"""Judging one submission file on one problem's stored tests: runs, verdicts, the report data.

Verdicts, in the order they take precedence for one test: TLE (CPU time over the limit, or the
wall-clock limit hit), OLE (output flood), MLE (peak memory over the limit, or MemoryError),
CE (the file does not compile, its import fails, or it lacks the Solution class or method),
RE (an exception or an exit before returning), WA (the returned value is wrong), AC.
"""

from __future__ import annotations

import io
import re
import tokenize
import signal
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from judge.checker import compare
from judge.detect import detect_problem
from judge.fingerprint import sha256
from judge.outcome import COMPILE_LIMITS, MAX_SOURCE_BYTES, Limits, RunOutcome
from judge.result import parse_report, returned_array, text
from judge.reading import Cases, Prepared, ReaderLost, select_tests
from judge.sandbox import FILE_LIMIT_BYTES, Sandbox, SandboxError, SandboxLost, SandboxUnavailable, submission_sandbox
from problems import Problem, ProblemError, TestCase

VERDICT_NAMES = {
    "AC": "Accepted",
    "WA": "Wrong Answer",
    "TLE": "Time Limit Exceeded",
    "MLE": "Memory Limit Exceeded",
    "OLE": "Output Limit Exceeded",
    "RE": "Runtime Error",
    "CE": "Compilation Error",
    "JE": "Judge Error",
}
_FRAME = re.compile(r'\s*File "[^"]*", line (\d+)')
RESULT_HEADER_BYTES = 4096  # a run's answer: its float64 bytes and a JSON header line up to this


@dataclass
class TestResult:
    name: str
    verdict: str
    time_ms: float | None = None
    user_ms: float | None = None
    memory_mb: float | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    message: str = ""
    traceback: str = ""
    output: str = ""
    output_size: int = 0
    output_lines: int | None = None
    got: np.ndarray | None = None  # what the run returned, kept only when asked (practice `run`)
    sizes: dict = field(default_factory=dict)
    note: str = ""
    step: int | None = None  # interactive problems: the first step whose answer failed


@dataclass
class Report:
    problem: Problem | None
    submission: str
    verdict: str
    total: int
    tests: list[TestResult] = field(default_factory=list)
    isolation: str = ""
    message: str = ""
    traceback: str = ""
    rerun: list[str] | None = None  # the command that reruns the first failure, when not the usual one
    hint: dict | None = None  # added by the practice layer when asked (--hint)
    speed: dict | None = None  # added by the practice layer on AC: the reference on the slowest test
    source_sha256: str = ""  # of the bytes judged (the file may change after)

    @property
    def passed(self) -> int:
        return sum(t.verdict == "AC" for t in self.tests)

    @property
    def first_failure(self) -> TestResult | None:
        return next((t for t in self.tests if t.verdict != "AC"), None)


def judge_file(path: Path, problem: Problem | None, tests: list[Path] | None = None, run_all: bool = False,
               time_limit_ms: int | None = None, patterns: list[str] | None = None,
               cases: Callable[[Problem], list[TestCase]] | None = None, keep_output: bool = False,
               on_test: Callable[[Report, TestResult], None] | None = None, sandbox: Sandbox | None = None,
               reading: Cases | None = None) -> Report:
    """Judge `path` on `tests` (default: the problem's tests matching `patterns`); stop at the
    first failure unless run_all. With no problem, the one whose method the file defines.

    `time_limit_ms` overrides problem.toml's limit: verification measures how far past the
    limit a slow solution goes, which a run cut off at the limit cannot show.
    `cases(problem)`, when given, makes the tests in memory instead (the practice layer's `run`),
    and `keep_output` keeps each run's returned array on its TestResult. `on_test(report, result)`
    is told of each test as soon as it is judged (the web page shows verdicts as they come).
    `sandbox`: one launched already by `submission_sandbox(path)` (the command line launches it
    before it imports the judging modules, which then load while it boots); closed here in any
    case. `reading`: the problem's tests being read already (`Cases`, which the command line
    starts right after the sandbox); stopped here in any case.
    Raises ProblemError when the problem cannot be told or no test matches, and
    SandboxUnavailable when no sandbox with every wall can be had here.
    """
    def make_cases(problem: Problem) -> Cases:
        if cases is not None:
            return Cases(problem, ready=cases(problem))
        return Cases(problem, tests if tests is not None else select_tests(problem, patterns))

    def let_go() -> None:
        if reading is not None:
            reading.stop()
        if sandbox is not None:
            sandbox.close()

    report = Report(problem, str(path), "AC", 0)
    try:
        source = _read_source(path, report)
    except BaseException:
        let_go()
        raise
    if source is None:
        let_go()
        return report
    report.source_sha256 = sha256(source).hexdigest()
    session = _Session(path, source, sandbox)
    todo: Cases | None = reading
    try:
        if todo is None:  # read from now on
            todo = make_cases(problem) if problem is not None else Cases(None, [])
        report.total = len(todo)
        session.launch()
        methods = session.start(report)
        if report.verdict != "AC":
            return report
        if problem is None:
            problem, reason = detect_problem(methods)
            if problem is None:
                raise ProblemError(f"{path}: cannot tell the problem: {reason}")
            todo = make_cases(problem)
            report.problem, report.total = problem, len(todo)
        session.sandbox.check_hidden(problem.root)
        cpu_ms = time_limit_ms or problem.time_limit_ms
        limits = Limits(cpu_ms, problem.memory_limit_mb)
        if not session.check(problem, limits, report):
            return report
        for result in session.results(problem, todo, limits, keep_output):
            report.tests.append(result)
            if on_test is not None:
                on_test(report, result)
            if result.verdict != "AC":
                if report.verdict == "AC":
                    report.verdict = result.verdict
                if not run_all or result.verdict == "JE":
                    break
    except SandboxUnavailable:
        raise
    except SandboxError as exc:
        report.verdict, report.message = "JE", f"the sandbox failed: {exc}"
    except ReaderLost as exc:
        report.verdict, report.message = "JE", str(exc)
    finally:
        if todo is not None:
            todo.stop()
        session.close()
    if report.first_failure is not None and not report.message:
        report.message = report.first_failure.message
    return report


def _read_source(path: Path, report: Report) -> bytes | None:
    """The file's bytes, or None with a CE when it is over the size limit (read no further)."""
    with open(path, "rb") as f:
        source = f.read(MAX_SOURCE_BYTES + 1)
    if len(source) > MAX_SOURCE_BYTES:
        size = path.stat().st_size
        report.verdict = "CE"
        report.message = (f"the file is {size} bytes, over the {MAX_SOURCE_BYTES >> 20} MiB limit for a "
                          "source file")
        return None
    return source


class _Session:
    """A submission's sandbox across its tests: started again if a run takes its fork server down."""

    def __init__(self, path: Path, source: bytes, launched: Sandbox | None = None):
        self.path, self.source = path, source
        self.source_lines = _source_lines(source)
        self.sandbox: Sandbox | None = launched

    def launch(self) -> None:
        """Begin starting the sandbox, unless launched already."""
        if self.sandbox is None:
            self.sandbox = submission_sandbox(self.path)
            self.sandbox.launch()
            self.sandbox.compile_early(self.path)

    def start(self, report: Report) -> list[str]:
        """Wait for the sandbox and compile the file there; the Solution's method names (CE on failure)."""
        self.sandbox.ready()
        report.isolation = self.sandbox.isolation
        outcome = self.sandbox.compile(self.source, self.path.name, COMPILE_LIMITS)
        if outcome.setup_error is not None:
            raise SandboxError(f"the walls could not be put up: {outcome.setup_error}")
        reply = parse_report(outcome.result)
        if outcome.ended_for in ("cpu", "sleeping") or outcome.cpu_ms > COMPILE_LIMITS.cpu_ms:
            error = f"compiling the file took more than {COMPILE_LIMITS.cpu_ms // 1000} s"
        elif outcome.signal is not None:
            error = f"Python's compiler crashed on the file (signal {_signal_name(outcome.signal)})"
        elif reply.get("ok") is True:
            methods = reply.get("methods")
            return [m for m in methods if isinstance(m, str)] if isinstance(methods, list) else []
        else:
            error = text(reply, "error") or "the file could not be compiled"
        report.verdict, report.message = "CE", error
        return []

    def check(self, problem: Problem, limits: Limits, report: Report) -> bool:
        """Import the file and find the method before any test input is in the sandbox: the only CE.

        The run could write a forged answer here, but there is nothing yet to learn and nothing
        to gain: a forged failure is the CE an exception at import would give.
        """
        try:
            outcome = self.sandbox.check(problem.method, limits)
        except SandboxLost:  # the import took the fork server down: the first test shows how
            self.close()
            return True
        if outcome.setup_error is not None:
            raise SandboxError(f"the walls could not be put up: {outcome.setup_error}")
        reply = parse_report(outcome.result)
        status = reply.get("status")
        if status == "exception" and reply.get("phase") in ("compile", "import"):
            report.verdict = "CE"
            report.message = f"importing the file failed: {text(reply, 'message', 'an exception')}"
            report.traceback = with_source(text(reply, "traceback"), self.source_lines)
        elif status == "lookup":
            report.verdict, report.message = "CE", text(reply, "message", "no class Solution")
        return report.verdict != "CE"  # anything else (a slow or hungry import) the tests judge

    def results(self, problem: Problem, todo: "Cases", limits: Limits, keep_output: bool) -> Iterator[TestResult]:
        """Each test's result, in order. A function problem's runs go as many at once as the
        sandbox has lanes (each in its own child, its own CPU time); the caller may stop early,
        and closing the session then ends the runs still in flight."""
        if problem.interactive:  # one at a time, read in order
            for _, test in todo:
                yield self._guarded(problem, test, lambda: _judge_interactive(
                    self._live(), problem, test, limits, self.source_lines, keep_output))
            return
        tests = iter(todo)  # (index, test), the largest first: the numbers are the indices
        queue: list[tuple[int, Prepared]] = []  # tests to run again on a fresh fork server
        in_flight: dict[int, Prepared] = {}
        finished: dict[int, TestResult] = {}
        shown = 0
        while True:
            sandbox = self._live()
            while len(in_flight) < sandbox.lanes:
                if queue:
                    number, test = queue.pop(0)
                elif (item := next(tests, None)) is not None:
                    number, test = item
                else:
                    break
                in_flight[number] = test
                result_bytes = test.expected_count * 8 + RESULT_HEADER_BYTES
                sandbox.submit(number, problem.method, (test.specs, test.blobs), limits, result_bytes)
            if not in_flight:
                return
            try:
                number, outcome = sandbox.collect()
                test = in_flight.pop(number)
                finished[number] = _judge_run(problem, test, outcome, limits, self.source_lines, keep_output)
            except SandboxLost as exc:  # which run did it cannot be told: the first in flight is
                self.close()  # blamed, the others run again on a fresh fork server
                first = min(in_flight)
                finished[first] = _lost(in_flight.pop(first), exc)
                queue = sorted([*queue, *in_flight.items()], key=lambda item: item[0])
                in_flight.clear()
            while shown in finished:
                yield finished.pop(shown)
                shown += 1

    def _live(self) -> Sandbox:
        if self.sandbox is None:  # the last run took the fork server down: a fresh one
            self.sandbox = self._new_sandbox()
            self.sandbox.compile(self.source, self.path.name, COMPILE_LIMITS)
        return self.sandbox

    def _guarded(self, problem: Problem, test: Prepared, judge: Callable[[], TestResult]) -> TestResult:
        try:
            return judge()
        except SandboxLost as exc:
            self.close()
            return _lost(test, exc)

    def _new_sandbox(self) -> Sandbox:
        sandbox = submission_sandbox(self.path)
        sandbox.start()
        return sandbox

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None


def _source_lines(source: bytes) -> list[str]:
    """The file's lines, decoded as Python decodes it (BOM, coding line)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        encoding = "utf-8"
    return source.decode(encoding, errors="replace").splitlines()


def _lost(test: Prepared, exc: SandboxLost) -> TestResult:
    return TestResult(test.name, "TLE" if exc.timed_out else "RE", sizes=test.sizes, note=test.note,
                      message=f"the run stopped or killed its sandbox's fork server ({exc})")


def _judge_run(problem: Problem, test: Prepared, outcome: RunOutcome, limits: Limits,
               source_lines: list[str], keep_output: bool = False) -> TestResult:
    """A function problem's test, from what its run left behind."""
    expected = test.expected
    result = _result(test, outcome)
    report = parse_report(outcome.result)
    verdict, message = _classify(outcome, report, limits)
    if verdict is None:
        got = returned_array(report)
        if got is None:
            verdict, message = "RE", "the run ended without a readable result"
        else:
            result.got = got.copy() if keep_output else None
            check = compare(got, expected, problem.abs_tol, problem.rel_tol)
            result.max_abs_err, result.max_rel_err = check.max_abs_err, check.max_rel_err
            verdict, message = ("AC" if check.ok else "WA"), check.message
    result.verdict, result.message = verdict, message
    if report.get("status") == "exception":
        result.traceback = with_source(text(report, "traceback"), source_lines)
    return result


def _judge_interactive(sandbox: Sandbox, problem: Problem, test: Prepared, limits: Limits,
                       source_lines: list[str], keep_output: bool = False) -> TestResult:
    """Solution(*constructor arguments), then one call per row of the stream; each answer is checked
    while the run works on the next row, and the first wrong one ends the run."""
    expected, rows = test.expected, test.rows
    answers: list[np.ndarray] = []
    failure: dict = {}
    errors = [0.0, 0.0]

    def on_step(t: int, payload: bytes) -> bool:
        reply = parse_report(payload)
        got = returned_array(reply)
        if got is None:
            failure.update(step=t, message=text(reply, "message", "the answer is not an array of numbers"))
            return False
        check = compare(got, expected[t], problem.abs_tol, problem.rel_tol)
        errors[0] = max(errors[0], check.max_abs_err or 0.0)
        errors[1] = max(errors[1], check.max_rel_err or 0.0)
        answers.append(got)
        if not check.ok:
            failure.update(step=t, message=check.message)
        return check.ok

    answer_bytes = int(expected[0].size) * 8 + RESULT_HEADER_BYTES
    outcome = sandbox.interact(problem.method, (test.specs, test.blobs), rows, limits, answer_bytes, on_step)
    if outcome.judge_ended and outcome.signal == signal.SIGKILL:  # killed for lingering after its last step
        outcome = replace(outcome, signal=None)
    result = _result(test, outcome)
    result.max_abs_err, result.max_rel_err = errors
    report = parse_report(outcome.result)
    if outcome.judge_ended and report.get("status") is None:
        report = {"status": "ok"}
    if failure:  # decided before whatever ended the run after it (the judge's end, a kill for a bad answer)
        result.step = failure["step"]
        verdict, message = "WA", f"step t = {failure['step']} (of 0..{len(rows) - 1}): {failure['message']}"
    else:
        verdict, message = _classify(outcome, report, limits)
    if verdict is None:
        if len(answers) < len(rows):
            verdict = "RE"
            message = f"the run ended after answering {len(answers)} of {len(rows)} steps"
        else:
            verdict = "AC"
    if report.get("status") == "exception" and not failure:
        result.traceback = with_source(text(report, "traceback"), source_lines)
        phase = str(report.get("phase", ""))
        if phase.startswith("step ") and phase[5:].isdigit():
            result.step = int(phase[5:])
    if keep_output and answers:
        try:
            result.got = np.stack(answers)
        except ValueError:  # answers of different shapes: the first wrong one is what matters
            result.got = answers[-1]
    result.verdict, result.message = verdict, message
    return result


def _result(test: Prepared, outcome: RunOutcome) -> TestResult:
    """A test's result with what the operating system measured; the verdict is decided after."""
    if outcome.setup_error is not None:
        raise SandboxError(f"the walls could not be put up: {outcome.setup_error}")
    return TestResult(
        name=test.name,
        verdict="AC",
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


def _classify(outcome: RunOutcome, report: dict, limits: Limits) -> tuple[str | None, str]:
    """A verdict decided by limits, exit status or the run's own report; None when values decide.

    The report is the run's claim and can be forged, so it can only ever make the run's own
    verdict RE, MLE or WA, never CE or JE.
    """
    if outcome.cpu_ms > limits.cpu_ms or outcome.signal == signal.SIGXCPU or outcome.ended_for == "cpu":
        return "TLE", f"used {outcome.cpu_ms:.0f} ms of CPU time, over the limit of {limits.cpu_ms} ms"
    if outcome.ended_for == "sleeping":
        return "TLE", (f"sleeping or blocked: ended after {outcome.wall_ms / 1000:.1f} s of wall-clock time, "
                       f"{limits.wall_ms / 1000:g} s of it neither running nor waiting for a CPU "
                       f"(CPU {outcome.cpu_ms:.0f} ms)")
    if outcome.output_size >= FILE_LIMIT_BYTES or outcome.signal == signal.SIGXFSZ:
        return "OLE", (f"wrote {outcome.output_size} bytes to stdout/stderr, over the limit of "
                       f"{FILE_LIMIT_BYTES >> 20} MiB")
    status = report.get("status")
    if outcome.memory_mb > limits.memory_mb or status == "memory":
        return "MLE", (f"peak memory {outcome.memory_mb:.0f} MiB, over the limit of {limits.memory_mb} MiB"
                       + (" (MemoryError raised)" if status == "memory" else ""))
    if status == "exception":
        where = {"import": " while importing the file", "compile": " while compiling the file",
                 "init": " while constructing Solution()", "lookup": " while looking up the method"}
        phase = str(report.get("phase"))
        during = f" in {phase} (counting from 0)" if phase.startswith("step ") else where.get(phase, "")
        return "RE", text(report, "message", "an exception") + during
    if status == "lookup":
        return "RE", text(report, "message")
    if outcome.signal is not None:
        return "RE", f"killed by signal {_signal_name(outcome.signal)}"
    if status == "invalid":
        return "WA", text(report, "message", "the returned value is not an array of numbers")
    if status != "ok":
        code = outcome.exit_code
        return "RE", f"the process exited (code {code}) before the method returned a result"
    return None, ""


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
