"""The grader of a function problem (problem.toml's kind = "function"): one call per test, runs
going as many at once as the sandbox has lanes, each in its own child with its own CPU time."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import partial

from grading.checker import compare
from grading.grader import RERUN_DELAY_S, RERUNS, RESULT_HEADER_BYTES, Runs, held_back, lost, measured, with_source
from grading.judgement import TestResult, Verdict
from grading.result import returned_array
from grading.tests import Reader, TestData
from grading.verdict import classify
from problems import Problem
from sandbox.errors import SandboxLost
from sandbox.inside.protocol import ResultStatus, read_result
from sandbox.outcome import Limits, RunOutcome


class StandardGrader:
    """Each test's result, in order; the caller may stop early, and closing the session then ends
    the runs still in flight."""

    def results(self, runs: Runs, problem: Problem, reader: Reader, limits: Limits,
                keep_output: bool) -> Iterator[TestResult]:
        tests = iter(reader)
        order = InOrder()
        tries: dict[int, list[str]] = {}  # tests judged again: why each earlier run did not count
        while True:
            sandbox = runs.live()
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
                result = _judge_run(problem, order.in_flight[number], outcome, limits, runs.source_lines, keep_output)
                held = held_back(result, outcome, limits, tries.setdefault(number, []))
                if held and len(tries[number]) <= RERUNS:
                    order.again_later(number, time.monotonic() + RERUN_DELAY_S)
                else:
                    result.judged_again, result.undecided = tries.pop(number)[:RERUNS], held
                    order.done(number, result)
            except SandboxLost as exc:  # which run did it cannot be told: the first in flight is
                runs.close()  # blamed, the others run again on a fresh fork server
                order.lost(partial(lost, exc=exc))
            yield from order.ready()


class InOrder:
    """Runs that may end in any order, reported in test order: which tests are in flight, which
    are finished and waiting for an earlier one, and which must run again."""

    def __init__(self) -> None:
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


def _judge_run(problem: Problem, test: TestData, outcome: RunOutcome, limits: Limits,
               source_lines: list[str], keep_output: bool = False) -> TestResult:
    """A function problem's test, from what its run left behind."""
    result = measured(test, outcome)
    report, payload = read_result(outcome.result)
    verdict, message = classify(outcome, report, limits)
    if verdict is None:
        got = returned_array(report, payload)
        if got is None:
            verdict, message = Verdict.RE, "the run ended without a readable result"
        else:
            if test.expected.ndim == 0 and got.size == 1:  # a scalar output: one element, however wrapped
                got = got.reshape(())
            result.got = got.copy() if keep_output else None
            check = compare(got, test.expected, problem.abs_tol, problem.rel_tol)
            result.max_abs_err, result.max_rel_err = check.max_abs_err, check.max_rel_err
            verdict, message = (Verdict.AC if check.ok else Verdict.WA), check.message
            result.mismatch = None if check.ok else check.detail
    result.verdict, result.message = verdict, message
    if report is not None and report.status == ResultStatus.EXCEPTION:
        result.traceback = with_source(report.traceback or "", source_lines)
    return result
