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


@dataclass(frozen=True)
class Verdict:
    """The expected output of an accepted input, or why the input was rejected."""

    expected: np.ndarray | None
    reason: str | None = None


def tolerance(problem: Problem, expected: np.ndarray) -> np.ndarray:
    """Per element, the error the judge allows: max(abs, rel * |expected|) from problem.toml."""
    return np.maximum(problem.abs_tol, problem.rel_tol * np.abs(expected))


def evaluate(problem: Problem, inputs: dict) -> Verdict:
    """Expected output of `inputs`, or a reason to redraw (not finite, or badly conditioned)."""
    precise = oracle.run(problem, inputs, np.longdouble)
    plain = oracle.run(problem, inputs, np.float64)
    if not (np.isfinite(precise).all() and np.isfinite(plain).all()):
        return Verdict(None, "the expected output is not finite")
    expected = precise.astype(np.float64)
    gap = np.abs(plain.astype(np.longdouble) - precise) / tolerance(problem, expected)
    worst = float(gap.max()) if gap.size else 0.0
    if worst > CONDITION_FRACTION:
        where = tuple(int(i) for i in np.unravel_index(int(gap.argmax()), gap.shape))
        return Verdict(None, f"float64 and longdouble differ by {worst:.3g} of the tolerance at {where}")
    return Verdict(expected)
