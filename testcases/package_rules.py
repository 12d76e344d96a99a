"""The package rules: what a problem's stored tests, statements and wrong answers must hold beyond
the validator. `make verify` checks them, in this order, before it judges anything, and stops at
the first one broken with one line naming it; problems/README.md states the same list.

The general rules are stated from problem.toml's data (sizes, ranges, categories), so they hold
for any package. The attention rules only make sense where scores are q . k / sqrt(d_k): a package
opts in with `attention = true` in problem.toml's [verify] table (problems/package.py checks that it
then has the sizes T and d_model, the derived d_k and the arguments X, W_Q, b_Q, W_K, b_K).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from problems import Problem
from problems.editorial import read_editorial
from problems.package import ProblemError, read_toml, shown
from problems.statement import statement_sections, statement_steps
from problems.testfile import category_of
from testcases.recipes import categories
from testcases.render import LANGUAGES, blocks_for, read_blocks

BUDGET = 8 * 2**20  # bytes of test JSON per package: the tests are committed and cloned by everyone
EXP_OVERFLOW = math.log(np.finfo(np.float64).max)  # ~709.78: exp of a larger score is inf in float64


@dataclass
class Stored:
    """One stored test, read once for every rule."""

    path: Path
    data: dict  # the whole test object
    sizes: dict[str, int]  # the declared sizes and the derived ones
    elements: int  # how many numbers its input holds

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def category(self) -> str:
        return self.data.get("category", category_of(self.path))

    @property
    def input(self) -> dict:
        return self.data["input"]


@dataclass(frozen=True)
class Rule:
    text: str  # as problems/README.md states it
    check: Callable[[Problem, list[Stored], Path], str | None]  # what breaks it, or None
    attention: bool = False  # only for packages with [verify] attention = true


def violations(problem: Problem, solutions: Path) -> list[str]:
    """Every package rule the package breaks, in order, each one line naming the place and the rule
    (empty when they all hold). The stored tests must have passed the validator first."""
    tests = read_stored(problem)
    out = []
    for rule in RULES:
        if rule.attention and not problem.attention:
            continue
        broken = rule.check(problem, tests, solutions)
        if broken:
            out.append(f"{broken} (package rule: {rule.text})")
    return out


def applicable(problem: Problem) -> list[Rule]:
    return [r for r in RULES if problem.attention or not r.attention]


def read_stored(problem: Problem) -> list[Stored]:
    out = []
    for path in problem.test_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        sizes = problem.dims(problem.sizes_of(data["input"]))
        out.append(Stored(path, data, sizes, sum(int(np.size(v)) for v in data["input"].values())))
    return out


def _where(problem: Problem) -> str:
    return shown(problem.tests_dir)


def first_is_sample(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    if tests and tests[0].category != "sample":
        return f"{shown(tests[0].path)}: the first test is of category {tests[0].category}"
    return None


def every_category(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    known = categories(problem)
    unused = [c for c in known if all(t.category != c for t in tests)]
    if unused:
        return f"{_where(problem)}: no test of category {unused[0]}"
    other = next((t for t in tests if t.category not in known), None)
    if other:
        return f"{shown(other.path)}: category {other.category} is neither shared nor declared in recipes.toml"
    return None


def sizes_reach_both_ends(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    for size in problem.sizes.values():
        seen = {t.sizes.get(size.name) for t in tests}
        for end, value in (("min", size.min), ("max", size.max)):
            if value not in seen:
                return f"{_where(problem)}: no test has {size.name} = {value} (its {end})"
    for arg in (a for a in problem.args if a.is_scalar):
        assert arg.range is not None  # a scalar's
        values = {t.input.get(arg.name) for t in tests}
        for end, real in zip(("low end", "high end"), arg.range):
            if real not in values:
                return (f"{_where(problem)}: no test has {arg.name} = {real!r} (its {end}: a recipe's "
                        f"scalars = {{{arg.name} = ...}})")
    return None


def axis_sizes(problem: Problem) -> list[str]:
    """The sizes that are an axis of an array argument on their own (T, d_model): the ones that
    make a test's input large."""
    return [n for n in problem.sizes if any(n in a.shape for a in problem.args if a.is_array)]


