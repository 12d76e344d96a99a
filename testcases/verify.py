"""`python -m testcases.verify [PROBLEM ...]`: prove each problem package with its bundled submissions.

A problem is only trustworthy when its tests are valid, its expected outputs are the reference's,
its tests accept every correct solution and reject every wrong one, and its time limit separates
the intended solution from the slow one with room to spare. Kattis' verifyproblem and Polygon
prove exactly this; here, for every problem, in order:

1. every stored test passes the validator, and the package holds every package rule
   (testcases/package_rules.py: the sample first, every category, every size at its min and max,
   the largest input in a large test, extreme tests at the ends of the ranges, ties, the 8 MiB
   budget, current statements, a step for every wrong answer, an editorial approach for every
   accepted solution; problems/README.md lists them);
2. the reference reproduces every stored expected output within 1% of the tolerance, and, judged
   as a submission, is AC;
3. every accepted solution is AC, its slowest test within half the time limit in CPU time
   (Kattis' ac_to_time_limit 2; fastest of up to 3 judgings, as a shared machine only adds time,
   then of up to 2 more judged alone, no other worker of verify judging meanwhile); the reference
   too;
4. every wrong_answer solution gets WA (the table names the first test rejecting it); a test
   category that rejects none of them is reported as dead weight (a warning, not a failure);
5. every time_limit_exceeded solution is right on every test it finishes and over 1.5 times the
   time limit on at least one (Kattis' time_limit_to_tle; judged with the limit raised to 3x, for
   this check only, so that its distance past the limit shows);
6. every run_time_error solution gets RE, every memory_limit_exceeded one MLE under the package's
   own memory_limit_mb (any other folder: its own verdict);
7. the reference and every accepted solution peak at most half the memory limit on every test
   (an error with the figures: a limit that close would turn a correct solution into MLE on
   another machine or NumPy build).

The time and memory margins are package facts, so breaking one is a violation like a wrong verdict.
Closer margins are warnings, as Kattis' "sensitive to the time limit": the reference's slowest
test over a tenth of the limit in user CPU time, an accepted solution's over a fifth (a package
may set its own divisors in problem.toml's [verify] table), a too-slow solution's slowest test not
past twice the limit. Times are CPU times as the judge measures them; the judge's wall clock
leaves out the time a run waits for a CPU (sandbox/inside/clock.py).

It prints one table as it goes, warnings among its rows, and stops at the first violation with
one line naming the file and the rule: exit 1. Exit 0 when every rule holds (warnings or not), 2
for a usage error (unknown problem) or a machine still too busy to judge a run after BUSY_TRIES
judgings of that file (each "too busy" is a rerun, not a verdict).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from grading.judgement import Report, TestResult
from grading.session import Options, given, judge_file
from problems import Problem, ProblemError, all_problems, category_of, load, read_test
from problems.bundled import SOLUTIONS, Bundled, bundled
from problems.package import ROOT as PROBLEMS
from problems.package import shown
from sandbox.errors import MachineBusy
from testcases import oracle, package_rules, pressure, turns
from testcases.condition import CONDITION_FRACTION, in_tolerances, tolerance
from testcases.validate import validate_problem

AC_TO_TIME_LIMIT = 2  # Kattis: every accepted solution's slowest test within limit / 2 (else a violation)
TIME_LIMIT_TO_TLE = 1.5  # Kattis: every time_limit_exceeded solution past limit * 1.5 on some test
MEMORY_DIVISOR = 2  # the reference's and an accepted solution's peak memory: at most limit / 2
TIME_MULTIPLIER = 5  # a warning: an accepted solution's slowest test over limit / 5 of user time
MEASUREMENTS = 3  # judgings of an accepted solution over a budget before its times are final
ALONE_MEASUREMENTS = 2  # then, over half the limit still, judgings alone (no other worker's runs beside)
REFERENCE_TIME_DIVISOR = 10  # a warning: the reference's slowest test over limit / 10 of user time
SAFETY_MARGIN = 2  # a warning: a too-slow solution's slowest test not past limit * 2
BUSY_PRESSURE = 0.25  # a judging with a task waiting for a CPU this share of the time measures no margin
BUSY_TRIES = 3  # judgings of one file while the machine is too busy to judge its runs, before verify gives up
BUSY_PAUSE_S = 5.0  # between them, for the load to pass
SLOW_CUT = 3  # slow solutions are judged with limit * 3, so that a time past limit * 2 can show
REFERENCE_SHARE = CONDITION_FRACTION  # 1% of the tolerance: what the generator kept every test within
HEADER = (f"{'problem':<8} {'submission':<50} {'expected':<9} {'obtained':<9} {'slowest / limit':>16}  "
          "first failing test")


class Violation(Exception):
    """A rule the package breaks: one line naming the file and the rule."""


@dataclass
class Row:
    """One line of the table."""

    problem: str
    submission: str
    expected: str
    obtained: str
    slowest: str = "-"
    failing: str = "-"

    def __str__(self) -> str:
        return (f"{self.problem:<8} {self.submission:<50} {self.expected:<9} {self.obtained:<9} "
                f"{self.slowest:>16}  {self.failing}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testcases.verify",
                                     description="Prove each problem package with its bundled submissions.")
    parser.add_argument("problems", nargs="*", metavar="PROBLEM", help="slug, id or package folder (default: all)")
    parser.add_argument("--problems-dir", type=Path, default=PROBLEMS, metavar="DIR",
                        help="where the problem packages are")
    parser.add_argument("--solutions-dir", type=Path, default=SOLUTIONS, metavar="DIR",
                        help="where solutions/<slug>/<expected verdict>/*.py are")
    parser.add_argument("--jobs", type=int, default=0, metavar="N",
                        help="problems verified at once (default: one per core); times are CPU times either way")
    args = parser.parse_args(argv)
    try:
        problems = select(args.problems, args.problems_dir)
    except ProblemError as exc:
        print(f"verify: {exc}", file=sys.stderr)
        return 2
    print(HEADER)
    print("-" * len(HEADER), flush=True)
    jobs = min(args.jobs or os.cpu_count() or 1, len(problems))
    try:
        if jobs == 1:
            for problem in problems:
                verify_problem(problem, args.solutions_dir, show)
        else:
            _verify_in_parallel(problems, args.solutions_dir, jobs)
    except (Violation, ProblemError) as exc:
        print(f"verify: {exc}", file=sys.stderr)
        return 1
    except MachineBusy as exc:  # nothing was proved either way
        print(f"verify: {exc}", file=sys.stderr)
        return 2
    print(f"\nverify: {', '.join(p.slug for p in problems)}: every check holds.")
    return 0


def show(line: object) -> None:
    print(line, flush=True)


def _verify_in_parallel(problems: list[Problem], solutions: Path, jobs: int) -> None:
    """One process per problem at a time (each judging has its own sandbox anyway); every problem's
    rows are printed together, in the order the problems were named, as soon as its turn comes."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no threads or patched numpy inherited
    with tempfile.TemporaryDirectory(prefix="verify-") as folder, \
            ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=turns.share_with,
                                initargs=(Path(folder) / "turns",)) as pool:
        futures = [pool.submit(_verify_collected, problem, solutions) for problem in problems]
        try:
            for future in futures:
                lines, error, busy = future.result()
                for line in lines:
                    show(line)
                if busy:
                    raise MachineBusy(error)
                if error is not None:
                    raise Violation(error)
        finally:
            for future in futures:
                future.cancel()


