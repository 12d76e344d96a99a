"""Rendering a Report for a person (text, coloured on a terminal) or a program (one JSON object)."""

from __future__ import annotations

import json
import shlex
import sys
import unicodedata
from pathlib import Path
from typing import cast

from grading.judgement import Report, ReportJson, TestJson, TestResult, Verdict
from grading.verdict import over
from problems import Problem

OUTPUT_LINES = 12
OUTPUT_CHARS = 1500
OUTPUT_JSON_CHARS = 4000  # of each test's captured output in the JSON (the page's console)
COLOURS = {"AC": "32", "WA": "31", "RE": "35", "CE": "35", "TLE": "33", "MLE": "33", "OLE": "33", "JE": "36"}


def escaped(text: str, lines: bool = False) -> str:
    """Text from a submission made safe for a terminal: every control or formatting character
    (ESC, CR, backspace, bidi overrides, ...) is shown escaped, and so is a newline unless
    `lines`, so that a message cannot start a line of the report that the judge did not write."""
    out = []
    for ch in text:
        if ch == "\n" and lines or ch == "\t" or " " <= ch <= "~":
            out.append(ch)
        elif ch.isascii() or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            out.append(repr(ch)[1:-1] if ch != "\\" else "\\")
        else:
            out.append(ch)
    return "".join(out)


def test_json(t: TestResult, problem: Problem | None = None) -> TestJson:
    """One test's result as --json and the progress lines carry it: the figures, what the run
    printed (made safe as the terminal shows it, at most OUTPUT_JSON_CHARS; `output_size` counts
    all of it), the traceback cut to the submission's own lines, the test's note and sizes (with
    the derived ones when `problem` is given), a wrong answer's first mismatch as data, and, for a
    test judged again, why each earlier run did not count."""
    output = t.output[:OUTPUT_JSON_CHARS]
    out = TestJson(name=t.name, verdict=t.verdict, time_ms=t.time_ms, user_ms=t.user_ms, memory_mb=t.memory_mb,
                   max_abs_err=t.max_abs_err, max_rel_err=t.max_rel_err, message=t.message,
                   output=escaped(output, lines=True) + ("\n..." if len(output) < len(t.output) else ""),
                   output_size=t.output_size, traceback=escaped(t.traceback, lines=True), note=t.note,
                   sizes=_with_derived_of(problem, t.sizes))
    if t.step is not None:
        out["step"] = t.step
    if t.mismatch:
        out["mismatch"] = t.mismatch
    if t.judged_again:
        out["judged_again"] = t.judged_again
    return _ordered(out, TestJson)


def report_json(report: Report) -> ReportJson:
    """The report's own part of its JSON: what comes before the layers' sections and the tests."""
    out = ReportJson(problem=report.problem.slug if report.problem else None, submission=report.submission,
                     verdict=report.verdict, passed=report.passed, total=report.total, isolation=report.isolation,
                     message=report.message)
    if report.traceback.strip():
        out["traceback"] = escaped(report.traceback, lines=True)
    if (failure := report.first_failure) is not None:
        out["first_failure"] = failure.name
    return out


def to_json(report: Report, with_text: bool = False) -> str:
    """The report as one JSON object: its own part, each section a layer above added (under the
    section's key), the tests; `with_text` adds the text report (first failure, traceback,
    captured output), for a reader that shows what the terminal shows."""
    sections = {section.key: section.to_json() for section in report.sections}
    return json.dumps({**report_json(report), **sections, "tests": [test_json(t, report.problem) for t in report.tests],
                       **({"text": to_text(report)} if with_text else {})})


def _ordered(data: TestJson, shape: type[TestJson]) -> TestJson:
    """The keys in the order the shape declares them (the JSON's order, which the page's tests read)."""
    order = list(shape.__annotations__)
    return cast(TestJson, dict(sorted(data.items(), key=lambda item: order.index(item[0]))))


def paint(verdict: str, colour: bool, width: int = 0) -> str:
    text = verdict.ljust(width)
    return f"\033[1;{COLOURS.get(verdict, '0')}m{text}\033[0m" if colour else text


