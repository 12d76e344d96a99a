"""`python -m judge start | list | history`, and the recording of every judging of a user's file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from coach import history
from coach.run import run_file, side_by_side
from coach.starter import write_starter
from judge import report as render
from judge.judging import MAX_SOURCE_BYTES, Report
from judge.sandbox import SandboxUnavailable
from problems import ProblemError, all_problems, load
from problems.package import shown

COMMANDS = ("start", "list", "history", "run")
PRACTICE = Path("practice")  # the user's own files (gitignored)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge", description="Practise: starter files, "
                                     "your problem list and your history of judgings.")
    sub = parser.add_subparsers(dest="command", required=True)
    start = sub.add_parser("start", help="write a starter file for a problem (never over an existing one)")
    start.add_argument("problem", help="slug or id: gqa, P4497, mha, mqa")
    start.add_argument("--out", type=Path, help="where (default practice/<slug>.py)")
    sub.add_parser("list", help="every problem with your status, attempts, best time and last verdict")
    hist = sub.add_parser("history", help="your judgings, oldest first")
    hist.add_argument("problem", nargs="?", help="only this problem")
    hist.add_argument("--json", action="store_true", help="one JSON array")
    run = sub.add_parser("run", help="run a file on the sample, or on your own input, beside the reference")
    run.add_argument("file", type=Path)
    run.add_argument("--problem", help="slug or id; default: the problem whose method the file defines")
    run.add_argument("--input", type=Path, help='your case: a JSON file {"input": {argument: value, ...}}')
    run.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    try:
        return {"start": _start, "list": _list, "history": _history, "run": _run}[args.command](args)
    except (ProblemError, history.HistoryError, SandboxUnavailable) as exc:
        if getattr(args, "json", False):
            print(json.dumps({"error": str(exc)}))
        else:
            print(f"error: {exc}", file=sys.stderr)
        return 2


def _start(args: argparse.Namespace) -> int:
    problem = load(args.problem)
    target = args.out or PRACTICE / f"{problem.slug}.py"
    try:
        write_starter(problem, target)
    except FileExistsError:
        raise ProblemError(f"{target}: already exists; starter files never overwrite (judge it with "
                           f"make judge SOL={target}, or choose another --out)") from None
    except OSError as exc:
        raise ProblemError(f"{target}: cannot write ({exc.strerror})") from None
    print(f"wrote {shown(target)}: the class and method of {problem.slug}, raising NotImplementedError.")
    print(f"read {shown(problem.spec_path)}, fill it in, then: make judge SOL={shown(target)}")
    return 0


def _list(args: argparse.Namespace) -> int:
    past = history.judgings()
    header = (f"{'id':<7} {'slug':<6} {'title':<34} {'difficulty':>10}  {'status':<7} {'attempts':>8} "
              f"{'best on largest':>15}  last verdict")
    print(header)
    print("-" * len(header))
    for problem in all_problems():
        mine = [j for j in past if j.problem == problem.slug and j.kind == "submit"]
        solved = any(j.verdict == "AC" for j in mine)
        status = "solved" if solved else "tried" if mine else "new"
        times = [j.largest_ms for j in mine if j.verdict == "AC" and j.largest_ms is not None]
        best = f"{min(times):.0f} ms" if times else "-"
        difficulty = str(problem.difficulty) if problem.difficulty else "-"
        print(f"{problem.id:<7} {problem.slug:<6} {problem.title[:34]:<34} {difficulty:>10}  {status:<7} "
              f"{len(mine):>8} {best:>15}  {mine[-1].verdict if mine else '-'}")
    return 0


def _history(args: argparse.Namespace) -> int:
    slug = load(args.problem).slug if args.problem else None
    rows = history.judgings(slug)
    if args.json:
        print(json.dumps([r.as_dict() for r in rows]))
        return 0
    if not rows:
        print("no judgings yet" + (f" of {slug}" if slug else "") + f" (history: {shown(history.database())})")
        return 0
    print(f"{'time (UTC)':<25} {'kind':<6} {'problem':<8} {'verdict':<7} {'passed':>7}  {'first failing':<16} "
          f"{'slowest':>8} {'memory':>10}  file")
    for r in rows:
        slowest = f"{r.slowest_ms:.0f} ms" if r.slowest_ms is not None else "-"
        memory = f"{r.peak_mb:.1f} MiB" if r.peak_mb is not None else "-"
        print(f"{r.time:<25} {r.kind:<6} {r.problem:<8} {r.verdict:<7} {r.passed:>3}/{r.total:<3}  {r.first_failing or '-':<16} "
              f"{slowest:>8} {memory:>10}  {r.path}")
    return 0


def _run(args: argparse.Namespace) -> int:
    if not args.file.is_file():
        raise ProblemError(f"{args.file}: no such file")
    problem = load(args.problem) if args.problem else None
    report, expected = run_file(args.file, problem, args.input)
    test = report.tests[0] if report.tests else None
    if args.json:
        print(json.dumps({
            "problem": report.problem.slug if report.problem else None, "verdict": report.verdict,
            "message": report.message, "input": "sample" if args.input is None else str(args.input),
            "output": test.got.tolist() if test is not None and test.got is not None else None,
            "expected": expected.tolist() if expected is not None else None,
        }))
    else:
        print(render.to_text(report, colour=sys.stdout.isatty()))
        if test is not None and expected is not None and report.problem is not None:
            print()
            print("Your output next to the reference's:")
            print("\n".join(side_by_side(test.got, expected, report.problem.abs_tol, report.problem.rel_tol)))
    sys.stdout.flush()
    record_report(report, args.file, kind="run")
    return 0 if report.verdict == "AC" else 1


def record_report(report: Report, path: Path, kind: str = "submit") -> None:
    """Keep a judging of the user's file in the history; a failure there costs one line, never
    the verdict (which has been printed already)."""
    if report.problem is None:
        return
    try:
        with open(path, "rb") as f:
            source = f.read(MAX_SOURCE_BYTES + 1)
        history.record(history.judging_of(report, source, kind))
    except (OSError, history.HistoryError) as exc:
        print(f"note: the history could not be written ({exc}); the verdict above stands", file=sys.stderr)