def _verify_collected(problem: Problem, solutions: Path) -> tuple[list[str], str | None, bool]:
    """verify_problem in a worker: its rows as text, the message of what stopped it if anything,
    and whether that was a machine too busy to judge."""
    lines: list[str] = []
    try:
        verify_problem(problem, solutions, lambda line: lines.append(str(line)))
    except (Violation, ProblemError) as exc:
        return lines, str(exc), False
    except MachineBusy as exc:
        return lines, str(exc), True
    return lines, None, False


def select(names: list[str], folder: Path) -> list[Problem]:
    """The problems named (slug or id, any case, or a package folder), or every package in `folder`."""
    if names:
        return [load(name, folder) for name in names]
    known = all_problems(folder)
    if not known:
        raise ProblemError(f"{shown(folder)}: no problem packages (folders with problem.toml)")
    return known


def verify_problem(problem: Problem, solutions: Path, out: Callable[[object], None]) -> None:
    """The checks on one problem, in order; raises Violation at the first one broken."""
    check_tests(problem, out)
    check_package_rules(problem, solutions, out)
    check_reference(problem, out)
    entries = bundled(problem, solutions)
    if not any(e.expected == "AC" for e in entries):
        raise Violation(f"{shown(solutions / problem.slug / 'accepted')}: no accepted solution "
                        "(a package needs one to prove its tests and time limit)")
    rejecting: set[str] = set()  # the tests that reject at least one wrong_answer solution
    for entry in entries:
        report, warnings = CHECKS.get(entry.expected, check_other)(entry, problem)
        if entry.expected == "WA":
            rejecting |= {t.name for t in report.tests if t.verdict != "AC"}
        out(row(problem, entry, report))
        for warning in warnings:
            out(warning)
    wrong = sum(e.expected == "WA" for e in entries)
    if wrong:
        for warning in dead_weight(problem, rejecting, wrong):
            out(warning)


