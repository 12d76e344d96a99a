"""What a submission's run printed, as the class keeps it per test (stdout/stderr and the
traceback cut to the student's own lines, as the practice page's console shows them): made safe
as the terminal shows it, and bounded per test and per submission, since the store keeps every
submission and every byte of a run is the submission's to choose."""

from __future__ import annotations

from grading.judgement import Report, TestSummary
from grading.report import escaped

OUTPUT_CHARS = 2000  # of a test's stdout/stderr kept
TRACEBACK_CHARS = 2000  # of a test's traceback kept
SUBMISSION_CHARS = 16000  # of output and tracebacks kept over all of a submission's tests
CUT = "\n..."  # said where a text was cut


def _cut(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[:chars] + CUT


def printed(report: Report, tests: list[TestSummary]) -> list[TestSummary]:
    """The store's tests with what each run printed and its traceback added (bounded()), where
    there is any: a quiet test costs the store nothing more."""
    for kept, result in zip(tests, report.tests, strict=True):
        if result.output:
            kept["output"] = escaped(_cut(result.output, OUTPUT_CHARS), lines=True)
            kept["output_size"] = result.output_size
        if result.traceback.strip():
            kept["traceback"] = escaped(_cut(result.traceback, TRACEBACK_CHARS), lines=True)
    return bounded(tests)


def bounded(tests: object) -> list:
    """The tests as the store keeps them: each output and traceback a string of at most its
    share, and at most SUBMISSION_CHARS of them in all (later tests' text dropped, output_size
    still saying how much was printed); what is not a list of objects, none."""
    if not isinstance(tests, list):
        return []
    left = SUBMISSION_CHARS
    out = []
    for test in tests:
        if not isinstance(test, dict):
            continue
        test = dict(test)
        for key, chars in (("output", OUTPUT_CHARS), ("traceback", TRACEBACK_CHARS)):
            value = test.get(key)
            if value is None:
                continue
            value = _cut(value, chars) if isinstance(value, str) else ""
            if len(value) > left:
                value = value[:left] + CUT if left > 0 else ""
            left -= len(value)
            test[key] = value
        if "output_size" in test and (type(test["output_size"]) is not int or test["output_size"] < 0):
            test["output_size"] = 0
        out.append(test)
    return out
