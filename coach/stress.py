"""`python -m judge stress FILE`: small random inputs, the file against the reference, and the
first disagreement shrunk to the smallest input that still fails.

Inputs come from the test generator (testcases: the same drawing, validation and conditioning as
the stored tests), with small sizes and the value styles of the problem's own recipes (soft scales,
integers at the range ends) plus generic ones, some with repeated rows. The file runs in the
sandbox on a whole batch at once. Shrinking is greedy: each round tries smaller sizes (one size
toward its minimum, then two at once, since rules tie sizes together) and simpler values (small
integers, then fewer distinct rows), keeps the first candidate that still fails, and stops when
none does. Everything is drawn from the seed, so a seed reproduces a run.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np

from grading.judgement import TestResult
from grading.session import Options, judge_file
from problems import Problem, TestCase
from problems.package import ProblemError
from testcases import condition
from testcases.draw import draw_input
from testcases.recipes import load_recipes, parse_recipe

BATCH = 50
CHUNK = 12  # shrinking candidates judged per sandbox: most rounds end in the first chunk
STYLES = (  # value options, as recipes write them: soft reals, integers to the range ends, ties, plain
    {"values": "real", "scale": 0.001, "decimals": 4},
    {"values": "int", "limits": 0.5},
    {"values": "int", "scale": 0.01},
    {"values": "real", "decimals": 2},
)
SIMPLEST = {"values": "int", "scale": 0.1}  # small integers: what a shrunk case ends with, when it still fails


@dataclass
class Found:
    tried: int
    case: TestCase | None = None
    sizes: dict | None = None
    got: np.ndarray | None = None
    verdict: str = ""
    message: str = ""


def _small_sizes(problem: Problem, rng: np.random.Generator) -> dict[str, int] | None:
    for _ in range(200):
        sizes = {name: int(rng.integers(s.min, min(s.max, max(4 * s.min, s.min + 7)), endpoint=True))
                 for name, s in problem.sizes.items()}
        if not problem.size_violations(sizes):
            return sizes
    return None


def _case(problem: Problem, sizes: dict, style: dict, rows: int | None, seed: int, name: str) -> TestCase | None:
    """A drawn, well-conditioned input with the reference's output; None when it cannot be had."""
    raw = {"category": "edge", "sizes": sizes, **style}
    arrays = [a for a in problem.args if a.is_array]
    if rows is not None and arrays:
        shape = problem.shape_of(arrays[0], problem.dims(sizes))
        raw["distinct_rows"] = {arrays[0].name: min(rows, math.prod(shape[:-1]))}
    try:
        recipe = parse_recipe(problem, raw, "stress", {})
    except ProblemError:
        return None
    inputs = draw_input(problem, recipe, np.random.default_rng(seed))
    verdict = condition.evaluate(problem, inputs)
    if verdict.reason is not None or verdict.expected is None:  # rejected (the reason says why)
        return None
    case = TestCase(name, None, inputs, verdict.expected.tolist(), {"sizes": sizes, "style": style, "rows": rows,
                                                                     "seed": seed})
    return case


def _seed(seed: int, *parts) -> int:
    text = "|".join(map(str, (seed, *parts)))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _first_failure(path, problem: Problem, cases: list[TestCase]) -> tuple[TestCase, TestResult] | None:
    report = judge_file(path, problem, Options(lambda p: cases, run_all=True, keep_output=True))
    if not report.tests:  # a CE, or a sandbox that could not start: nothing to compare
        raise ProblemError(f"{path}: {report.verdict}: {report.message}")
    for case, result in zip(cases, report.tests):
        if result.verdict != "AC":
            return case, result
    return None


def value_styles(problem: Problem) -> list[dict]:
    """The value options of the problem's own recipes (their soft scales were tuned to expose the
    wrong scalings), then the generic ones."""
    borrowed = []
    for recipe in load_recipes(problem):
        style = {k: v for k, v in recipe.raw.items() if k in ("values", "scale", "limits", "decimals", "mask")}
        if not recipe.explicit and style not in borrowed:
            borrowed.append(style)
    return borrowed + [s for s in STYLES if s not in borrowed]


def stress(path, problem: Problem, n: int = 200, seed: int = 0) -> Found:
    rng = np.random.default_rng(seed)
    styles = value_styles(problem)
    tried = 0
    while tried < n:
        batch: list[TestCase] = []
        while len(batch) < min(BATCH, n - tried) and tried + len(batch) < n * 4:
            sizes = _small_sizes(problem, rng)
            if sizes is None:
                break
            style = styles[int(rng.integers(len(styles)))]
            rows = int(rng.integers(1, 3)) if rng.random() < 0.25 else None
            case = _case(problem, sizes, style, rows, _seed(seed, tried + len(batch)), f"draw-{tried + len(batch) + 1}")
            if case is not None:
                batch.append(case)
        if not batch:
            break
        failure = _first_failure(path, problem, batch)
        if failure is not None:
            tried += batch.index(failure[0]) + 1
            return _shrink(path, problem, *failure, tried)
        tried += len(batch)
    return Found(tried)


def _candidates(problem: Problem, meta: dict, round_: int):
    """Smaller or simpler versions of a failing case, smallest first (drawn lazily)."""
    sizes, style, rows, seed = meta["sizes"], meta["style"], meta["rows"], meta["seed"]
    smaller = {name: list(range(spec.min, sizes[name])) for name, spec in problem.sizes.items()}
    options = [({**sizes, name: v}, style, rows) for name, values in smaller.items() for v in values]
    names = list(smaller)  # then two sizes at once: rules can tie them (h_q divides d_model)
    options += [({**sizes, a: va, b: vb}, style, rows) for i, a in enumerate(names) for b in names[i + 1:]
                for va in smaller[a] for vb in smaller[b]]
    if style != SIMPLEST:
        options.append((sizes, SIMPLEST, rows))
    if rows is None or rows > 1:
        options.append((sizes, style, 1 if rows is None else rows - 1))
    valid = [(s, st, r) for s, st, r in options if not problem.size_violations(s)]
    # smallest first: the first candidate that still fails is the one kept
    valid.sort(key=lambda o: (int(np.prod([max(v, 1) for v in o[0].values()])), o[1] != SIMPLEST, o[2] or 99))
    for i, (s, st, r) in enumerate(valid):
        case = _case(problem, s, st, r, seed, f"shrink-{round_}-{i}")
        if case is not None:
            yield case


def _shrink(path, problem: Problem, case: TestCase, result, tried: int) -> Found:
    for round_ in range(100):
        failure = None
        candidates = _candidates(problem, case.meta, round_)
        while failure is None:
            chunk = [c for _, c in zip(range(CHUNK), candidates)]
            if not chunk:
                break
            failure = _first_failure(path, problem, chunk)
        if failure is None:
            break
        case, result = failure
    return Found(tried, case, problem.sizes_of(case.input), result.got, result.verdict, result.message)
