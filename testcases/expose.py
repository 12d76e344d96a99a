"""Does a test tell a wrong computation from the right one?

A variant (recipes.py) reproduces a mistake with the reference itself. Scaling arguments:
multiplying the query projection W_Q, b_Q by c multiplies every attention score by c, so
c = sqrt(d_k) is a solution that forgot the 1/sqrt(d_k) and c = sqrt(d_k / d_model) one that
divided by sqrt(d_model). When softmax is one-hot, such scaling changes nothing visible; a soft
test must move the output far beyond the tolerance. Another dtype: the reference computing in
float32 is a solution that converted its inputs to float32; rounding at 6e-8 of a score's
magnitude shows only where scores are large while the softmax stays soft, and a test meant to
reject it must be such a test.
"""

from __future__ import annotations

import numpy as np

from problems import Problem
from testcases import oracle
from testcases.condition import in_tolerances, tolerance
from testcases.recipes import Variant

EXPOSE_MIN_TOLERANCES = 1000.0  # "far beyond tolerance": the variant's worst element, in tolerances


def separation(problem: Problem, inputs: dict, expected: np.ndarray, variant: Variant) -> float:
    """How far the variant's output lands from `expected`, in tolerances (worst element)."""
    factor = variant.factor(problem.dims(problem.sizes_of(inputs)))
    scaled = dict(inputs)
    for name in variant.multiply:
        scaled[name] = (np.asarray(inputs[name], dtype=np.float64) * factor).tolist()
    wrong = oracle.run(problem, scaled, np.dtype(variant.dtype or "float64").type).astype(np.float64)
    if wrong.shape != expected.shape or not np.isfinite(wrong).all():
        return float("inf")
    return float(in_tolerances(wrong - expected, tolerance(problem, expected)).max())


def unexposed(problem: Problem, inputs: dict, expected: np.ndarray, variants: tuple[Variant, ...]) -> str | None:
    """The first variant this input fails to expose, with its distance; None when all are exposed."""
    for variant in variants:
        distance = separation(problem, inputs, expected, variant)
        if distance < EXPOSE_MIN_TOLERANCES:
            return f"variant {variant.name} moves the output only {distance:.3g} tolerances"
    return None