def check_tests(problem: Problem, out: Callable[[object], None]) -> None:
    """Rule 1: every stored test obeys problem.toml (the generator's own validator decides)."""
    messages = validate_problem(problem)
    if messages:
        more = f" (and {len(messages) - 1} more violations)" if len(messages) > 1 else ""
        raise Violation(f"{messages[0]}{more}")
    count = len(problem.test_files())
    out(Row(problem.slug, f"tests/ ({count} files)", "valid", "valid"))


def check_package_rules(problem: Problem, solutions: Path, out: Callable[[object], None]) -> None:
    """Rule 1 too: the package rules, checked on the stored data before anything is judged."""
    broken = package_rules.violations(problem, solutions)
    if broken:
        raise Violation(broken[0])
    out(Row(problem.slug, f"package rules ({len(package_rules.applicable(problem))})", "hold", "hold"))


def check_reference(problem: Problem, out: Callable[[object], None]) -> None:
    """Rule 2: reference.py reproduces every expected output within 1% of the tolerance.

    A stored value the reference no longer gives (a hand edit, a changed reference) would judge
    solutions against something else than the problem's own definition.
    """
    worst = 0.0
    for path in problem.test_files():
        case = read_test(problem, path)
        got = oracle.run(problem, case.input)
        expected = np.asarray(case.expected, dtype=np.float64)
        if got.shape != expected.shape:
            raise Violation(f"{shown(path)}: reference.py returns shape {got.shape} but the test "
                            f"stores expected of shape {expected.shape}")
        allowed = tolerance(problem, expected)
        with np.errstate(invalid="ignore"):
            share = in_tolerances(got - expected, allowed)
        share = np.where(np.isnan(share), np.inf, share)  # a non-finite result matches nothing
        if share.size == 0:
            continue
        index = np.unravel_index(int(np.argmax(share)), share.shape)
        if share[index] > REFERENCE_SHARE:
            where = "".join(f"[{i}]" for i in index)
            stored, ours = float(expected[index]), float(got[index])
            raise Violation(f"{shown(path)}: expected{where} = {stored!r} but reference.py gives "
                            f"{ours!r}: off by {abs(ours - stored):.3g}, more than "
                            f"{_percent(REFERENCE_SHARE)} of the tolerance ({REFERENCE_SHARE * allowed[index]:.3g})")
        worst = max(worst, float(share[index]))
    # Judged as a submission is, so that its time is measured exactly as theirs (one BLAS thread).
    report, warnings = _judged_within(Bundled(problem.reference_path, "AC"), problem,
                                      problem.reference_divisor or REFERENCE_TIME_DIVISOR, "reference's")
    out(Row(problem.slug, "reference.py", "<=1% tol", _percent(worst), _time(_slowest(report), problem)))
    for warning in warnings:
        out(warning)


