"""The grader of an interactive problem (problem.toml's kind = "interactive"): Solution(*constructor
arguments) once per test, then one call per row of its stream, each answer checked while the run
works on the next row; one test at a time."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from grading.checker import compare
from grading.grader import (
    RERUN_DELAY_S,
    RERUNS,
    RESULT_HEADER_BYTES,
    Runs,
    held_back,
    lost,
    measured,
    or_default,
    with_source,
)
from grading.judgement import Mismatch, TestResult, Verdict
from grading.result import returned_array
from grading.tests import Reader, TestData
from grading.verdict import classify
from problems import Problem
from sandbox.errors import SandboxLost
from sandbox.inside.protocol import Result, ResultStatus, read_result
from sandbox.outcome import Limits, RunOutcome
from sandbox.sandbox import Sandbox


@dataclass
class _Failure:
    """An interactive run's first wrong answer."""

    step: int
    message: str
    detail: Mismatch | None = None


class InteractiveGrader:
    """Each test's result, in order, one run at a time."""

    def results(self, runs: Runs, problem: Problem, reader: Reader, limits: Limits,
                keep_output: bool) -> Iterator[TestResult]:
        for _, test in reader:
            judged_again: list[str] = []
            while True:
                try:
                    result, outcome = _judge_interactive(runs.live(), problem, test, limits, runs.source_lines,
                                                         keep_output)
                except SandboxLost as exc:
                    runs.close()
                    result, outcome = lost(test, exc), None
                if outcome is None or not held_back(result, outcome, limits, judged_again):
                    break
                if len(judged_again) > RERUNS:
                    result.undecided = True
                    break
                time.sleep(RERUN_DELAY_S)
            result.judged_again = judged_again[:RERUNS]
            yield result


def _judge_interactive(sandbox: Sandbox, problem: Problem, test: TestData, limits: Limits,
                       source_lines: list[str], keep_output: bool = False) -> tuple[TestResult, RunOutcome]:
    """Solution(*constructor arguments), then one call per row of the stream; each answer is checked
    while the run works on the next row, and the first wrong one ends the run. The result, and
    what the operating system said about the run."""
    expected, rows = test.expected, test.rows
    assert rows is not None  # an interactive problem's test has its stream
    answers: list[np.ndarray] = []
    failure: list[_Failure] = []  # the first wrong step, once there is one
    errors = [0.0, 0.0]

    def on_step(t: int, payload: bytes) -> bool:
        reply, array = read_result(payload)
        got = returned_array(reply, array)
        if got is None:
            failure.append(_Failure(t, or_default(reply.message if reply is not None else None,
                                                  "the answer is not an array of numbers")))
            return False
        check = compare(got, expected[t], problem.abs_tol, problem.rel_tol)
        errors[0] = max(errors[0], check.max_abs_err or 0.0)
        errors[1] = max(errors[1], check.max_rel_err or 0.0)
        answers.append(got)
        if not check.ok:
            failure.append(_Failure(t, check.message, check.detail))
        return check.ok

    answer_bytes = int(expected[0].size) * 8 + RESULT_HEADER_BYTES
    rows_bytes = [np.ascontiguousarray(row, dtype=np.float64).tobytes() for row in rows]
    outcome = sandbox.interact(problem.method, (test.specs, test.blobs), rows_bytes, limits, answer_bytes, on_step)
    if outcome.judge_ended and outcome.signal == signal.SIGKILL:  # killed for lingering after its last step
        outcome = replace(outcome, signal=None)
    result = measured(test, outcome)
    result.max_abs_err, result.max_rel_err = errors
    report, _ = read_result(outcome.result)
    if outcome.judge_ended and report is None:
        report = Result(ResultStatus.OK)
    verdict: Verdict | None
    if failure:  # decided before whatever ended the run after it (the judge's end, a kill for a bad answer)
        first = failure[0]
        result.step, result.mismatch = first.step, first.detail
        verdict, message = Verdict.WA, f"step t = {first.step} (of 0..{len(rows) - 1}): {first.message}"
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
