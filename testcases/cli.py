"""Command line: regenerate, make one new test, or validate.

    python -m testcases all [--out-dir DIR]             every problem's tests and spec blocks (and, without
                                                        --out-dir, the README's table of problems)
    python -m testcases <problem> [--out-dir DIR]       one problem (slug, id or package folder)
    python -m testcases <problem> --new KEY=VALUE ...   one new test from a recipe on the command
                                                        line, printed as JSON (or --out FILE)
    python -m testcases validate [problem] [FILE ...]   check stored tests against problem.toml
                                                        (with --out-dir DIR: those in DIR/<slug>/tests)
    python -m testcases corners <problem> [--judge]     the corners of the constraints, whether a stored
                                                        test reaches each, and (--judge) how the reference
                                                        and the accepted files fare on each (testcases/corners.py)

A user error (unknown problem, impossible sizes, a recipe breaking problem.toml) is one line
`error: <file or thing>: <rule>` and exit status 2; validation failures exit 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from problems import Problem, ProblemError, all_problems, load
from problems.package import ROOT as PROBLEMS
from problems.package import shown
from testcases import corners
from testcases.generate import dump, generate, make_test, write_tests
from testcases.oracle import require_wide_longdouble
from testcases.recipes import load_recipes, load_variants, next_free_id, recipe_from_pairs
from testcases.render import LANGUAGES, apply_blocks, blocks_for, problems_table
from testcases.validate import validate_problem, validate_test


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, like every other user error
        raise ProblemError(f"command line: {message} (see python -m testcases --help)")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m testcases", description=__doc__.split("\n\n")[0],
                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("target", help="all, validate, corners, or a problem (slug, id or package folder; "
                                       "make problems lists them)")
    parser.add_argument("rest", nargs="*", help="for validate: [problem] [FILE ...]; for corners: the problem")
    parser.add_argument("--out-dir", type=Path, help="write DIR/<slug>/tests and DIR/<slug>/spec*.md instead of "
                                                     "the problem packages")
    parser.add_argument("--new", nargs="+", metavar="KEY=VALUE", help="make one test from this recipe")
    parser.add_argument("--out", type=Path, help="with --new: write the test here instead of stdout")
    parser.add_argument("--judge", action="store_true", help="with corners: judge the accepted files at each corner")
    argv = sys.argv[1:] if argv is None else argv
    try:
        if not argv:
            raise ProblemError("command line: say what to do: all, validate, or a problem "
                               "(see python -m testcases --help)")
        args = parser.parse_args(argv)
        if args.target == "validate":
            return _validate(args.rest, args.out_dir)
        if args.target == "corners":
            if len(args.rest) != 1:
                raise ProblemError("command line: corners takes one problem")
            return corners.main(load(args.rest[0]), args.judge)
        if args.rest:
            raise ProblemError(f"command line: unexpected '{args.rest[0]}'")
        require_wide_longdouble()
        if args.new:
            return _new(load(args.target), args.new, args.out)
        problems = all_problems() if args.target == "all" else [load(args.target)]
        for problem in problems:
            _regenerate(problem, args.out_dir)
        if args.out_dir is None and any(p.root.parent == PROBLEMS for p in problems):
            _render_readme()
        return 0
    except ProblemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _regenerate(problem: Problem, out_dir: Path | None) -> None:
    tests = generate(problem)
    root = out_dir / problem.slug if out_dir else problem.root
    size = write_tests(tests, root / "tests")
    stored = [(name, test.data) for name, test in tests]
    specs = [spec for lang, file in LANGUAGES.items()
             if (spec := _render_spec(problem, stored, lang, problem.root / file, root / file))]
    print(f"{problem.slug}: {len(tests)} tests, {size / 2**20:.2f} MiB in {shown(root / 'tests')}"
          + (f"; generated blocks of {', '.join(shown(s) for s in specs)}" if specs else ""))


def _render_readme() -> None:
    """The README's table of problems, from every package (a block like the statements' ones)."""
    readme = PROBLEMS.parent / "README.md"
    if not readme.is_file():
        return
    blocks = {"problems": problems_table(all_problems(), PROBLEMS.parent)}
    text = apply_blocks(readme.read_text(encoding="utf-8"), blocks, shown(readme))
    if text is not None and text != readme.read_text(encoding="utf-8"):
        readme.write_text(text, encoding="utf-8")
        print(f"generated the problems table of {shown(readme)}")


def _render_spec(problem: Problem, tests: list[tuple[str, dict]], lang: str, source: Path, target: Path) -> Path | None:
    """Rewrite the marked blocks of one statement into `target`; nothing when there is no file or marker."""
    if not source.is_file():
        return None
    text = apply_blocks(source.read_text(encoding="utf-8"), blocks_for(problem, tests, lang), shown(source))
    if text is None:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")
    return target


def _new(problem: Problem, pairs: list[str], out: Path | None) -> int:
    if out is not None and any(out.resolve().parent == p.tests_dir.resolve() for p in [problem, *all_problems()]):
        free = next_free_id([r.number for r in load_recipes(problem)])
        raise ProblemError(f"{shown(out)}: a problem's tests/ folder holds only tests made from its recipes.toml: "
                           f"add a [[test]] with id = {free} to {shown(problem.recipes_path)} "
                           "and run make testcases")
    test = make_test(problem, recipe_from_pairs(problem, pairs, load_variants(problem)))
    if out is None:
        sys.stdout.write(dump(test))
    else:
        out.write_text(dump(test), encoding="utf-8")
        print(f"{problem.slug}: wrote {shown(out)}")
    return 0


def _validate(rest: list[str], out_dir: Path | None) -> int:
    if not rest:
        problems, files = all_problems(), []
    else:
        problems, files = [load(rest[0])], [Path(f) for f in rest[1:]]
    messages: list[str] = []
    for problem in problems:
        folder = out_dir / problem.slug / "tests" if out_dir else problem.tests_dir
        found = [m for f in files for m in validate_test(problem, f)] if files else validate_problem(problem, folder)
        count = len(files) or len(list(folder.glob("*.json")))
        print(f"{problem.slug}: {count} tests, " + (f"{len(found)} violations" if found else "all valid"))
        messages += found
    for message in messages:
        print(message, file=sys.stderr)
    return 1 if messages else 0
