"""What `python -m judge` does once its arguments are read: judge a user's file (with the
practice layer's hint, speed line and history), or every bundled submission."""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coach.record import enrich, record_report
from grading import report as render
from grading.judgement import Report, TestResult
from grading.session import Options, given, judge_file, stored
from grading.tests import select_tests
from problems import Problem, all_problems, load
from problems.bundled import bundled as bundled_of
from sandbox.errors import MachineBusy
from sandbox.sandbox import Sandbox


def judge_one(path: Path, problem: Problem | None, args: argparse.Namespace, sandbox: Sandbox) -> int:
    """Judge one file; the practice layer adds a hint or the reference's speed before it is
    printed, and keeps it in the history after."""
    report = judge_file(path, problem, Options(stored(args.tests), run_all=args.all, keep_output=args.hint is not None,
                                               on_test=_progress if args.progress else None, sandbox=sandbox))
    enrich(report, args.hint, args.lang)
    if args.progress:
        print(render.to_json(report, with_text=True))
    elif args.json:
        print(render.to_json(report))
    else:
        print(render.to_text(report, colour=sys.stdout.isatty()))
    sys.stdout.flush()
    if not args.no_record:
        record_report(report, path, kind="hint" if args.hint else "submit")  # a hint judging is no attempt
    return 0 if report.verdict == "AC" else 1


def _progress(report: Report, result: TestResult) -> None:
    print(json.dumps({"event": "test", "index": len(report.tests), "total": report.total,
                      **render.test_json(result, report.problem)}), flush=True)


def bundled(problem_name: str | None) -> int:
    """Every bundled submission, judged as a user's file is, as many at once as there are cores;
    rows are printed in order as soon as they are known."""
    problems = [load(problem_name)] if problem_name else all_problems()
    colour = sys.stdout.isatty()
    jobs = [(problem, entry, select_tests(problem, None)) for problem in problems for entry in bundled_of(problem)]
    width = max((len(entry.label) for _, entry, _ in jobs), default=10)
    header = (f"{'problem':<8} {'submission':<{width}} {'expected':<9} {'obtained':<9} {'passed':>7} "
              f"{'slowest':>9}  first failing test")
    print(header)
    print("-" * len(header), flush=True)
    mismatches = busy = 0
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # each judging is its own sandbox
        futures = [pool.submit(judge_file, entry.path, problem, Options(given(tests)))
                   for problem, entry, tests in jobs]
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
