"""Drawing a test's input from a recipe and a seeded numpy Generator.

Arguments are drawn one after another in signature order, so the same recipe and seed always give
the same input. Integers come out as Python ints and reals on a decimal grid as the shortest
floats, which keeps the stored JSON small and readable; ranges come from problem.toml.

An argument given as an outer product of sign vectors (the `outer` option, testcases/recipes.py)
draws its vectors from the same generator when it is reached, the first argument to name a
vector drawing it; recipes without that option make no extra draws, so their tests never change.
"""

from __future__ import annotations

import math

import numpy as np

from problems import Arg, Problem
from testcases.recipes import Recipe, outer_axes, parse_outer


def draw_input(problem: Problem, recipe: Recipe, rng: np.random.Generator) -> dict:
    """The input of one test, in signature order, as JSON-ready Python values."""
    dims = problem.dims(recipe.sizes)
    drawn: dict = {}
    vectors: dict[str, np.ndarray] = {}  # the sign vectors of outer products, shared by the test's arguments
    for arg in problem.args:
        if arg.size is not None:  # not an array: a size, passed as an int
            drawn[arg.name] = dims[arg.size]
            continue
        if arg.is_scalar:  # one real: the recipe's, or uniform in the range
            assert arg.range is not None  # a scalar's
            fixed = recipe.scalars.get(arg.name)
            drawn[arg.name] = fixed if fixed is not None else float(rng.uniform(*arg.range))
            continue
        shape = problem.shape_of(arg, dims)
        pool_rows = recipe.option("distinct_rows", arg.name)
        outer = recipe.option("outer", arg.name)
        if arg.is_mask:
            values = _mask(arg, recipe.option("mask", arg.name), shape, rng)
        elif outer is not None:
            values = _outer(arg, recipe, outer, shape, vectors, rng, problem.range_of(arg, dims))
        elif pool_rows is None:
            values = _values(arg, recipe, shape, rng, problem.range_of(arg, dims))
        else:
            # Rows along the last axis (leading axes flattened) come from a pool; every pool row is
            # used, in a shuffled order: repeats are guaranteed, not left to luck.
            count = math.prod(shape[:-1])
            pool = _values(arg, recipe, (pool_rows, shape[-1]), rng, problem.range_of(arg, dims))
            values = pool[rng.permutation(np.arange(count) % pool_rows)].reshape(shape)
        drawn[arg.name] = values.tolist()
    return drawn


def _mask(arg: Arg, patterns: str | list[str], shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """A 0/1 mask: the union of the patterns' hidden elements, then one element of every fully
    hidden row (along the last axis) made visible again, so that each row keeps a key.

    random: each element hidden with probability 1/2; padding: for each index of the axes before
    the last two (a batch item), a visible length drawn in [1, last axis], distinct between items
    while the axis is long enough, and the elements past it hidden in every row; lookahead:
    element u of row t hidden when u > t; none: nothing hidden.
    """
    hidden = np.zeros(shape, dtype=bool)
    for pattern in [patterns] if isinstance(patterns, str) else patterns:
        if pattern == "random":
            hidden |= rng.random(shape) < 0.5
        elif pattern == "padding":
            items = math.prod(shape[:-2])  # different lengths for different items while there are enough
            lengths = rng.choice(np.arange(1, shape[-1] + 1), size=shape[:-2], replace=items > shape[-1])
            hidden |= np.arange(shape[-1]) >= np.expand_dims(lengths, (-2, -1))
        elif pattern == "lookahead":
            hidden |= np.arange(shape[-1]) > np.arange(shape[-2])[:, None]
    rows = hidden.reshape(-1, shape[-1])
    blind = np.flatnonzero(rows.all(axis=1))
    rows[blind, rng.integers(0, shape[-1], blind.size)] = False
    assert arg.mask_hidden is not None  # a mask's
    return np.where(rows.reshape(shape), arg.mask_hidden, 1 - arg.mask_hidden)


def sign_vector(name: str, length: int, rng: np.random.Generator) -> np.ndarray:
    """A vector of +1 and -1: all ones for "+", split's +1 up to a drawn position in [1, length - 1]
    and -1 from there (all ones at length 1), otherwise random signs."""
    if name == "+":
        return np.ones(length, dtype=np.int64)
    if name == "split":
        position = int(rng.integers(1, length)) if length > 1 else 1
        return np.where(np.arange(length) < position, 1, -1)
    return np.where(rng.random(length) < 0.5, -1, 1)


def _outer(arg: Arg, recipe: Recipe, text: str, shape: tuple[int, ...], vectors: dict[str, np.ndarray],
           rng: np.random.Generator, ends: tuple[float, float]) -> np.ndarray:
    """An array row[i] * col[j] of signs (repeated over leading axes) at the ends of the argument's grid:
    +1 the upper end, -1 the lower. The vectors a test names are drawn once and shared (recipes.py)."""
    pairs = parse_outer(text)
    assert pairs is not None  # recipes.py checked it
    signs = []
    for (sign, name), length in zip(pairs, outer_axes(shape)):
        if name == "+":  # all ones: nothing to share, whatever the axis' length
            signs.append(sign * sign_vector(name, length, rng))
            continue
        if name not in vectors:
            vectors[name] = sign_vector(name, length, rng)
        signs.append(sign * vectors[name])
    product = signs[0] if len(signs) == 1 else np.outer(signs[0], signs[1])
    (lo, hi), step = _grid(arg, recipe, ends)
    values = np.broadcast_to(np.where(product > 0, hi, lo), shape)
    if step is not None and step != 1:
        return values / step
    return values


def _grid(arg: Arg, recipe: Recipe, ends: tuple[float, float]) -> tuple[tuple, int | None]:
    """The ends of the argument's (scaled) range and its grid step: integers (step 1; always for an
    integer array), multiples of 10**-decimals (the ends as integer multiples of the step) or reals
    (step None, float ends)."""
    scale, decimals = recipe.option("scale", arg.name), recipe.option("decimals", arg.name)
    lo, hi = ends[0] * scale, ends[1] * scale
    if arg.integer or recipe.option("values", arg.name) == "int":
        step = 1
    elif decimals is not None:
        step = 10**decimals
    else:
        return (float(lo), float(hi)), None
    # round() first: 1000 * 0.0015 * 1000 is 1500.0000000000002, whose ceiling is not 1500.
    return (math.ceil(round(lo * step, 9)), math.floor(round(hi * step, 9))), step


def _values(arg: Arg, recipe: Recipe, shape: tuple[int, ...], rng: np.random.Generator,
            bounds: tuple[float, float]) -> np.ndarray:
    """Uniform values on the argument's grid (integers, or multiples of 10**-decimals, or reals)."""
    limits = recipe.option("limits", arg.name)
    ends, step = _grid(arg, recipe, bounds)
    values: np.ndarray
    if step is None:
        values = rng.uniform(ends[0], ends[1], shape)
    else:
        values = rng.integers(ends[0], ends[1], shape, endpoint=True)
    if limits > 0:
        at_end = rng.random(shape) < limits
        values = np.where(at_end, np.where(rng.random(shape) < 0.5, ends[0], ends[1]), values)
    if step is not None and step != 1:
        # An integer over a power of ten is the double nearest that decimal: short repr, exact grid.
        return values / step
    return values
