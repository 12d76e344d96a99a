"""Judging one submission file on one problem's stored tests: runs, verdicts, the report data.

Verdicts, in the order they take precedence for one test: TLE (CPU time over the limit, or the
wall-clock limit hit), OLE (output flood), MLE (peak memory over the limit, or MemoryError),
CE (the file does not compile, its import fails, or it lacks the Solution class or method),
RE (an exception or an exit before returning), WA (the returned value is wrong), AC.
"""

from __future__ import annotations

import fnmatch
import hashlib
import io
import itertools
import os
import re
import tokenize
import signal
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from judge.checker import compare
from judge.detect import detect_problem
from judge.inside import wire
from judge.outcome import Limits, RunOutcome
from judge.result import parse_report, returned_array, text
from judge.sandbox import (FILE_LIMIT_BYTES, Sandbox, SandboxError, SandboxLost,
                           SandboxUnavailable, encode_args, submission_sandbox)
from problems import Problem, ProblemError, TestCase, read_test

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
WALL_FACTOR = 3  # wall-clock limit = 3 x the CPU limit, as DMOJ does
_FRAME = re.compile(r'\s*File "[^"]*", line (\d+)')
MAX_SOURCE_BYTES = 1 << 20  # a larger file is CE before anything parses it
RESULT_HEADER_BYTES = 4096  # a run's answer: its float64 bytes and a JSON header line up to this
COMPILE_LIMITS = Limits(cpu_ms=5000, wall_ms=15000, memory_mb=512)  # parsing and compiling the file


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


def select_tests(problem: Problem, patterns: list[str] | None) -> list[Path]:
    """The problem's tests in order, kept when a name or number matches one of the patterns."""
    files = problem.test_files()
    if not files:
        raise ProblemError(f"{problem.tests_dir}: no stored tests (run make testcases)")
    if not patterns:
        return files
    kept = [f for f in files if any(_matches(f.stem, p) for p in patterns)]
    if not kept:
        raise ProblemError(f"--tests {' '.join(patterns)}: no test of {problem.slug} matches "
                           f"(names look like {files[0].stem})")
    return kept


def _matches(name: str, pattern: str) -> bool:
    number = name.partition("-")[0]
    return fnmatch.fnmatchcase(name, pattern) or name == pattern or number == pattern.zfill(len(number))


def judge_file(path: Path, problem: Problem | None, tests: list[Path] | None = None, run_all: bool = False,
               time_limit_ms: int | None = None, patterns: list[str] | None = None,
               cases: Callable[[Problem], list[TestCase]] | None = None, keep_output: bool = False,
               on_test: Callable[[Report, TestResult], None] | None = None, sandbox: Sandbox | None = None) -> Report:
    """Judge `path` on `tests` (default: the problem's tests matching `patterns`); stop at the
    first failure unless run_all. With no problem, the one whose method the file defines.

    `time_limit_ms` overrides problem.toml's limit: verification measures how far past the
    limit a slow solution goes, which a run cut off at the limit cannot show.
    `cases(problem)`, when given, makes the tests in memory instead (the practice layer's `run`),
    and `keep_output` keeps each run's returned array on its TestResult. `on_test(report, result)`
    is told of each test as soon as it is judged (the web page shows verdicts as they come).
    `sandbox`: one launched already by `submission_sandbox(path)` (the command line launches it
    before it imports numpy, so the two start together); closed here in any case.
    Raises ProblemError when the problem cannot be told or no test matches, and
    SandboxUnavailable when no sandbox with every wall can be had here.
    """
    def make_cases(problem: Problem) -> _Cases:
        if cases is not None:
            return _Cases(problem, ready=cases(problem))
        return _Cases(problem, tests if tests is not None else select_tests(problem, patterns))

    report = Report(problem, str(path), "AC", 0)
    try:
        source = _read_source(path, report)
    except BaseException:
        if sandbox is not None:
            sandbox.close()
        raise
    if source is None:
        if sandbox is not None:
            sandbox.close()
        return report
    report.source_sha256 = hashlib.sha256(source).hexdigest()
    session = _Session(path, source, sandbox)
    todo: _Cases | None = None
    try:
        todo = make_cases(problem) if problem is not None else _Cases(None, [])  # read from now on
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
        cpu_ms = time_limit_ms or problem.time_limit_ms
        limits = Limits(cpu_ms, cpu_ms * WALL_FACTOR, problem.memory_limit_mb)
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
    finally:
        if todo is not None:
            todo.stop()
        session.close()
    if report.first_failure is not None and not report.message:
        report.message = report.first_failure.message
    return report


