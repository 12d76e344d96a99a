"""Well-conditioned tests only: float64 must agree with a more precise evaluation.

At large magnitudes softmax can turn a rounding difference into a visible output difference, and
then two correct float64 programs disagree. So each drawn test is evaluated twice, by the reference
in float64 and in np.longdouble (64-bit mantissa, independent rounding), and kept only when they
agree to within 1% of the judge's tolerance everywhere. The stored expected output is the
longdouble result rounded to float64: the more accurate of the two, and unlike BLAS float64 it
does not depend on which CPU kernels numpy picks, so regeneration is byte-identical elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from problems import Problem
from testcases import oracle

CONDITION_FRACTION = 0.01  # of the tolerance: the most float64 may differ from longdouble
PERTURBATION = 2.0 ** -50  # relative, about 4 float64 ulps: what another order of operations does


@dataclass(frozen=True)
class Verdict:
    """The expected output of an accepted input, or why the input was rejected."""

    expected: np.ndarray | None
    reason: str | None = None


def tolerance(problem: Problem, expected: np.ndarray) -> np.ndarray:
    """Per element, the error the judge allows: max(abs, rel * |expected|) from problem.toml."""
    return np.maximum(problem.abs_tol, problem.rel_tol * np.abs(expected))


def in_tolerances(error: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """error / allowed per element; where nothing is allowed (abs = rel = 0, an exact output such as
    token ids) 0 for an exact match and inf otherwise, never a division by zero."""
    exact = allowed == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.abs(error) / np.where(exact, 1, allowed)
    return np.where(exact, np.where(error == 0, 0.0, np.inf), share)


def evaluate(problem: Problem, inputs: dict) -> Verdict:
    """Expected output of `inputs`, or a reason to redraw (not finite, or badly conditioned)."""
    precise = oracle.run(problem, inputs, np.longdouble)
    plain = oracle.run(problem, inputs, np.float64)
    if not (np.isfinite(precise).all() and np.isfinite(plain).all()):
        return Verdict(None, "the expected output is not finite")
    expected = precise.astype(np.float64)
    gap = in_tolerances(plain.astype(np.longdouble) - precise, tolerance(problem, expected))
    worst = float(gap.max()) if gap.size else 0.0
    if worst > CONDITION_FRACTION:
        return Verdict(None, f"float64 and longdouble differ by {worst:.3g} of the tolerance at {_where(gap)}")
    # The reference's own order of operations can hide a near-tie: integer inputs give exactly
    # equal scores for distinct keys in float64 and longdouble alike, while a correct solution
    # that scales Q before the product rounds them apart and lands on another softmax. Nudging
    # the parameters by a few ulps stands in for every such order of operations.
    nudged = oracle.run(problem, _perturbed(problem, inputs), np.longdouble)
    gap = in_tolerances(nudged - precise, tolerance(problem, expected))
    worst = float(gap.max()) if gap.size else 0.0
    if not np.isfinite(worst) or worst > CONDITION_FRACTION:
        return Verdict(None, f"a few-ulp change of the parameters moves the output by {worst:.3g} "
                             f"of the tolerance at {_where(gap)} (near-tied scores)")
    return Verdict(expected)


def _where(gap: np.ndarray) -> tuple[int, ...]:
    """The index of the largest gap, NaN counting as the largest (an all-NaN gap is its first element)."""
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(np.where(np.isnan(gap), np.inf, gap))), gap.shape))


def _perturbed(problem: Problem, inputs: dict) -> dict:
    """The input with every parameter (arrays and real scalars, all but the 'input' group, masks and
    integer arrays, which index) scaled by 1 + O(ulp).

    The input rows are left alone, so rows a ties test repeats stay exactly equal, as do their
    scores in any correct program; a deterministic stream keeps generation reproducible.
    """
    rng = np.random.default_rng(0)
    out = dict(inputs)
    for arg in problem.args:
        if (arg.is_array or arg.is_scalar) and arg.group != "input" and not arg.is_mask and not arg.integer:
            value = np.asarray(inputs[arg.name], dtype=np.longdouble)
            out[arg.name] = value * (1 + PERTURBATION * rng.uniform(-1, 1, value.shape))
    return out
