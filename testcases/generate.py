"""Making tests from recipes: seeding, redrawing, ordering, writing.

Each test's random stream is seeded from sha256(slug, canonical recipe, attempt), like testlib
seeding a generator from its command line: a test depends on its own recipe only, never on its
position or on the tests before it, so adding, removing or reordering recipes leaves the other
tests byte-identical. A draw is kept when it is valid, well-conditioned and exposes the variants
its recipe names; otherwise the next attempt number gives a fresh, equally reproducible draw.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from problems import Problem, ProblemError
from testcases import condition
from testcases.draw import draw_input
from testcases.expose import unexposed
from testcases.recipes import Recipe, load_recipes
from testcases.validate import validate_data, validate_input

MAX_ATTEMPTS = 20


@dataclass(frozen=True)
class Test:
    """One generated test: its stored JSON object and the recipe it came from."""

    data: dict
    recipe: Recipe


def seed_for(problem: Problem, recipe: Recipe, attempt: int) -> int:
    """A 64-bit seed from the problem, the recipe's canonical text and the attempt number."""
    text = f"{problem.slug}\n{recipe.canonical()}\n{attempt}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def make_test(problem: Problem, recipe: Recipe) -> Test:
    """The test a recipe describes; a ProblemError when no acceptable draw exists."""
    if recipe.input is not None:  # explicit
        problems, _ = validate_input(problem, recipe.input)
        if problems:
            raise ProblemError(f"{recipe.where}: input: {problems[0]}")
        test = _accept(problem, recipe, recipe.input, None)
        if isinstance(test, str):
            raise ProblemError(f"{recipe.where}: {test}")
        return test
    reason = ""
    for attempt in range(MAX_ATTEMPTS):
        seed = seed_for(problem, recipe, attempt)
        inputs = draw_input(problem, recipe, np.random.default_rng(seed))
        test = _accept(problem, recipe, inputs, seed)
        if isinstance(test, Test):
            return test
        reason = test
    raise ProblemError(f"{recipe.where}: no acceptable draw in {MAX_ATTEMPTS} attempts; last: {reason}")


def _accept(problem: Problem, recipe: Recipe, inputs: dict, seed: int | None) -> Test | str:
    """The test, or why this input cannot be one."""
    verdict = condition.evaluate(problem, inputs)
    reason = verdict.reason
    if reason is None:
        assert verdict.expected is not None  # accepted: evaluated
        reason = unexposed(problem, inputs, verdict.expected, recipe.expose)
    if reason is not None:
        return reason
    assert verdict.expected is not None
    expected = verdict.expected
    if problem.exact and np.all(np.mod(expected, 1) == 0) and np.all(np.abs(expected) < 2**53):
        expected = expected.astype(np.int64)  # whole numbers that must match exactly: stored as ints
    data = {"input": inputs, "expected": expected.tolist(), "category": recipe.category,
            "seed": seed, "note": recipe.note}
    violations = validate_data(problem, data, recipe.where)
    if violations:
        raise ProblemError(violations[0])
    return Test(data, recipe)


def generate(problem: Problem) -> list[tuple[str, Test]]:
    """All of a problem's tests with their file names, in id order (the order they are judged in)."""
    tests = [make_test(problem, r) for r in load_recipes(problem)]
    return sorted(((t.recipe.file_name, t) for t in tests), key=lambda pair: pair[0])


def dump(test: Test) -> str:
    """The stored text: compact JSON, ints as ints, floats as shortest round-trip reprs."""
    return json.dumps(test.data, separators=(",", ":"), allow_nan=False) + "\n"


def write_tests(tests: list[tuple[str, Test]], folder: Path) -> int:
    """Write the tests into `folder`, removing stored tests no recipe makes any more; bytes written."""
    folder.mkdir(parents=True, exist_ok=True)
    keep = {name for name, _ in tests}
    for stale in folder.glob("*.json"):
        if stale.name not in keep:
            stale.unlink()
    total = 0
    for name, test in tests:
        text = dump(test)
        (folder / name).write_text(text, encoding="utf-8")
        total += len(text.encode())
    return total