class _Cases:
    """A judging's tests in order, each read (and its arrays encoded) once, ahead of the runs.

    Stored tests are read by a forked process of the judge's own (it has numpy already) and come
    back as raw arrays: parsing 3 MiB of JSON then takes the judge's interpreter for none of its
    time, and a large file's parse never holds up the runs it hands out meanwhile (issue 8's
    speed). A thread receives them; the judge's own thread only ever waits for one. Where the
    judge already runs threads (judging the bundled submissions side by side, the web page), a
    fork could inherit a lock held by one of them, so the thread reads the files itself. Tests
    made in memory are prepared by the thread. A file that cannot be read is raised when its
    turn comes, as a ProblemError naming it.
    """

    def __init__(self, problem: Problem | None, paths: list[Path] = (), ready: list[TestCase] = ()):
        self.problem = problem
        self.total = len(paths) + len(ready)
        self._read: list[_Prepared | BaseException | None] = []
        self._arrived = threading.Condition()
        self._stopped = False
        self._reader_pid = 0
        if not self.total:
            return
        if paths and not ready and threading.active_count() == 1:
            work = self._receive_from(self._fork_reader(list(paths)))
        else:
            work = self._read_here([*ready, *paths])
        threading.Thread(target=work, name="test-reader", daemon=True).start()

    def __len__(self) -> int:
        return self.total

    def _fork_reader(self, paths: list[Path]) -> int:
        def read(fd: int) -> None:
            for path in paths:
                try:
                    header, blobs = _prepare(self.problem, path).to_wire()
                except ProblemError as exc:
                    wire.send(fd, {"error": str(exc)})
                    return
                wire.send(fd, header, blobs)

        # the reader holds nothing of the judge's but its pipe (the fork server's stdin among them)
        self._reader_pid, read_end = wire.forked_writer(read, keep_only_pipe=True)
        return read_end

    def _receive_from(self, fd: int) -> Callable[[], None]:
        def receive() -> None:
            try:
                for _ in range(self.total):
                    header, blobs = wire.receive(fd)
                    if "error" in header:
                        self._arrive(ProblemError(str(header["error"])))
                        return
                    self._arrive(_Prepared.from_wire(header, blobs))
            except BaseException as exc:  # the judge's thread waits for an item: it must get one
                self._arrive(SandboxError(f"the judge's test reader stopped ({type(exc).__name__}: {exc})"))
            finally:
                os.close(fd)
                os.waitpid(self._reader_pid, 0)
        return receive

    def _read_here(self, items: list[TestCase | Path]) -> Callable[[], None]:
        def read() -> None:
            for item in items:
                if self._stopped:
                    return
                try:
                    self._arrive(_prepare(self.problem, item))
                except BaseException as exc:  # raised in the judge's thread, when this test's turn comes
                    self._arrive(exc)
                    return
        return read

    def _arrive(self, item: _Prepared | BaseException) -> None:
        with self._arrived:
            self._read.append(item)
            self._arrived.notify()

    def __iter__(self) -> Iterator[_Prepared]:
        for index in range(self.total):
            with self._arrived:
                while len(self._read) <= index:
                    self._arrived.wait()
                item, self._read[index] = self._read[index], None  # its run holds it from here
            if isinstance(item, BaseException):
                raise item
            yield item

    def stop(self) -> None:
        """Read nothing more: the judging has ended (early, or with every test read)."""
        self._stopped = True
        if self._reader_pid:
            try:
                os.kill(self._reader_pid, signal.SIGKILL)  # reaped by the receiving thread
            except ProcessLookupError:
                pass


def _prepare(problem: Problem, item: TestCase | Path) -> "_Prepared":
    """A test made in memory, or a stored one read; a stored one that cannot be encoded (ragged
    or non-numeric arrays, which the validator refuses) is a ProblemError naming its file."""
    if isinstance(item, TestCase):
        return _Prepared.of(problem, item)
    case = read_test(problem, item)
    try:
        return _Prepared.of(problem, case)
    except (ValueError, TypeError, KeyError) as exc:
        raise ProblemError(f"{item}: its arrays cannot be read as numbers ({type(exc).__name__}: {exc})") from None