def check_accepted(entry: Bundled, problem: Problem) -> tuple[Report, list[str]]:
    """Rule 3: AC on every test, the slowest within half the limit of CPU time (a violation), and
    a warning when its user CPU time is over limit / 5 (room for slower correct solutions and
    slower machines).

    The warning's margin is in user time, the solution's own work: system time here is mostly the
    kernel filling the pages a solution touches, whose cost a virtual machine's host varies
    (docs/tests.md); the limit and the violation count both. Other processes on the machine only
    ever add CPU time (shared caches and cores), so a solution over either budget is judged again,
    up to MEASUREMENTS runs in all, and each test keeps its fastest time: like timeit, the minimum
    is the solution's own cost.
    """
    return _judged_within(entry, problem, problem.accepted_divisor or TIME_MULTIPLIER, "accepted solution's")


def _judged_within(entry: Bundled, problem: Problem, divisor: int, whose: str) -> tuple[Report, list[str]]:
    """AC on every test within limit / AC_TO_TIME_LIMIT of CPU time, and a warning unless the
    slowest test's user CPU time is within limit / divisor, each test keeping its fastest time
    over up to MEASUREMENTS judgings (see check_accepted)."""
    limit = problem.time_limit_ms
    budget, half = limit / divisor, limit / AC_TO_TIME_LIMIT
    pressures: list[float | None] = []  # per judging: the share of it with a task waiting for a CPU
    report = _judge_measured(entry, problem, pressures)
    _require_verdict(entry, report, "AC")
    _require_memory_margin(entry, report, problem, whose)
    runs = 1
    while ((_slowest_user(report).user_ms or 0) > budget or (_slowest(report).time_ms or 0) > half) \
            and runs < MEASUREMENTS:
        _keep_fastest(report, _judge_measured(entry, problem, pressures), entry)
        runs += 1
    pressures.clear()  # the margin is decided by judgings alone, and their pressure
    for _ in range(ALONE_MEASUREMENTS if (_slowest(report).time_ms or 0) > half else 0):
        _keep_fastest(report, _judge_measured(entry, problem, pressures, alone=True), entry)
        runs += 1
        if (_slowest(report).time_ms or 0) <= half:
            break
    slowest = _slowest(report)
    measured = [p for p in pressures if p is not None]
    if (slowest.time_ms or 0) > half and len(measured) == len(pressures) and min(measured) > BUSY_PRESSURE:
        return report, [f"verify: warning: {shown(entry.path)}: the time margin was not measured: its slowest test "
                        f"{slowest.name} took {slowest.time_ms:.0f} ms of CPU time, more than half the {limit} ms "
                        f"limit, but other work kept a task waiting for a CPU {_percent(min(measured))} of the "
                        "time in each judging (Linux PSI), which inflates CPU times; run verify again on a "
                        "quieter machine"]
    if (slowest.time_ms or 0) > half:
        raise Violation(f"{shown(entry.path)}: the {whose} slowest test {slowest.name} took {slowest.time_ms:.0f} ms "
                        f"of CPU time (fastest of {runs} runs), more than half the {limit} ms limit: every "
                        "accepted solution must run within half of it (raise time_limit_ms or shrink the test)")
    slow = _slowest_user(report)
    if (slow.user_ms or 0) > budget:
        return report, [_sensitive(entry, f"{whose} slowest test {slow.name} took {slow.user_ms:.0f} ms of user CPU "
                                          f"time (fastest of {runs} runs), more than 1/{divisor} of the "
                                          f"{limit} ms limit")]
    return report, []


def _require_memory_margin(entry: Bundled, report: Report, problem: Problem, whose: str) -> None:
    """Rule 7: the peak memory of every test within half the package's memory limit."""
    top = max(report.tests, key=lambda t: t.memory_mb or 0)
    if (top.memory_mb or 0) > problem.memory_limit_mb / MEMORY_DIVISOR:
        raise Violation(f"{shown(entry.path)}: {whose} peak memory on test {top.name} was {top.memory_mb:.1f} MiB, "
                        f"more than 1/{MEMORY_DIVISOR} of the {problem.memory_limit_mb} MiB memory limit "
                        "(raise memory_limit_mb in problem.toml, or make it use less)")


