"""Drawing a test's input from a recipe and a seeded numpy Generator.

Arguments are drawn one after another in signature order, so the same recipe and seed always give
the same input. Integers come out as Python ints and reals on a decimal grid as the shortest
floats, which keeps the stored JSON small and readable; ranges come from problem.toml.
"""

from __future__ import annotations

import math

import numpy as np

from problems import Arg, Problem
from testcases.recipes import Recipe


def draw_input(problem: Problem, recipe: Recipe, rng: np.random.Generator) -> dict:
    """The input of one test, in signature order, as JSON-ready Python values."""
    dims = problem.dims(recipe.sizes)
    drawn: dict = {}
    for arg in problem.args:
        if not arg.is_array:
            drawn[arg.name] = dims[arg.size]
            continue
        shape = problem.shape_of(arg, dims)
        pool_rows = recipe.option("distinct_rows", arg.name)
        if pool_rows is None:
            values = _values(arg, recipe, shape, rng)
        else:
            # Every pool row is used, in a shuffled order: repeats are guaranteed, not left to luck.
            pool = _values(arg, recipe, (pool_rows, *shape[1:]), rng)
            values = pool[rng.permutation(np.arange(shape[0]) % pool_rows)]
        drawn[arg.name] = values.tolist()
    return drawn


def _values(arg: Arg, recipe: Recipe, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Uniform values on the argument's grid (integers, or multiples of 10**-decimals, or reals)."""
    scale, limits = recipe.option("scale", arg.name), recipe.option("limits", arg.name)
    decimals = recipe.option("decimals", arg.name)
    lo, hi = arg.range[0] * scale, arg.range[1] * scale
    if recipe.option("values", arg.name) == "int":
        step = 1
    elif decimals is not None:
        step = 10**decimals
    else:
        step = None
    if step is None:
        values = rng.uniform(lo, hi, shape)
        ends = (float(lo), float(hi))
    else:
        # round() first: 1000 * 0.0015 * 1000 is 1500.0000000000002, whose ceiling is not 1500.
        first, last = math.ceil(round(lo * step, 9)), math.floor(round(hi * step, 9))
        values = rng.integers(first, last, shape, endpoint=True)
        ends = (first, last)
    if limits > 0:
        at_end = rng.random(shape) < limits
        values = np.where(at_end, np.where(rng.random(shape) < 0.5, ends[0], ends[1]), values)
    if step is not None and step != 1:
        # An integer over a power of ten is the double nearest that decimal: short repr, exact grid.
        return values / step
    return values
