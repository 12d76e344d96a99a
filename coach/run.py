"""`python -m judge run FILE [--input CASE.json]`: LeetCode's Run. The file is judged in the same
sandbox on the sample, or on an input the user wrote (checked against problem.toml with the
validator's messages), and its output is shown beside the reference's with the differences
marked."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from coach.case import MAX_CASE_BYTES, parse_case
from grading.judgement import Report
from grading.report import escaped, problem_arg, test_json
from grading.session import Options, judge_file
from problems import Problem, ProblemError, TestCase, read_test
from problems.package import shown
from sandbox.sandbox import Sandbox
from testcases import oracle
from testcases.validate import validate_input

SHOW_ROWS = 8
SHOW_COLS = 8


def sample_case(problem: Problem) -> TestCase:
    """The problem's first sample test (its first test when none is a sample)."""
    files = problem.test_files()
    if not files:
        raise ProblemError(f"{problem.tests_dir}: no stored tests (run make testcases)")
    first = next((f for f in files if f.stem.endswith("-sample")), files[0])
    return read_test(problem, first)


def own_case(problem: Problem, path: Path) -> TestCase:
    """A case the user wrote, {"input": {...}}, validated; its expected output is the reference's."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CASE_BYTES + 1)
    except FileNotFoundError:
        raise ProblemError(f"{path}: no such file") from None
    except OSError as exc:
        raise ProblemError(f"{path}: cannot be read ({exc.strerror})") from None
    data = parse_case(raw, str(path))
    violations, _ = validate_input(problem, data["input"])
    if violations:
        more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
        raise ProblemError(f"{path}: {violations[0]}{more}")
    inputs = {name: data["input"][name] for name in problem.arg_names}
    expected = oracle.run(problem, inputs)
    if not np.all(np.isfinite(expected)):
        raise ProblemError(f"{path}: {no_single_answer(problem)}")
    return TestCase(path.stem, path, inputs, expected.tolist(), {"note": f"your input {shown(path)}"})


def no_single_answer(problem: Problem) -> str:
    """Why an input whose expected output is NaN or inf is refused: the reference marks so an input
    with no single right answer (one a rounding decides), and the statement may say where that is."""
    if problem.no_single_answer:
        return (f"refused: {problem.slug} has no single right answer on this input: it comes too close to a "
                f"boundary where rounding decides (the statement's section \"{problem.no_single_answer}\" says "
                "how close an input may come)")
    return (f"refused: {problem.slug} has no single right answer on this input (the reference's output is NaN "
            "or infinite there)")


def run_file(path: Path, problem: Problem | None, case_path: Path | None,
             sandbox: Sandbox | None = None) -> tuple[Report, np.ndarray | None]:
    """The report of one run, and the reference's output it was compared with; in `sandbox` (not
    yet started, closed at the end) when given, else in the file's own."""
    made: list[TestCase] = []

    def cases(problem: Problem) -> list[TestCase]:
        made.append(own_case(problem, case_path) if case_path else sample_case(problem))
        return made

    report = judge_file(path, problem, Options(cases, keep_output=True, sandbox=sandbox))
    report.rerun = (["run", str(path)] + (["--problem", problem_arg(report.problem)] if report.problem else [])
                    + (["--input", str(case_path)] if case_path else []))
    expected = np.asarray(made[0].expected, dtype=np.float64) if made else None
    return report, expected


def run_json(report: Report, expected: np.ndarray | None, input_name: str) -> dict:
    """A run as `run --json` prints it and both servers' pages read it: the verdict, the test, your
    output and the reference's (`input_name`: "sample", or what the user's case is called)."""
    test = report.tests[0] if report.tests else None
    return {
        "problem": report.problem.slug if report.problem else None, "verdict": report.verdict,
        "message": report.message, "input": input_name,
        "output": test.got.tolist() if test is not None and test.got is not None else None,
        "expected": expected.tolist() if expected is not None else None,
        "test": test_json(test, report.problem) if test is not None else None,
        **({"traceback": escaped(report.traceback, lines=True)} if report.traceback.strip() else {}),
    }


def side_by_side(got: np.ndarray | None, expected: np.ndarray, abs_tol: float, rel_tol: float,
                 stepped: bool = False) -> list[str]:
    """Your output and the reference's, element by element, a differing element marked with *;
    a large output is cut to the corner around the first difference. `stepped`: the rows are the
    answers of an interactive run, which a wrong step ends, so fewer rows than the reference's
    are the steps it answered, shown against the reference's same steps."""
    lines = []
    if got is None:
        return ["  (no output to show)"]
    if (stepped and got.ndim == expected.ndim == 2 and got.shape[1] == expected.shape[1]
            and got.shape[0] < expected.shape[0]):
        lines.append(f"  your run answered steps 0-{got.shape[0] - 1} of 0-{expected.shape[0] - 1} "
                     "(a wrong step ends it)")
        expected = expected[:got.shape[0]]
    if got.shape == expected.shape == ():  # a scalar output
        wrong = not abs(float(got) - float(expected)) <= max(abs_tol, rel_tol * abs(float(expected)))
        return [f"  yours: {_num(float(got))}{'*' if wrong else ''}   reference: {_num(float(expected))}"]
    if got.shape != expected.shape or got.ndim != 2:
        return [f"  yours: shape {got.shape}, reference: shape {expected.shape}"]
    wrong = ~(np.abs(got - expected) <= np.maximum(abs_tol, rel_tol * np.abs(expected)))
    first = np.argwhere(wrong)
    r0 = max(0, int(first[0][0]) - 1) if len(first) else 0
    c0 = max(0, int(first[0][1]) - 1) if len(first) else 0
    rows, cols = range(r0, min(r0 + SHOW_ROWS, got.shape[0])), range(c0, min(c0 + SHOW_COLS, got.shape[1]))
    cell = 13
    head = " " * 7 + "".join(f"{f'col {c}':>{cell}}" for c in cols)
    lines.append(f"  rows {rows.start}-{rows.stop - 1}, columns {cols.start}-{cols.stop - 1} of {got.shape}"
                 f"{'' if len(first) == 0 else f'; {len(first)} element(s) differ, marked *'}")
    lines.append("  " + head)
    for r in rows:
        lines.append(f"  row {r:<3}"
                     + "".join(f"{_num(got[r, c]) + ('*' if wrong[r, c] else ' '):>{cell}}" for c in cols)
                     + "   yours")
        lines.append(" " * 9 + "".join(f"{_num(expected[r, c]) + ' ':>{cell}}" for c in cols) + "   reference")
    return lines


def _num(x: float) -> str:
    """Six significant digits; a whole number (a token id) in full."""
    return str(int(x)) if float(x).is_integer() and abs(x) < 2**53 else f"{x:.6g}"