def _judge(entry: Bundled, problem: Problem, run_all: bool = False, time_limit_ms: int | None = None,
           alone: bool = False) -> Report:
    """judge_file on every test, judged again while the machine is too busy to judge a run; alone:
    while no other worker of this verify run judges anything (testcases/turns.py)."""
    options = Options(given(problem.test_files()), run_all=run_all, time_limit_ms=time_limit_ms,
                      held_is_tle=time_limit_ms is not None and time_limit_ms > problem.time_limit_ms)
    for _ in range(BUSY_TRIES - 1):
        try:
            with turns.turn(alone):
                return judge_file(entry.path, problem, options)
        except MachineBusy:
            print(f"verify: note: {shown(entry.path)}: the machine was too busy to judge a run; judging it again",
                  file=sys.stderr, flush=True)
            time.sleep(BUSY_PAUSE_S)
    with turns.turn(alone):
        return judge_file(entry.path, problem, options)


def _keep_fastest(report: Report, again: Report, entry: Bundled) -> None:
    """Each test of `report` keeps the faster of its two times (both AC: every test measured)."""
    _require_verdict(entry, again, "AC")
    for test, retest in zip(report.tests, again.tests):
        test.time_ms = min(test.time_ms or 0, retest.time_ms or 0)
        test.user_ms = min(test.user_ms or 0, retest.user_ms or 0)


def _judge_measured(entry: Bundled, problem: Problem, pressures: list[float | None], alone: bool = False) -> Report:
    """_judge, noting in `pressures` how contended the machine was meanwhile."""
    stretch = pressure.Stretch()
    report = _judge(entry, problem, alone=alone)
    pressures.append(stretch.share())
    return report


def _sensitive(entry: Bundled, what: str) -> str:
    return f"verify: warning: {shown(entry.path)}: sensitive to the time limit: {what}"


def _slowest_user(report: Report) -> TestResult:
    return max(report.tests, key=lambda t: t.user_ms or 0)


def _slowest(report: Report) -> TestResult:
    return max(report.tests, key=lambda t: t.time_ms or 0)


def check_wrong(entry: Bundled, problem: Problem) -> tuple[Report, list[str]]:
    """Rule 4: WA, judged on every test so that each test's rejections can be counted."""
    report = _judge(entry, problem, run_all=True)
    _require_verdict(entry, report, "WA")
    return report, []


def check_slow(entry: Bundled, problem: Problem) -> tuple[Report, list[str]]:
    """Rule 5: right on every test it finishes, and past 1.5 times the limit on one (a violation
    otherwise); a warning unless past twice the limit there.

    It is judged with the limit raised to 3x (a run at the real limit is cut before it can show
    2x); every test is run, so a wrong result on any test it finishes is found.
    """
    limit = problem.time_limit_ms
    report = _judge(entry, problem, run_all=True,
                     time_limit_ms=limit * SLOW_CUT)
    wrong = next((t for t in report.tests if t.verdict not in ("AC", "TLE")), None)
    if wrong is not None or report.verdict not in ("AC", "TLE"):
        where = f"{wrong.verdict} on test {wrong.name} ({wrong.message})" if wrong else \
            f"{report.verdict} ({report.message})"
        raise Violation(f"{shown(entry.path)}: time_limit_exceeded solution got {where}; it must be "
                        "right on every test it finishes")
    slow = _slowest(report)
    if (slow.time_ms or 0) <= limit:
        raise Violation(f"{shown(entry.path)}: time_limit_exceeded solution got AC: its slowest test {slow.name} "
                        f"took {slow.time_ms:.0f} ms of CPU time, within the {limit} ms limit")
    if (slow.time_ms or 0) <= TIME_LIMIT_TO_TLE * limit:
        raise Violation(f"{shown(entry.path)}: time_limit_exceeded solution's slowest test {slow.name} took "
                        f"{slow.time_ms:.0f} ms of CPU time, not more than {TIME_LIMIT_TO_TLE:g} times the {limit} ms "
                        "limit: a solution filed as too slow must be well past it (lower time_limit_ms or "
                        "grow the test)")
    if (slow.time_ms or 0) <= SAFETY_MARGIN * limit:
        return report, [_sensitive(entry, f"time_limit_exceeded solution's slowest test {slow.name} took "
                                          f"{slow.time_ms:.0f} ms, not more than {SAFETY_MARGIN} times the "
                                          f"{limit} ms limit")]
    return report, []