def large_reaches_the_maxima(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    large = [t for t in tests if t.category == "large"]
    for name in axis_sizes(problem):
        top = problem.sizes[name].max
        if all(t.sizes.get(name) != top for t in large):
            return f"{_where(problem)}: no test of category large has {name} = {top} (its max)"
    return None


def largest_is_large(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    if not tests:
        return None
    biggest = max(tests, key=lambda t: t.elements)
    top = max((t.elements for t in tests if t.category == "large"), default=0)
    if biggest.elements > top:
        return (f"{shown(biggest.path)}: {biggest.elements} input elements, more than every test of category "
                f"large ({top})")
    return None


def edge_shapes(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    edge = [t for t in tests if t.category == "edge"]
    if all(t.sizes.get("d_k") != 1 for t in edge):
        return f"{_where(problem)}: no edge test has d_k = 1"
    if all(not t.sizes.get("d_model", 1) & (t.sizes.get("d_model", 1) - 1) for t in edge):
        return f"{_where(problem)}: no edge test has a d_model that is not a power of two"
    return None


def largest_score(test: Stored) -> float:
    """The largest |score| of any query head against any key head: (X W_Q + b_Q) and
    (X W_K + b_K) cut into heads of d_k columns, each product divided by sqrt(d_k)."""
    a = {k: np.asarray(test.input[k], dtype=np.float64) for k in ("X", "W_Q", "b_Q", "W_K", "b_K")}
    d_k = test.sizes["d_k"]
    Q, K = a["X"] @ a["W_Q"] + a["b_Q"], a["X"] @ a["W_K"] + a["b_K"]
    return max(float(np.abs(Q[:, i:i + d_k] @ K[:, j:j + d_k].T).max())
               for i in range(0, Q.shape[1], d_k) for j in range(0, K.shape[1], d_k)) / math.sqrt(d_k)


def extreme_overflows(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    extreme = [t for t in tests if t.category == "extreme"]
    top = max((largest_score(t) for t in extreme), default=0.0)
    if top <= EXP_OVERFLOW:
        return (f"{_where(problem)}: the largest score of the extreme tests is {top:.3g}, which exp() takes "
                f"without overflow (above {EXP_OVERFLOW:.2f} it overflows)")
    return None


def _leaves(value) -> list:
    while value and isinstance(value[0], list):
        value = [x for row in value for x in row]
    return value


def extreme_reach_the_ends(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    extreme = [t for t in tests if t.category == "extreme"]
    for arg in (a for a in problem.args if a.is_array and not a.is_mask):
        kinds = ((int, "an integer"),) if arg.integer else ((int, "an integer"), (float, "a real"))
        for kind, label in kinds:
            for side in (0, 1):
                # an integer array's end may be a size expression: reached in a test of its own sizes
                if not any(_reaches(t, arg.name, problem.range_of(arg, t.sizes)[side], kind) for t in extreme):
                    end = arg.range_text()[side]
                    if kind is int and not arg.integer and not float(end).is_integer():
                        continue  # -5.5 has no integer form
                    return f"{_where(problem)}: no extreme test has {arg.name} = {end} as {label}"
    return None


def _reaches(test: Stored, name: str, end: float, kind: type) -> bool:
    return any(x == end for x in _leaves(test.input[name]) if type(x) is kind)


def ties_repeat_a_row(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    arrays = [a for a in problem.args if a.is_array and not a.is_mask and len(a.shape) >= 2]
    for test in (t for t in tests if t.category == "ties"):
        if not any(_repeats(test.input[a.name]) for a in arrays):
            return f"{shown(test.path)}: no array argument repeats a row (along its last axis)"
    return None


def _repeats(value) -> bool:
    rows = value
    while rows and rows[0] and isinstance(rows[0][0], list):
        rows = [r for block in rows for r in block]
    return len({tuple(r) for r in rows}) < len(rows)


def within_budget(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    total = sum(t.path.stat().st_size for t in tests)
    if total > BUDGET:
        return f"{_where(problem)}: {total / 2**20:.2f} MiB of test JSON, over {BUDGET // 2**20} MiB"
    return None


def statements_current(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    stored = [(t.name, t.data) for t in tests]
    for lang, file in LANGUAGES.items():
        path = problem.root / file
        if not path.is_file():
            return f"{shown(path)}: no such file"
        found = read_blocks(path.read_text(encoding="utf-8"))
        for name, body in blocks_for(problem, stored, lang).items():
            if name not in found:
                return f"{shown(path)}: no '{name}' block (<!-- BEGIN generated: {name} --> ... END)"
            if found[name] != body:
                return f"{shown(path)}: the '{name}' block is stale: run make testcases"
    return None


def refusal_has_its_section(problem: Problem, tests: list[Stored], _: Path) -> str | None:
    section = problem.no_single_answer
    if section and f"\n## {section}\n" not in "\n" + problem.spec_path.read_text(encoding="utf-8"):
        return f"{shown(problem.spec_path)}: no section '## {section}', which no_single_answer in problem.toml names"
    return None


def wrong_answers_have_steps(problem: Problem, tests: list[Stored], solutions: Path) -> str | None:
    folder = solutions / problem.slug / "wrong_answer"
    files = sorted(p.name for p in folder.glob("*.py"))
    if not files:
        return None
    index_path = folder / "steps.toml"
    index = read_toml(index_path, "each wrong answer names its statement step there", shown(index_path))
    missing = [name for name in files if name not in index]
    if missing:
        return f"{shown(index_path)}: no step for {missing[0]}"
    steps, sections = statement_steps(problem), statement_sections(problem)
    for name, step in index.items():
        if name not in files:
            return f"{shown(index_path)}: {name} is not a file of {shown(folder)}"
        if type(step) is int and step not in steps:
            return (f"{shown(index_path)}: {name} = {step}, but {shown(problem.spec_path)} numbers the steps "
                    f"{', '.join(map(str, steps)) or 'none'}")
        if type(step) is not int and step not in sections:
            return (f"{shown(index_path)}: {name} = {step!r} is neither a step number nor a section title of "
                    f"{shown(problem.spec_path)}")
    return None


def editorial_explains_each_accepted(problem: Problem, tests: list[Stored], solutions: Path) -> str | None:
    try:
        read_editorial(problem, solutions / problem.slug / "accepted")
    except ProblemError as exc:
        return str(exc)
    return None


RULES = (
    Rule("the first test is the sample (category sample)", first_is_sample),
    Rule("every category has a test: the six shared ones and each one recipes.toml declares", every_category),
    Rule("every size reaches its min and its max in some test (a real scalar both ends of its range)",
         sizes_reach_both_ends),
    Rule("every size that is an axis of an array argument on its own reaches its max in a test of category large",
         large_reaches_the_maxima),
    Rule("the largest input (most elements) is in a test of category large", largest_is_large),
    Rule("(attention) edge tests include d_k = 1 and a d_model that is not a power of two", edge_shapes,
         attention=True),
    Rule("(attention) some extreme test has a score beyond 709.78, where an unshifted softmax overflows",
         extreme_overflows, attention=True),
    Rule("the extreme tests reach both ends of every array argument's range, as an integer and as a real "
         "(masks aside; as an integer only where the end is a whole number)", extreme_reach_the_ends),
    Rule("every ties test repeats a row of some array argument", ties_repeat_a_row),
    Rule("the stored tests take at most 8 MiB of JSON", within_budget),
    Rule("spec.md and spec.zh.md carry the constraints and sample blocks as make testcases renders them",
         statements_current),
    Rule("every wrong answer names its statement step in wrong_answer/steps.toml", wrong_answers_have_steps),
    Rule("spec.md has the section that no_single_answer in problem.toml names", refusal_has_its_section),
    Rule("editorial.toml has the idea and, for each accepted solution, its approach with time, memory and prose, "
         "in English and Chinese", editorial_explains_each_accepted),
)
