"""`python -m judge FILE`: judge a submission file, or every bundled submission, like an online
judge (judge/commands.py). Only the arguments are read here: the judging's modules (numpy among
them) are imported once the file's sandbox is started, and load while it boots.

Exit status: 0 when the verdict is AC (with --bundled: every submission got its expected verdict),
1 otherwise, 2 for a usage error (missing file, unknown problem, no matching test) or a machine too
busy to judge a run (sandbox/errors.py, MachineBusy), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from problems import ProblemError, load
from sandbox.errors import MachineBusy, SandboxUnavailable
from sandbox.sandbox import submission_sandbox


class UsageError(Exception):
    """A mistake in the command line or its files: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise UsageError(message)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(
        prog="python -m judge",
        usage="python -m judge FILE [options]  (judge a file)\n"
              "       python -m judge --bundled [--problem PROBLEM]\n"
              "       python -m judge COMMAND ...  (" + ", ".join(_commands()) + ")",
        description="Judge a Solution file on a problem's stored tests (AC, WA, TLE, MLE, OLE, RE, CE).",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    parser.add_argument("--lang", choices=("en", "zh"), default="en",
                        help="the language of the hint's sentences (the statement's step titles with them)")
    parser.add_argument("--no-record", action="store_true",
                        help="leave the judging out of your practice history (files under solutions/ never go in)")
    parser.add_argument("--bundled", action="store_true",
                        help="judge every bundled submission under solutions/ and compare with its folder's verdict "
                        "(nothing is recorded)")
    args = parser.parse_args(argv)
    if args.bundled == bool(args.submission):
        parser.error("give a submission file, or --bundled")
    if args.tests:
        args.tests = [p for pattern in args.tests for p in pattern.split(",") if p]
    return args


def _commands() -> dict[str, str]:
    """The commands judge/routes.py hands elsewhere, with their one-line help."""
    from judge.routes import listed

    return listed()


def _epilog() -> str:
    commands = _commands()
    width = max(map(len, commands))
    return "commands (python -m judge COMMAND --help for each):\n" + "\n".join(
        f"  {name:<{width}}  {text}" for name, text in commands.items())


def main(argv: list[str] | None = None) -> int:
    """Exit 0 (AC), 1 (another verdict), 2 (a usage error: one line, or one JSON object with
    --json), 130 (interrupted: the sandbox is torn down first, nothing is left running)."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parse_args(argv)
        if args.bundled:
            from judge.commands import bundled

            return bundled(args.problem)
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
    path = Path(args.submission)
    if path.is_dir():
        raise UsageError(f"{path}: is a directory; give the .py file that defines class Solution")
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    if args.progress and not args.json:
        raise UsageError("--progress goes with --json: its lines are JSON objects")
    problem = load(args.problem) if args.problem else None
    with submission_sandbox(path) as sandbox:  # it boots while the judging's modules load
        from judge.commands import judge_one

        return judge_one(path, problem, args, sandbox)