@dataclass
class _Prepared:
    """A test as the wire carries it: its arguments encoded, its expected output as an array,
    and what the report shows of it."""

    name: str
    note: str
    sizes: dict[str, int]
    specs: list[dict]  # the arguments of the method (interactive: of the constructor)
    blobs: list[bytes]
    expected: np.ndarray
    rows: np.ndarray | None  # interactive: the stream, one row per step

    @classmethod
    def of(cls, problem: Problem, case: TestCase) -> "_Prepared":
        names = problem.constructor if problem.interactive else problem.arg_names
        specs, blobs = encode_args([case.input[name] for name in names])
        rows = (np.ascontiguousarray(case.input[problem.stream], dtype=np.float64) if problem.interactive
                else None)
        return cls(case.name, str(case.meta.get("note", "")), problem.sizes_of(case.input), specs, blobs,
                   np.asarray(case.expected, dtype=np.float64), rows)

    def to_wire(self) -> tuple[dict, list[bytes]]:
        """For the reader's pipe (trusted: both ends are the judge's)."""
        arrays = [a for a in (self.expected, self.rows) if a is not None]
        header = {"name": self.name, "note": self.note, "sizes": self.sizes, "specs": self.specs,
                  "shapes": [list(a.shape) for a in arrays]}
        return header, [*self.blobs, *(np.ascontiguousarray(a).tobytes() for a in arrays)]

    @classmethod
    def from_wire(cls, header: dict, blobs: list[bytes]) -> "_Prepared":
        count = len(blobs) - len(header["shapes"])
        arrays = [np.frombuffer(blob, dtype=np.float64).reshape(shape)
                  for blob, shape in zip(blobs[count:], header["shapes"])]
        return cls(header["name"], header["note"], header["sizes"], header["specs"], blobs[:count],
                   arrays[0], arrays[1] if len(arrays) > 1 else None)


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

    def start(self, report: Report) -> list[str]:
        """Wait for the sandbox and compile the file there; the Solution's method names (CE on failure)."""
        self.sandbox.ready()
        report.isolation = self.sandbox.isolation
        outcome = self.sandbox.compile(self.source, self.path.name, COMPILE_LIMITS)
        if outcome.setup_error is not None:
            raise SandboxError(f"the walls could not be put up: {outcome.setup_error}")
        reply = parse_report(outcome.result)
        if outcome.timed_out or outcome.cpu_ms > COMPILE_LIMITS.cpu_ms:
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

    def results(self, problem: Problem, todo: "_Cases", limits: Limits, keep_output: bool) -> Iterator[TestResult]:
        """Each test's result, in order. A function problem's runs go as many at once as the
        sandbox has lanes (each in its own child, its own CPU time); the caller may stop early,
        and closing the session then ends the runs still in flight."""
        if problem.interactive:
            for test in todo:
                yield self._guarded(problem, test, lambda: _judge_interactive(
                    self._live(), problem, test, limits, self.source_lines, keep_output))
            return
        tests, numbers = iter(todo), itertools.count()
        queue: list[tuple[int, _Prepared]] = []  # tests to run again on a fresh fork server
        in_flight: dict[int, _Prepared] = {}
        finished: dict[int, TestResult] = {}
        shown = 0
        while True:
            sandbox = self._live()
            while len(in_flight) < sandbox.lanes:
                if queue:
                    number, test = queue.pop(0)
                elif (test := next(tests, None)) is not None:
                    number = next(numbers)
                else:
                    break
                in_flight[number] = test
                result_bytes = test.expected.size * 8 + RESULT_HEADER_BYTES
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

    def _guarded(self, problem: Problem, test: _Prepared, judge: Callable[[], TestResult]) -> TestResult:
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


def _lost(test: _Prepared, exc: SandboxLost) -> TestResult:
    return TestResult(test.name, "TLE" if exc.timed_out else "RE", sizes=test.sizes, note=test.note,
                      message=f"the run stopped or killed its sandbox's fork server ({exc})")


def _judge_run(problem: Problem, test: _Prepared, outcome: RunOutcome, limits: Limits,
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


def _judge_interactive(sandbox: Sandbox, problem: Problem, test: _Prepared, limits: Limits,
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


def _result(test: _Prepared, outcome: RunOutcome) -> TestResult:
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
    if outcome.cpu_ms > limits.cpu_ms or outcome.signal == signal.SIGXCPU:  # also when the wall
        # clock fired first on a busy machine: the CPU time is the reason
        return "TLE", f"used {outcome.cpu_ms:.0f} ms of CPU time, over the limit of {limits.cpu_ms} ms"
    if outcome.timed_out:
        return "TLE", (f"still running after {outcome.wall_ms / 1000:.1f} s of wall-clock time "
                       f"(CPU {outcome.cpu_ms:.0f} ms): sleeping, stopped or blocked")
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
