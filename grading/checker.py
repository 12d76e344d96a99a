"""Comparing a run's returned array with the expected one, in the judge's own process.

An element passes when |got - exp| <= abs_tol or |got - exp| <= rel_tol * |exp| (testlib's and
DMOJ's rule): absolute error for values near zero, relative error for large ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from grading.judgement import Mismatch


@dataclass
class Check:
    ok: bool
    message: str = ""
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    detail: Mismatch | None = None  # the first mismatch as data (the message's figures), for a page to lay out


def _position(index: tuple[int, ...]) -> str:
    if len(index) == 2:
        return f"row {index[0]}, column {index[1]}"
    if len(index) == 1:
        return f"element {index[0]}"
    return "element [" + "][".join(map(str, index)) + "]" if index else "the value"


def compare(got: np.ndarray, expected: np.ndarray, abs_tol: float, rel_tol: float) -> Check:
    """Accept `got` when it has the expected shape, is finite, and every element is within tolerance."""
    if got.shape != expected.shape:
        hint = ""
        if got.ndim == 2 and got.shape == expected.shape[::-1]:
            hint = " (it looks transposed: the axes in reverse order)"
        elif got.shape == tuple(n for n in expected.shape if n != 1):
            hint = " (an axis of length 1 is missing: a squeeze dropped it)"
        elif got.size == expected.size:
            hint = " (the right number of elements: reshape it)"
        return Check(False, f"returned shape {_shape(got.shape)}, expected {_shape(expected.shape)}{hint}",
                     detail=Mismatch(got_shape=list(got.shape), expected_shape=list(expected.shape)))
    bad = ~np.isfinite(got)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        return Check(False, f"{_position(index)} is {float(got[index])!r} ({int(bad.sum())} of {got.size} "
                            "elements are not finite)",
                     detail=Mismatch(index=list(index), position=_position(index), got=repr(float(got[index])),
                                     expected=float(expected[index]), differ=int(bad.sum()), elements=int(got.size)))
    err = np.abs(got - expected)
    scale = np.abs(expected)
    allowed = np.maximum(abs_tol, rel_tol * scale)
    max_abs = float(err.max()) if err.size else 0.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # a denormal expected overflows err / scale
        rel = np.where(scale > 0, err / scale, np.where(err > 0, np.inf, 0.0))
    max_rel = float(rel.max()) if rel.size else 0.0
    wrong = err > allowed
    if not wrong.any():
        return Check(True, "", max_abs, max_rel)
    index = tuple(int(i) for i in np.argwhere(wrong)[0])
    exact = abs_tol == 0 and rel_tol == 0  # whole numbers such as token ids: shown as ints, no ratio
    how = "an exact match is required" if exact else f"error {err[index]:.3g} > allowed {allowed[index]:.3g}"
    message = (f"{_position(index)}: expected {_value(expected[index], exact)}, got {_value(got[index], exact)} "
               f"({how})"
               + (f"; {int(wrong.sum())} of {got.size} elements differ" if got.ndim else ""))
    detail = Mismatch(index=list(index), position=_position(index), expected=float(expected[index]),
                      got=float(got[index]), error=float(err[index]), allowed=float(allowed[index]),
                      differ=int(wrong.sum()), elements=int(got.size))
    return Check(False, message, max_abs, max_rel, detail)


def _value(x: float | np.floating[Any], exact: bool) -> str:
    """A number as a message shows it: 3 rather than 3.0 where only an exact match passes."""
    value = float(x)
    return str(int(value)) if exact and value.is_integer() else repr(value)


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, shape)) + (",)" if len(shape) == 1 else ")")


def position(index: tuple[int, ...]) -> str:
    """Where an element is, in the words of the checker's messages (the hints say it the same way)."""
    return _position(index)
