"""The corners of a problem's constraints, and how the accepted solutions fare on them.

A judge's tests include the largest legal input in each direction that costs time or memory
differently (long T with few heads, many heads with short T, each product bound at its edge), so
what the statement allows is what the judge checks. The corners here are the size assignments
that hold every rule of problem.toml and that no other legal assignment exceeds in every size and
derived size (the Pareto-maximal ones), each size drawn from its ends, the powers of two and its
max halved. A corner too large for a stored test (package rule 10) can only be ruled out by a bound.

    python -m testcases corners <problem>            list the corners and whether the stored tests
                                                      reach them
    python -m testcases corners <problem> --judge    also judge the reference and every accepted file
                                                      on a drawn input at each storable corner
"""

from __future__ import annotations

import itertools
import json
import math
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from grading.judgement import Report
from grading.session import Options, given, judge_file
from problems import Problem, ProblemError, read_test
from problems.bundled import Bundled, bundled
from problems.expr import names
from sandbox.errors import MachineBusy, SandboxUnavailable
from testcases import oracle
from testcases.draw import draw_input
from testcases.generate import MAX_ATTEMPTS, seed_for
from testcases.recipes import (
    CATEGORIES,
    Recipe,
    categories,
    load_recipes,
    load_variants,
    parse_recipe,
    recipe_from_pairs,
)

STORED_BYTES = 8 << 20  # package rule 10: all of a package's stored tests, so a corner's test at most
BYTES_PER_NUMBER = 6  # about what a drawn number takes in a stored test's JSON (gqa_decode's 020: 6.3)
RUNS = 3  # judgings of a file over half the limit at a corner; each test keeps its fastest


@dataclass(frozen=True)
class Corner:
    """One corner: its sizes, the numbers a test of them stores, and the stored test reaching it."""

    sizes: dict[str, int]
    numbers: int
    reached_by: str | None  # the stored test with every size at least this corner's, if any

    @property
    def storable(self) -> bool:
        return self.numbers * BYTES_PER_NUMBER <= STORED_BYTES

    def label(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.sizes.items())


def candidates(low: int, high: int) -> list[int]:
    """The values a size takes at corners: its ends, the powers of two between them and its max
    halved (T = 640 beside 1280)."""
    values = {low, high} | {1 << k for k in range(high.bit_length()) if low <= 1 << k <= high}
    return sorted(values | {high >> k for k in range(1, high.bit_length()) if low <= high >> k})


def corner_sizes(problem: Problem) -> list[dict[str, int]]:
    """The legal size assignments over the candidate values that no other one exceeds in every
    size and derived size (so one wide head and many narrow ones are both corners), largest first.
    A size no rule or derived size names is at its max in every corner."""
    tied = set().union(*(names(r.expr) for r in problem.rules), *(names(e) for e in problem.derived.values()))
    free = {n: s.max for n, s in problem.sizes.items() if n not in tied}
    varied = [n for n in problem.sizes if n in tied]
    grid = [candidates(problem.sizes[n].min, problem.sizes[n].max) for n in varied]
    legal = []
    for combo in itertools.product(*grid):
        sizes = {**free, **dict(zip(varied, combo))}
        if not problem.size_violations(sizes):
            dims = problem.dims(sizes)
            legal.append((sizes, [dims[n] for n in varied] + [dims[n] for n in problem.derived]))
    if not legal:
        return []
    # Largest sum first: a point's dominators come before it, and one is kept or below a kept one.
    legal.sort(key=lambda pair: -sum(pair[1]))
    kept = np.empty((0, len(legal[0][1])), dtype=np.int64)
    found = []
    for sizes, point in legal:
        if not np.any(np.all(kept >= np.array(point), axis=1)):
            kept = np.vstack([kept, point])
            found.append({n: sizes[n] for n in problem.sizes})
    return sorted(found, key=lambda s: (-_numbers(problem, s), list(s.values())))


def _numbers(problem: Problem, sizes: dict[str, int]) -> int:
    """How many numbers a test of these sizes stores: every array argument and the output."""
    dims = problem.dims(sizes)
    count = math.prod(problem.output_shape_for(dims))
    for arg in problem.args:
        if arg.size is None and not arg.is_scalar:
            count += math.prod(problem.shape_of(arg, dims))
    return count


def corners(problem: Problem) -> list[Corner]:
    """Every corner, with the stored test (if any) whose sizes reach it in every direction."""
    stored = [(path.stem, problem.sizes_of(read_test(problem, path).input)) for path in problem.test_files()]
    found = []
    for sizes in corner_sizes(problem):
        reached = next((name for name, have in stored
                        if all(have.get(k, -math.inf) >= v for k, v in sizes.items())), None)
        found.append(Corner(sizes, _numbers(problem, sizes), reached))
    return found


