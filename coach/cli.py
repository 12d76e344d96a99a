"""`python -m judge start | list | history`, and the recording of every judging of a user's file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from coach import history
from coach.starter import write_starter
from judge.judging import MAX_SOURCE_BYTES, Report
from problems import ProblemError, all_problems, load
from problems.package import shown

COMMANDS = ("start", "list", "history")
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
    args = parser.parse_args(argv)
    try:
        return {"start": _start, "list": _list, "history": _history}[args.command](args)
    except (ProblemError, history.HistoryError) as exc:
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
    print(f"{'time (UTC)':<25} {'problem':<8} {'verdict':<7} {'passed':>7}  {'first failing':<16} "
          f"{'slowest':>8} {'memory':>10}  file")
    for r in rows:
        slowest = f"{r.slowest_ms:.0f} ms" if r.slowest_ms is not None else "-"
        memory = f"{r.peak_mb:.1f} MiB" if r.peak_mb is not None else "-"
        print(f"{r.time:<25} {r.problem:<8} {r.verdict:<7} {r.passed:>3}/{r.total:<3}  {r.first_failing or '-':<16} "
              f"{slowest:>8} {memory:>10}  {r.path}")
    return 0


def record_report(report: Report, path: Path) -> None:
    """Keep a judging of the user's file in the history; a failure there costs one line, never
    the verdict (which has been printed already)."""
    if report.problem is None:
        return
    try:
        with open(path, "rb") as f:
            source = f.read(MAX_SOURCE_BYTES + 1)
        history.record(history.judging_of(report, source))
    except (OSError, history.HistoryError) as exc:
        print(f"note: the history could not be written ({exc}); the verdict above stands", file=sys.stderr)
