"""`python -m judge start | list | history | run | editorial | stress`: the practice commands."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import textwrap
import unicodedata
from pathlib import Path

import numpy as np

from coach import COMMANDS, history
from coach.editorial import editorial
from coach.record import record_report
from coach.run import run_file, run_json, side_by_side
from coach.starter import write_starter
from coach.stress import stress
from grading import report as render
from grading.session import problem_of
from problems import ProblemError, all_problems, load
from problems.editorial import LANGUAGES
from problems.package import by_difficulty, shown
from sandbox.errors import MachineBusy, SandboxUnavailable

CHECKOUT = Path(__file__).resolve().parent.parent
PRACTICE = CHECKOUT / "practice"  # the user's own files (gitignored), wherever the command is run from


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m judge", description="Practise: starter files, "
                                     "your problem list and your history of judgings.")
    sub = parser.add_subparsers(dest="command", required=True)
    start = sub.add_parser("start", help=COMMANDS["start"])
    start.add_argument("problem", help="slug or id (make problems lists them)")
    start.add_argument("--out", type=Path, help="where (default practice/<slug>.py)")
    listing = sub.add_parser("list", help=COMMANDS["list"])
    listing.add_argument("--tag", action="append", default=[], help="only problems with this tag (repeat: all of them)")
    hist = sub.add_parser("history", help=COMMANDS["history"])
    hist.add_argument("problem", nargs="?", help="only this problem")
    hist.add_argument("--json", action="store_true", help="one JSON array")
    run = sub.add_parser("run", help=COMMANDS["run"])
    run.add_argument("file", type=Path)
    run.add_argument("--problem", help="slug or id; default: the problem whose method the file defines")
    run.add_argument("--input", type=Path, help='your case: a JSON file {"input": {argument: value, ...}}')
    run.add_argument("--json", action="store_true", help="one JSON object")
    run.add_argument("--no-record", action="store_true", help="leave the run out of your practice history")
    editorial = sub.add_parser("editorial", help=COMMANDS["editorial"])
    editorial.add_argument("problem", help="slug or id")
    editorial.add_argument("--force", action="store_true", help="show them before you have an AC")
    editorial.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the prose (zh: 中文)")
    stress_ = sub.add_parser("stress", help=COMMANDS["stress"])
    stress_.add_argument("file", type=Path)
    stress_.add_argument("--problem", help="slug or id; default: the problem whose method the file defines")
    stress_.add_argument("--n", type=int, default=200, help="how many inputs (default 200)")
    stress_.add_argument("--seed", type=int, default=0, help="the same seed draws the same inputs (default 0)")
    stress_.add_argument("--out", type=Path,
                         help="where to save a counterexample (default practice/<slug>-counterexample.json)")
    stress_.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    try:
        return {"start": _start, "list": _list, "history": _history, "run": _run,
                "editorial": _editorial, "stress": _stress}[args.command](args)
    except (ProblemError, history.HistoryError, SandboxUnavailable, MachineBusy) as exc:
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
        raise ProblemError(f"{shown(target)}: already exists; starter files never overwrite (judge it with "
                           f"{judge_command(target)}, or choose another --out)") from None
    except OSError as exc:
        raise ProblemError(f"{shown(target)}: cannot write ({exc.strerror})") from None
    print(f"wrote {shown(target)}: the class and method of {problem.slug}, raising NotImplementedError.")
    print(f"read {shown(problem.spec_path)}, fill it in, then: {judge_command(target)}")
    return 0


def judge_command(target: Path) -> str:
    """The command that judges `target` from here: make's in the checkout, else this interpreter's."""
    if Path.cwd().resolve() == CHECKOUT:
        return f"make judge SOL={shown(target)}"
    return shlex.join([sys.executable, "-m", "judge", str(target.resolve())])


def _list(args: argparse.Namespace) -> int:
    everything = by_difficulty(all_problems())
    problems = [p for p in everything if set(args.tag) <= set(p.tags)]
    if not problems:
        known = sorted({t for p in everything for t in p.tags})
        raise ProblemError(f"no problem has the tag{'s' if len(args.tag) > 1 else ''} {', '.join(args.tag)} "
                           f"(tags: {', '.join(known) or 'none'})")
    past = history.judgings()
    titles = {p.slug: " / ".join([p.title, *p.titles.values()]) for p in problems}
    width = max([_width(t) for t in titles.values()] + [5])
    slug_width = max([len(p.slug) for p in problems] + [4])
    tags = {p.slug: ",".join(p.tags) or "-" for p in problems}
    tag_width = max([len(t) for t in tags.values()] + [4])
    header = (f"{'id':<7} {'slug':<{slug_width}} {_pad('title', width)} {'tags':<{tag_width}} {'difficulty':>10}  "
              f"{'status':<7} {'attempts':>8} {'best on largest':>15}  last verdict")
    print(header)
    print("-" * _width(header))
    for problem in problems:
        mine = history.standing(problem.slug, past, len(problem.test_files()))
        best = f"{mine['best_ms']:.0f} ms" if mine["best_ms"] is not None else "-"
        difficulty = str(problem.difficulty) if problem.difficulty else "-"
        print(f"{problem.id:<7} {problem.slug:<{slug_width}} {_pad(titles[problem.slug], width)} "
              f"{tags[problem.slug]:<{tag_width}} {difficulty:>10}  {mine['status']:<7} {mine['attempts']:>8} "
              f"{best:>15}  {mine['last_verdict'] or '-'}")
    return 0


def _width(text: str) -> int:
    """Columns on a terminal: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


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
        print(f"{r.time:<25} {r.kind:<6} {r.problem:<8} {r.verdict:<7} {r.passed:>3}/{r.total:<3}  "
              f"{r.first_failing or '-':<16} {slowest:>8} {memory:>10}  {r.path}")
    return 0


