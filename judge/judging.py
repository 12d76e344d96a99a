"""Judging one submission file on one problem's stored tests: runs, verdicts, the report data.

Verdicts, in the order they take precedence for one test: TLE (CPU time over the limit, or the
wall-clock limit hit), OLE (output flood), MLE (peak memory over the limit, or MemoryError),
CE (the file does not compile, its import fails, or it lacks the Solution class or method),
RE (an exception or an exit before returning), WA (the returned value is wrong), AC.
"""

from __future__ import annotations

import fnmatch
import json
import signal
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from judge.checker import compare
from judge.sandbox import FILE_LIMIT_BYTES, Limits, RunOutcome, Sandbox, SandboxError
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


@dataclass
class TestResult:
    name: str
    verdict: str
    time_ms: float | None = None
    memory_mb: float | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    message: str = ""
    traceback: str = ""
    output: str = ""
    output_size: int = 0
    sizes: dict = field(default_factory=dict)
    note: str = ""


@dataclass
class Report:
    problem: Problem | None
    submission: str
    verdict: str
    total: int
    tests: list[TestResult] = field(default_factory=list)
    isolation: str = ""
    message: str = ""

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


def judge_file(path: Path, problem: Problem, tests: list[Path], run_all: bool = False,
               time_limit_ms: int | None = None) -> Report:
    """Judge `path` on `tests`; stop at the first failure unless run_all (a CE always stops).

    `time_limit_ms` overrides problem.toml's limit: verification measures how far past the
    limit a slow solution goes, which a run cut off at the limit cannot show.
    """
    report = Report(problem, str(path), "AC", len(tests))
    cpu_ms = time_limit_ms or problem.time_limit_ms
    limits = Limits(cpu_ms, cpu_ms * WALL_FACTOR, problem.memory_limit_mb)
    try:
        with Sandbox(hidden=[problem.root.parent.resolve()], label=str(path)) as sandbox:
            report.isolation = sandbox.isolation
            error = sandbox.load(path.read_bytes(), path.name)
            if error is not None:
                report.verdict, report.message = "CE", error
                return report
            for test_path in tests:
                case = read_test(problem, test_path)
                result = _judge_test(sandbox, problem, case, limits)
                report.tests.append(result)
                if result.verdict != "AC":
                    if report.verdict == "AC":
                        report.verdict = result.verdict
                    if not run_all or result.verdict in ("CE", "JE"):
                        break
    except SandboxError as exc:
        report.verdict, report.message = "JE", f"the sandbox failed: {exc}"
    if report.verdict == "CE" and report.tests:
        report.message = report.tests[-1].message
    return report


def _judge_test(sandbox: Sandbox, problem: Problem, case: TestCase, limits: Limits) -> TestResult:
    expected = np.asarray(case.expected, dtype=np.float64)
    args = [case.input[name] for name in problem.arg_names]
    result_bytes = expected.size * 8 + 4096
    outcome = sandbox.run(problem.method, args, limits, result_bytes)
    result = TestResult(
        name=case.name,
        verdict="AC",
        time_ms=round(outcome.cpu_ms, 1),
        memory_mb=round(outcome.memory_mb, 1),
        output=outcome.output.decode("utf-8", errors="replace"),
        output_size=outcome.output_size,
        sizes=problem.sizes_of(case.input),
        note=str(case.meta.get("note", "")),
    )
    report = _parse_result(outcome.result)
    verdict, message = _classify(outcome, report, limits)
    if verdict is None:
        got, message = _returned_array(report)
        if got is None:
            verdict = "WA"
        else:
            check = compare(got, expected, problem.abs_tol, problem.rel_tol)
            result.max_abs_err, result.max_rel_err = check.max_abs_err, check.max_rel_err
            verdict, message = ("AC" if check.ok else "WA"), check.message
    result.verdict, result.message = verdict, message
    if report.get("status") == "exception":
        result.traceback = str(report.get("traceback", ""))
    return result


def _classify(outcome: RunOutcome, report: dict, limits: Limits) -> tuple[str | None, str]:
    """A verdict decided by limits, exit status or the run's own report; None when values decide."""
    if outcome.timed_out:
        return "TLE", (f"still running after {outcome.wall_ms / 1000:.1f} s of wall-clock time "
                       f"(CPU {outcome.cpu_ms:.0f} ms): sleeping, stopped or blocked")
    if outcome.cpu_ms > limits.cpu_ms or outcome.signal == signal.SIGXCPU:
        return "TLE", f"used {outcome.cpu_ms:.0f} ms of CPU time, limit {limits.cpu_ms} ms"
    if outcome.output_size >= FILE_LIMIT_BYTES or outcome.signal == signal.SIGXFSZ:
        return "OLE", f"wrote {outcome.output_size} bytes to stdout/stderr, limit {FILE_LIMIT_BYTES}"
    if outcome.memory_mb > limits.memory_mb or report.get("status") == "memory":
        return "MLE", (f"peak memory {outcome.memory_mb:.0f} MiB, limit {limits.memory_mb} MiB"
                       + (" (MemoryError raised)" if report.get("status") == "memory" else ""))
    status = report.get("status")
    if status == "compile":
        return "CE", str(report.get("message", ""))
    if status == "exception":
        text = str(report.get("message", report.get("type", "exception")))
        if report.get("phase") == "import":
            return "CE", f"importing the file failed: {text}"
        where = {"init": " while constructing Solution()", "lookup": " while looking up the method"}
        return "RE", text + where.get(str(report.get("phase")), "")
    if status == "setup-failed":
        return "JE", f"the sandbox could not set up the run: {report.get('message', '')}"
    if outcome.signal is not None:
        return "RE", f"killed by signal {_signal_name(outcome.signal)}"
    if status is None:
        code = outcome.exit_code
        return "RE", f"the process exited (code {code}) before the method returned a result"
    return None, ""


def _parse_result(raw: bytes) -> dict:
    """The run's report header (untrusted JSON), with the array bytes kept aside."""
    head, _, payload = raw.partition(b"\n")
    try:
        report = json.loads(head)
    except (ValueError, UnicodeDecodeError):
        return {}
    if not isinstance(report, dict):
        return {}
    report["_payload"] = payload
    return report


def _returned_array(report: dict) -> tuple[np.ndarray | None, str]:
    if report.get("status") == "invalid":
        return None, str(report.get("message", "the returned value is not an array of numbers"))
    shape = report.get("shape")
    payload = report.get("_payload", b"")
    if not (isinstance(shape, list) and all(type(n) is int and n >= 0 for n in shape)):
        return None, "the run's result could not be read"
    if int(np.prod(shape, dtype=np.int64)) * 8 != len(payload):
        return None, "the run's result could not be read"
    return np.frombuffer(payload, dtype=np.float64).reshape(shape), ""


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
