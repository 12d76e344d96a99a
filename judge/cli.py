"""`python -m judge FILE`: judge a submission file, or every bundled submission, like an online
judge; a judging of a user's file gets a hint or the reference's speed from the practice layer,
and goes into its history.

Exit status: 0 when the verdict is AC (with --bundled: every submission got its expected verdict),
1 otherwise, 2 for a usage error (missing file, unknown problem, no matching test) or a machine too
busy to judge a run (sandbox/errors.py, MachineBusy), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coach.record import enrich, record_report
from grading import report as render
from grading.session import judge_file
from grading.tests import select_tests
from problems import Problem, ProblemError, all_problems, load
from problems.bundled import bundled
from sandbox.errors import MachineBusy, SandboxUnavailable


class UsageError(Exception):
    """A mistake in the command line or its files: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise UsageError(message)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(
        prog="python -m judge",
        description="Judge a Solution file on a problem's stored tests (AC, WA, TLE, MLE, OLE, RE, CE).",
        epilog="other commands (python -m judge COMMAND --help): start, run, stress, list, history, editorial "
               "(practice); serve (the web page)",
    )
    parser.add_argument("submission", nargs="?", help="the .py file defining class Solution")
    parser.add_argument("--problem", help="problem slug, id or package folder (make problems lists them); default: "
                        "the problem whose method the Solution defines")
    parser.add_argument("--all", action="store_true", help="run every test instead of stopping at the first failure")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")
    parser.add_argument("--progress", action="store_true",
                        help="with --json: first one JSON line per test as it is judged ({\"event\": \"test\", ...}), "
                             "and the text report in the last object's \"text\"")
    parser.add_argument("--tests", nargs="+", action="extend", metavar="PATTERN",
                        help="only these tests: names, numbers (4 or 004) or globs like '*edge*'; several "
                        "patterns, comma-separated or not, add up")
    parser.add_argument("--hint", nargs="?", const=1, type=int, choices=(1, 2), metavar="LEVEL",
                        help="on a Wrong Answer: 1 names the statement step where your output goes wrong, "
                        "2 the bug (from the bundled wrong answers)")
    parser.add_argument("--bundled", action="store_true",
                        help="judge every bundled submission under solutions/ and compare with its folder's verdict")
    args = parser.parse_args(argv)
    if args.bundled == bool(args.submission):
        parser.error("give a submission file, or --bundled")
    if args.tests:
        args.tests = [p for pattern in args.tests for p in pattern.split(",") if p]
    return args


def main(argv: list[str] | None = None) -> int:
    """Exit 0 (AC), 1 (another verdict), 2 (a usage error: one line, or one JSON object with
    --json), 130 (interrupted: the sandbox is torn down first, nothing is left running)."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parse_args(argv)
        if args.bundled:
            return _bundled(args)
        return _single(args)
    except Exception as exc:
        if not _is_usage_error(exc):
            raise
        if "--json" in argv:
            print(json.dumps({"error": str(exc)}))
        else:
            print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _is_usage_error(exc: Exception) -> bool:
    return isinstance(exc, (UsageError, ProblemError, SandboxUnavailable, MachineBusy))


def _single(args: argparse.Namespace) -> int:
    """Judge one file; the practice layer adds a hint or the reference's speed before it is
    printed, and keeps it in the history after."""
    path = Path(args.submission)
    if path.is_dir():
        raise UsageError(f"{path}: is a directory; give the .py file that defines class Solution")
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    if args.progress and not args.json:
        raise UsageError("--progress goes with --json: its lines are JSON objects")
    problem = load(args.problem) if args.problem else None
    on_test = _progress if args.progress else None
    report = judge_file(path, problem, run_all=args.all, patterns=args.tests, keep_output=args.hint is not None,
                        on_test=on_test)
    enrich(report, args.hint)
    if args.progress:
        print(render.to_json(report, with_text=True))
    else:
        _print(report, args.json)
    sys.stdout.flush()
    record_report(report, path)
    return 0 if report.verdict == "AC" else 1


def _progress(report, result) -> None:
    print(json.dumps({"event": "test", "index": len(report.tests), "total": report.total,
                      **render.test_json(result)}), flush=True)


def _print(report, as_json: bool) -> None:
    if as_json:
        print(render.to_json(report))
    else:
        print(render.to_text(report, colour=sys.stdout.isatty()))


def _bundled(args: argparse.Namespace) -> int:
    """Every bundled submission, judged as a user's file is, as many at once as there are cores;
    rows are printed in order as soon as they are known."""
    problems: list[Problem] = [load(args.problem)] if args.problem else all_problems()
    colour = sys.stdout.isatty()
    jobs = [(problem, entry, select_tests(problem, None)) for problem in problems for entry in bundled(problem)]
    width = max((len(entry.label) for _, entry, _ in jobs), default=10)
    header = (f"{'problem':<8} {'submission':<{width}} {'expected':<9} {'obtained':<9} {'passed':>7} "
              f"{'slowest':>9}  first failing test")
    print(header)
    print("-" * len(header), flush=True)
    mismatches = busy = 0
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # each judging is its own sandbox
        futures = [pool.submit(judge_file, entry.path, problem, tests) for problem, entry, tests in jobs]
        for (problem, entry, _), future in zip(jobs, futures):
            try:
                report = future.result()
            except MachineBusy as exc:
                busy += 1
                print(f"{problem.slug:<8} {entry.label:<{width}} {entry.expected:<9} {'-':<9} ({exc})", flush=True)
                continue
            ok = report.verdict == entry.expected
            mismatches += not ok
            slowest = max((t.time_ms or 0 for t in report.tests), default=0)
            failure = report.first_failure
            print(f"{problem.slug:<8} {entry.label:<{width}} {entry.expected:<9} "
                  f"{render.paint(report.verdict, colour, 9)} {report.passed:>3}/{report.total:<3} "
                  f"{slowest:>6.0f} ms  {failure.name if failure else '-'}"
                  + ("" if ok else "   <-- expected " + entry.expected), flush=True)
    print()
    print(f"{len(jobs) - mismatches - busy} of {len(jobs)} bundled submissions got their expected verdict"
          + (f"; {busy} could not be judged: {MachineBusy.MESSAGE}" if busy else "") + ".")
    return 1 if mismatches else 2 if busy else 0