def check_other(entry: Bundled, problem: Problem) -> tuple[Report, list[str]]:
    """Rule 6 (run_time_error), and any other folder: the verdict its folder names."""
    report = _judge(entry, problem)
    _require_verdict(entry, report, entry.expected)
    return report, []


CHECKS: dict[str, Callable[[Bundled, Problem], tuple[Report, list[str]]]] = {
    "AC": check_accepted, "WA": check_wrong, "TLE": check_slow,
}


def _require_verdict(entry: Bundled, report: Report, wanted: str) -> None:
    if report.verdict == wanted:
        return
    folder = entry.path.parent.name
    failure = report.first_failure
    if report.verdict == "AC":
        got = f"AC on all {report.total} tests"
        if wanted == "WA":
            got += " (no test rejects it)"
    elif failure is not None:
        got = f"{report.verdict} on test {failure.name} ({failure.message})"
    else:
        got = f"{report.verdict} ({report.message})"
    raise Violation(f"{shown(entry.path)}: {folder} solution got {got}, expected {wanted}")


def row(problem: Problem, entry: Bundled, report: Report) -> Row:
    """The table line of a judged submission; a slow one shows its verdict under the real limit."""
    limit = problem.time_limit_ms
    slowest = max((t.time_ms or 0 for t in report.tests), default=0.0)
    obtained: str = report.verdict
    failure = report.first_failure
    failing = failure.name if failure else "-"
    shown_time = f"{slowest:.0f} ms"
    if entry.expected == "AC":  # the time rule 3 checks: CPU time, fastest of the runs made
        shown_time = _time(_slowest(report), problem)
    if entry.expected == "TLE":
        over = [t for t in report.tests if (t.time_ms or 0) > limit]
        obtained = "TLE" if over else "AC"
        failing = over[0].name if over else "-"
        shown_time = f">{SLOW_CUT:.2f}x" if report.verdict == "TLE" else _time(_slowest(report), problem)
    elif entry.expected == "WA":
        count = sum(t.verdict != "AC" for t in report.tests)
        failing += f" (+{count - 1} more)" if count > 1 else ""
    return Row(problem.slug, entry.label, entry.expected, obtained, shown_time, failing)


def _time(test: TestResult, problem: Problem) -> str:
    """A test's CPU time and its share of the limit: the figures the Kattis margins are about."""
    return f"{test.time_ms or 0:.0f} ms {(test.time_ms or 0) / problem.time_limit_ms:.2f}x"


def dead_weight(problem: Problem, rejecting: set[str], wrong: int) -> list[str]:
    """Warnings for test categories that reject none of the wrong solutions.

    Such tests cost judging time without telling any known mistake from the right answer; they
    may still guard against a mistake nobody has bundled yet, so this is a warning only.
    """
    categories: dict[str, list[str]] = {}
    for path in problem.test_files():  # rule 1 has held file names equal to categories
        categories.setdefault(category_of(path), []).append(path.stem)
    warnings = []
    for category, names in categories.items():
        if rejecting.isdisjoint(names):
            warnings.append(f"verify: warning: {shown(problem.tests_dir)}: category '{category}' "
                            f"({', '.join(names)}) rejects none of the {wrong} wrong_answer solutions: "
                            "dead weight")
    return warnings


def _percent(share: float) -> str:
    return f"{share * 100:.2g}%" if share < 0.1 else f"{share * 100:,.0f}%"


if __name__ == "__main__":
    sys.exit(main())