def corner_test(problem: Problem, sizes: dict[str, int]) -> dict:
    """A test drawn at these sizes with the options of the package's largest drawn large test (its
    value scales and grids), or the defaults where they do not fit; expected is the reference's
    (float64), redrawn like the generator's while it has no single answer."""
    recipe = _like_largest(problem, sizes)
    for attempt in range(MAX_ATTEMPTS):  # NaN: no single right answer on this draw (a token rounding decides)
        inputs = draw_input(problem, recipe, np.random.default_rng(seed_for(problem, recipe, attempt)))
        expected = oracle.run(problem, inputs)
        if np.all(np.isfinite(expected)):
            break
    return {"input": inputs, "expected": expected.tolist(), "category": "large", "note": "corner"}


def _like_largest(problem: Problem, sizes: dict[str, int]) -> Recipe:
    """A recipe at `sizes` with the draw options of the largest drawn large test."""
    plain = recipe_from_pairs(problem, [f"{k}={v}" for k, v in sizes.items()] + ["category=large"])
    large = [r for r in load_recipes(problem) if r.category == "large" and not r.explicit]
    if not large:
        return plain
    model = max(large, key=lambda r: _numbers(problem, r.sizes))
    raw = {k: v for k, v in model.raw.items() if k not in ("id", "note", "expose", "sizes")}
    try:
        return parse_recipe(problem, {**raw, "category": "large", "sizes": sizes}, "corner", load_variants(problem),
                            categories(problem)[len(CATEGORIES):])
    except ProblemError:  # an option that does not fit these sizes (a pool of rows, a fixed scalar)
        return plain


def judge_corners(problem: Problem, found: list[Corner], out: Callable[[str], None] = print) -> list[str]:
    """Judge the reference and every accepted file at the storable corners; the lines over a margin."""
    storable = [c for c in found if c.storable]
    if not storable:
        return []
    over: list[str] = []
    with tempfile.TemporaryDirectory(prefix="corners-") as folder:
        paths = []
        for number, corner in enumerate(storable, 1):
            path = Path(folder) / f"{number:03d}-large.json"
            path.write_text(json.dumps(corner_test(problem, corner.sizes)), encoding="utf-8")
            paths.append(path)
        files = [Bundled(problem.reference_path, "AC")] + [b for b in bundled(problem) if b.expected == "AC"]
        for entry in files:
            report = _fastest(entry.path, problem, paths)
            for corner, test in zip(storable, report.tests):
                flags = []
                if (test.time_ms or 0) > problem.time_limit_ms / 2:
                    flags.append("over half the time limit")
                if (test.memory_mb or 0) > problem.memory_limit_mb / 2:
                    flags.append("over half the memory limit")
                if test.verdict != "AC":
                    flags.append(str(test.verdict))
                line = (f"{entry.path.name:40} {corner.label():50} {test.verdict!s:3} "
                        f"{test.time_ms or 0:7.0f} ms {test.memory_mb or 0:7.1f} MiB  {', '.join(flags)}")
                out(line)
                if flags:
                    over.append(line)
    return over


def _fastest(path: Path, problem: Problem, tests: list[Path]) -> Report:
    """The file judged on `tests` (at 3x the limit, so an overrun shows its size), each test keeping
    its fastest CPU time over up to RUNS judgings while some test is over half the limit."""
    options = Options(given(tests), run_all=True, time_limit_ms=3 * problem.time_limit_ms)
    report = judge_file(path, problem, options)
    for _ in range(RUNS - 1):
        if max((t.time_ms or 0) for t in report.tests) <= problem.time_limit_ms / 2:
            break
        again = judge_file(path, problem, options)
        for test, retest in zip(report.tests, again.tests):
            test.time_ms = min(test.time_ms or math.inf, retest.time_ms or math.inf)
    return report


def main(problem: Problem, judge: bool) -> int:
    """Print the corners; with `judge`, the judging at each; exit 1 when a corner is not covered."""
    found = corners(problem)
    short = 0
    print(f"{problem.slug}: {len(found)} corners (time limit {problem.time_limit_ms} ms, "
          f"memory limit {problem.memory_limit_mb} MiB)")
    for corner in found:
        where = (f"reached by {corner.reached_by}" if corner.reached_by else
                 "reached by no stored test" if corner.storable else
                 f"too large to store ({corner.numbers} numbers): narrow the constraints")
        short += corner.reached_by is None
        print(f"  {corner.label():60} {where}")
    if judge:
        try:
            over = judge_corners(problem, found, out=lambda line: print("  " + line, flush=True))
        except (MachineBusy, SandboxUnavailable) as exc:
            print(f"error: {problem.slug}: the corners could not be judged: {exc}", file=sys.stderr)
            return 2
        short += len(over)
    if short:
        print(f"{problem.slug}: {short} corner(s) not covered", file=sys.stderr)
    return 1 if short else 0
