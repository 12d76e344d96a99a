"""grading/checker.py's compare at the tolerance edges, in process: the same rows that
test_judge.py judges through `python -m judge` (whose cases beyond the first are in the slow
tier), so the fast tier still checks every edge."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from grading.checker import compare

EXPECTED = np.array([[0.0, 1e6, 1e-9, 2.0], [0.0, 0.0, 0.0, 0.0]])  # test_judge's probe test, abs = rel = 1e-6


@pytest.mark.parametrize("row, ok, why", [
    ([1e-6, 1e6, 1e-9, 2.0], True, "exactly at the absolute tolerance"),
    ([1.0000001e-6, 1e6, 1e-9, 2.0], False, "just past the absolute tolerance"),
    ([0.0, 1e6 + 1.0, 1e-9, 2.0], True, "exactly at the relative tolerance (1e-6 * 1e6 = 1)"),
    ([0.0, 1e6 + 1.0000002, 1e-9, 2.0], False, "just past the relative tolerance"),
    ([0.0, 1e6 + 0.5, 1e-9, 2.0], True, "absolute error 0.5 passes by relative error"),
    ([0.0, 1e6, 5e-7, 2.0], True, "relative error 500 passes by absolute error"),
    ([-1e-6, 1e6, 1e-9, 2.0], True, "expected 0 allows the absolute tolerance either side"),
    ([0.0, 1e6, 1e-9, 2.0 + 2.1e-6], False, "2.1e-6 off a 2 exceeds both rules"),
])
def test_the_tolerance_edges(row, ok, why):
    check = compare(np.array([row, [0.0] * 4]), EXPECTED, 1e-6, 1e-6)
    assert check.ok is ok, why
    assert (check.message == "") is ok, check.message


@pytest.mark.parametrize("got, message", [
    ([[np.nan, 1e6, 1e-9, 2.0], [0.0] * 4], "row 0, column 0 is nan (1 of 8 elements are not finite)"),
    ([[0.0, np.inf, 1e-9, 2.0], [0.0] * 4], "row 0, column 1 is inf (1 of 8 elements are not finite)"),
    ([0.0, 1e6, 1e-9, 2.0, 0.0, 0.0, 0.0, 0.0],
     "returned shape (8,), expected (2, 4) (the right number of elements: reshape it)"),
    ([[0.0, 1e6, 1e-9, 2.0]], "returned shape (1, 4), expected (2, 4)"),
])
def test_what_is_no_answer_is_named(got, message):
    check = compare(np.array(got), EXPECTED, 1e-6, 1e-6)
    assert (check.ok, check.message) == (False, message)


def test_a_denormal_expected_value_raises_no_warning():
    """attention_backward's dQ reaches 1e-320: the relative error overflows, and that is no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check = compare(np.array([1e-300, 2.0]), np.array([1e-320, 2.0]), 1e-6, 1e-6)
    assert check.ok and check.max_rel_err > 1e19