def to_text(report: Report, colour: bool = False) -> str:
    lines: list[str] = []
    p = report.problem
    if p is not None:
        title = p.title + "".join(f" / {t}" for t in p.titles.values())
        lines.append(f"Problem     {p.slug} ({p.id}) {title}: time limit {p.time_limit_ms} ms, "
                     f"memory {p.memory_limit_mb} MiB, tolerance abs {p.abs_tol:g} or rel {p.rel_tol:g}")
    lines.append(f"Submission  {escaped(report.submission)}")
    if report.isolation:
        lines.append(f"Sandbox     {report.isolation}")
    if report.tests:
        lines.append("")
        width = max(18, *(len(t.name) for t in report.tests))
        lines.append(f"  {'test':<{width}} {'verdict':<8} {'time':>8} {'memory':>10} "
                     f"{'max abs err':>12} {'max rel err':>12}")
        for t in report.tests:
            lines.append(f"  {t.name:<{width}} {paint(t.verdict, colour, 8)} {_time(t, p):>8} "
                         f"{_memory(t, p):>10} {_err(t.max_abs_err):>12} {_err(t.max_rel_err):>12}")
        for t in report.tests:
            if t.judged_again:
                lines.append(f"  {t.name}: judged again {len(t.judged_again)} time{'s' * (len(t.judged_again) > 1)}, "
                             "the machine being busy: " + "; ".join(t.judged_again))
    lines.append("")
    name = Verdict(report.verdict).title
    summary = f"Verdict: {paint(report.verdict, colour)} ({name})"
    failure = report.first_failure
    if failure is not None:
        summary += f" on test {failure.name}"
    ran_all = len(report.tests) == report.total
    if failure is not None and not ran_all:
        number = report.tests.index(failure) + 1
        summary += f": failed test {number} of {report.total} (stopped at the first failure; --all runs the rest)"
    elif report.tests or report.verdict != "CE":
        summary += f": {report.passed}/{report.total} tests passed"
    lines.append(summary)
    if report.message and (failure is None or report.message != failure.message):
        lines += ["", *("  " + line for line in escaped(report.message, lines=True).splitlines())]
    if report.traceback.strip():
        lines += ["  traceback (your code only):",
                  *("    " + line for line in escaped(report.traceback, lines=True).rstrip().splitlines())]
    if failure is not None:
        lines += ["", *_failure_details(report, failure)]
    for section in report.sections:  # the layers above's, in their words
        lines += ["", section.to_text()]
    return "\n".join(lines)


def _failure_details(report: Report, t: TestResult) -> list[str]:
    out = [f"First failure: {t.name}" + (f" ({t.note})" if t.note else "")]
    if t.sizes:
        out.append("  input:    " + ", ".join(f"{k} = {v}" for k, v in _with_derived(report, t.sizes).items()))
    if t.step is not None:
        out.append(f"  step:     {t.step} (the call for row {t.step} of the input; the steps before it were right)")
    if t.message:
        out.append("  problem:  " + escaped(t.message))
    if t.traceback.strip():
        out.append("  traceback (your code only):")
        out += ["    " + line for line in escaped(t.traceback, lines=True).rstrip().splitlines()]
    if t.output_size:
        out.append(f"  stdout/stderr ({t.output_size} bytes):")
        out += ["    " + line for line in escaped(_shorten(t.output, t.output_lines), lines=True).splitlines()]
    if report.rerun is not None:
        out.append("  rerun it: " + escaped(shlex.join([_python(), "-m", "judge", *report.rerun])))
    elif report.problem is not None:
        cmd = [_python(), "-m", "judge", report.submission, "--problem", problem_arg(report.problem), "--tests", t.name]
        out.append("  rerun it: " + escaped(shlex.join(cmd)))
    return out


def _python() -> str:
    """The interpreter that judged, as a command that works from here (the venv's, not a bare python)."""
    here = Path.cwd()
    exe = Path(sys.executable)
    return str(exe.relative_to(here)) if exe.is_relative_to(here) else str(exe)


def problem_arg(problem: Problem) -> str:
    """How to name the problem on a command line: its slug when it is one of ours, else its folder."""
    from problems.package import ROOT

    return problem.slug if problem.root.parent == ROOT else str(problem.root)


def _with_derived(report: Report, sizes: dict[str, int]) -> dict[str, int]:
    return _with_derived_of(report.problem, sizes)


def _with_derived_of(problem: Problem | None, sizes: dict[str, int]) -> dict[str, int]:
    if problem is None:
        return sizes
    try:
        return problem.dims(sizes)
    except Exception:
        return sizes


def _shorten(text: str, total_lines: int | None = None) -> str:
    """The first lines of the output; `total_lines` counts the whole output, not the kept part."""
    lines = text.splitlines()
    cut = "\n".join(lines[:OUTPUT_LINES])[:OUTPUT_CHARS]
    if len(cut) < len(text.rstrip("\n")) or total_lines is not None and total_lines > len(lines):
        cut += f"\n... ({max(total_lines or 0, len(lines))} lines in all, shortened)"
    return cut


def _time(t: TestResult, problem: Problem | None) -> str:
    """A test's CPU time; a TLE's over the limit is never rounded down onto it (1000.4 ms, not 1000)."""
    if t.verdict == Verdict.TLE and problem is not None and t.time_ms is not None and t.time_ms > problem.time_limit_ms:
        shown = over(t.time_ms, problem.time_limit_ms)
        return (f">{problem.time_limit_ms}" if shown.startswith("more") else shown) + " ms"
    return _ms(t.time_ms)


def _memory(t: TestResult, problem: Problem | None) -> str:
    """A test's peak memory; an MLE's over the limit is never rounded down onto it."""
    limit = problem.memory_limit_mb if problem is not None else None
    if t.verdict == Verdict.MLE and limit is not None and t.memory_mb is not None and t.memory_mb > limit:
        shown = over(t.memory_mb, limit, least=1)
        return (f">{limit}" if shown.startswith("more") else shown) + " MiB"
    return _mb(t.memory_mb)


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.0f} ms"


def _mb(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f} MiB"


def _err(v: float | None) -> str:
    return "-" if v is None else f"{v:.1e}"
