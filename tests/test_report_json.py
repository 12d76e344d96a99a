"""The report's JSON (--json, the web page's progress lines) stays byte for byte what the page's
JavaScript reads: fixture reports, rendered, against the output kept in tests/fixtures/report_json/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coach.hints import Hint
from coach.speed import Speed
from grading import report as render
from grading.judgement import Report, TestResult, Verdict, summary_from_json, summary_of
from problems import load

FIXTURES = Path(__file__).parent / "fixtures" / "report_json"
HINT = Hint(2, "step", "your output goes wrong at step 3 of the statement (softmax): softmax without subtracting "
            "the row max", step="step 3 of the statement (softmax)", matches=["wrong_answer/no_max.py"],
            bugs=["softmax without subtracting the row max"])
SPEED = Speed("004-large", 41.3, 12.0, 3.44)


def _reports() -> dict[str, Report]:
    causal, decode = load("causal"), load("gqa_decode")
    mismatch = {"index": [0, 2], "position": "row 0, column 2", "expected": 0.5, "got": 0.25, "error": 0.25,
                "allowed": 1e-05, "differ": 3, "elements": 16}
    return {
        "accepted": Report(causal, "mine.py", Verdict.AC, 2, isolation="bubblewrap, seccomp", tests=[
            TestResult("001-sample", Verdict.AC, 3.25, 2.5, 30.1, 0.0, 0.0, sizes={"T": 4, "d_model": 8}),
            TestResult("004-large", Verdict.AC, 41.3, 40.0, 60.5, 1e-9, 2e-7, sizes={"T": 512, "d_model": 64},
                       note="the largest")]),
        "accepted_speed": Report(causal, "mine.py", Verdict.AC, 1, sections=[SPEED], tests=[
            TestResult("004-large", Verdict.AC, 41.3, 40.0, 60.5, 1e-9, 2e-7)]),
        "wrong_answer_hint": Report(causal, "wrong.py", Verdict.WA, 3, message="row 0, column 2: expected 0.5",
                                    sections=[HINT], tests=[
            TestResult("001-sample", Verdict.AC, 3.0, 2.0, 30.0, 0.0, 0.0),
            TestResult("002-edge", Verdict.WA, 4.0, 3.0, 31.0, 0.25, 0.5, message="row 0, column 2: expected 0.5",
                       output="debug \x1b[31mred\x1b[0m\nline two\r\n" + "x" * 5000, output_size=5030,
                       output_lines=2, mismatch=mismatch, sizes={"T": 4, "d_model": 8})]),
        "interactive_step": Report(decode, "decode.py", Verdict.RE, 1, message="ZeroDivisionError: division by zero",
                                   tests=[TestResult("001-sample", Verdict.RE, 5.0, 4.0, 33.0, 0.0, 0.0, step=3,
                                                     message="ZeroDivisionError: division by zero in step 3",
                                                     traceback='  File "decode.py", line 9, in step\n    1 / 0\n')]),
        "judged_again": Report(causal, "slow.py", Verdict.TLE, 1, message="used 1500 ms", tests=[
            TestResult("001-sample", Verdict.TLE, 1500.0, 1490.0, 30.0, message="used 1500 ms",
                       judged_again=["used 1200 ms of CPU time, over the limit of 1000 ms, while it waited"])]),
        "compile_error": Report(None, "broken\u202e.py", Verdict.CE, 0, message="invalid syntax (line 3)",
                                traceback='  File "broken.py", line 3\n    def (\n        ^\n'),
        "judge_error": Report(causal, "mine.py", Verdict.JE, 4, message="the sandbox failed: gone"),
    }


@pytest.mark.parametrize("name", sorted(_reports()))
def test_the_json_of_a_fixture_report_is_byte_identical(name):
    report = _reports()[name]
    assert render.to_json(report) == (FIXTURES / f"{name}.json").read_text(encoding="utf-8").rstrip("\n")


def test_the_progress_json_carries_the_text_report_and_each_test():
    report = _reports()["wrong_answer_hint"]
    kept = json.loads((FIXTURES / "wrong_answer_hint.progress.json").read_text(encoding="utf-8"))
    assert json.loads(render.to_json(report, with_text=True)) == kept
    assert json.loads(render.to_json(report, with_text=True))["text"] == render.to_text(report)
    assert [render.test_json(t, report.problem) for t in report.tests] == kept["tests"]


def _write_fixtures() -> None:  # run by hand when the JSON changes on purpose, with the page's JavaScript
    for name, report in _reports().items():
        (FIXTURES / f"{name}.json").write_text(render.to_json(report) + "\n", encoding="utf-8")
    (FIXTURES / "wrong_answer_hint.progress.json").write_text(
        render.to_json(_reports()["wrong_answer_hint"], with_text=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    _write_fixtures()


@pytest.mark.parametrize(("data", "expected"), [
    (None, {"verdict": "JE", "message": "the worker returned no result", "traceback": "", "tests": [], "passed": 0,
            "total": 0, "cpu_ms": None, "memory_mb": None, "attempts": 1}),
    ({"verdict": "AC", "message": 3, "tests": {"a": 1}, "passed": "2", "total": True, "cpu_ms": 12, "memory_mb": "x",
      "attempts": 0}, {"verdict": "AC", "message": "", "traceback": "", "tests": [], "passed": 0, "total": 0,
                       "cpu_ms": 12.0, "memory_mb": None, "attempts": 1}),
])
def test_a_worker_s_result_is_read_as_a_summary_without_raising(data, expected):
    assert summary_from_json(data) == expected


def test_a_report_s_summary_reads_back_unchanged():
    report = _reports()["judged_again"]
    summary = summary_of(report, 2000)
    assert summary_from_json(json.loads(json.dumps(summary))) == summary
    assert summary["tests"][0]["judged_again"] == report.tests[0].judged_again and summary["cpu_ms"] == 1500.0