def _run(args: argparse.Namespace) -> int:
    if not args.file.is_file():
        raise ProblemError(f"{args.file}: no such file")
    problem = load(args.problem) if args.problem else None
    report, expected = run_file(args.file, problem, args.input)
    test = report.tests[0] if report.tests else None
    if args.json:
        print(json.dumps(run_json(report, expected, "sample" if args.input is None else str(args.input))))
    else:
        print(render.to_text(report, colour=sys.stdout.isatty()))
        if test is not None and expected is not None and report.problem is not None:
            print()
            print("Your output next to the reference's:")
            print("\n".join(side_by_side(test.got, expected, report.problem.abs_tol, report.problem.rel_tol,
                                          report.problem.interactive)))
    sys.stdout.flush()
    if not args.no_record:
        record_report(report, args.file, kind="run")
    return 0 if report.verdict == "AC" else 1


def _editorial(args: argparse.Namespace) -> int:
    """Spoiler-free: the accepted solutions only once the history holds an AC on the full test set
    (or --force)."""
    problem = load(args.problem)
    found = editorial(problem, args.force)
    if not found.open:
        print(f"{found.message.removesuffix('; try a hint first.')}; try a hint first (python -m judge FILE "
              f"--hint), or see them anyway with: python -m judge editorial {problem.slug} --force")
        return 1
    words = EDITORIAL_WORDS[args.lang]
    print(found.message + "\n")
    if found.idea:
        print(_paragraph(words["idea"] + found.idea[args.lang], args.lang) + "\n")
    for solution in found.solutions:
        print(f"==== {solution.path}")
        if solution.prose:
            print(f"{words['time']} {solution.time} · {words['memory']} {solution.memory}")
            print(_paragraph(solution.prose[args.lang], args.lang) + "\n")
        print(solution.source.rstrip())
        print()
    return 0


EDITORIAL_WORDS = {"en": {"idea": "The idea: ", "time": "time", "memory": "memory"},
                   "zh": {"idea": "思路：", "time": "时间", "memory": "内存"}}


def _paragraph(text: str, lang: str) -> str:
    """Prose for a terminal: the statements' $...$ math marks dropped, English wrapped at 100 columns
    (Chinese has no spaces to wrap at: the terminal wraps it)."""
    plain = re.sub(r"\\sqrt\{([^}]*)\}", r"√\1", re.sub(r"\$([^$]+)\$", r"\1", text))
    plain = plain.replace("\\cdot", "·").replace("\\le ", "≤ ")
    return textwrap.fill(plain, 100, break_on_hyphens=False) if lang == "en" else plain


def _stress(args: argparse.Namespace) -> int:
    if not args.file.is_file():
        raise ProblemError(f"{args.file}: no such file")
    if args.n < 1:
        raise ProblemError(f"--n {args.n}: give at least one input")
    problem = load(args.problem) if args.problem else problem_of(args.file)
    if problem is None:
        raise ProblemError(f"{args.file}: does not compile; judge it to see why")
    found = stress(args.file, problem, args.n, args.seed)
    saved = None
    if found.case is not None:
        saved = args.out or PRACTICE / f"{problem.slug}-counterexample.json"
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_text(json.dumps({"input": found.case.input}) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps({"found": found.case is not None, "tried": found.tried,
                          "case": {"input": found.case.input} if found.case else None, "sizes": found.sizes,
                          "verdict": found.verdict or None, "saved": str(saved) if saved else None}))
        return 1 if found.case else 0
    if found.case is None:
        print(f"{problem.slug}: no disagreement with the reference in {found.tried} small random inputs "
              f"(seed {args.seed}). A stress test can only find bugs, not prove there are none.")
        return 0
    assert found.sizes is not None and saved is not None  # with the case
    sizes = ", ".join(f"{k} = {v}" for k, v in problem.dims(found.sizes).items())
    print(f"{problem.slug}: input {found.tried} disagrees with the reference ({found.verdict}); shrunk to {sizes}:\n")
    for name, value in found.case.input.items():
        print(f"  {name} = {json.dumps(value)}")
    print(f"\n  {render.escaped(found.message)}\n")
    expected = np.asarray(found.case.expected, dtype=np.float64)
    print("\n".join(side_by_side(found.got, expected, problem.abs_tol, problem.rel_tol, problem.interactive)))
    print(f"\nsaved as {shown(saved)}; rerun it: .venv/bin/python -m judge run {shown(args.file)} "
          f"--problem {render.problem_arg(problem)} --input {shown(saved)}")
    return 1
