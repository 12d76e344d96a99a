"""Reference solution for causal multi-head attention with ALiBi biases (Press et al. 2022).

Vectorised over heads with batched matmul. `dtype` is float64 for judging; the test generator
re-runs it in np.longdouble, where np.exp is the portable version of testcases/oracle.py, so a
slope 2^(-x) is computed as exp(-x * ln 2) with ln 2 rounded to the working dtype exactly.
fractions is imported only for long double: its import would cost every judged test a millisecond
or more of the time limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from fractions import Fraction

LN_2 = "0.693147180559945309417232121458176568075500134360255254120680009493393621969694715605863"


def nearest(x: Fraction, dtype) -> np.floating:
    """The value of `dtype` nearest to the rational x > 0, from exact integer operations."""
    from fractions import Fraction

    bits = np.finfo(dtype).nmant + 1
    shift = bits - (x.numerator.bit_length() - x.denominator.bit_length())
    if x * Fraction(2) ** shift >= 2**bits:
        shift -= 1
    mantissa = round(x * Fraction(2) ** shift)  # `bits` bits (or 2**bits): exact as two halves
    hi, lo = divmod(mantissa, 2**32)
    return np.ldexp(dtype(hi) * dtype(2**32) + dtype(lo), -shift)


def slope_exponents(n: int) -> list[tuple[int, int]]:
    """x_i = a / b with slope_i = 2^(-x_i): the paper's rule, the closest power of two p <= n first."""
    p = 1 << (n.bit_length() - 1)
    exponents = [(8 * j, p) for j in range(1, p + 1)]
    exponents += [(4 * (2 * r + 1), p) for r in range(n - p)]  # odd steps of 2^(-8/(2p))
    return exponents


def ln_2(dtype) -> np.floating:
    """ln 2 in `dtype`, rounded exactly (long double from the digits, float64 from np.log)."""
    if np.dtype(dtype) == np.dtype(np.float64):
        return np.log(np.float64(2))
    from fractions import Fraction

    return nearest(Fraction(LN_2), dtype)


class Solution:
    dtype = np.float64

    def alibi_attention(self, Q, K, V):
        Q = np.asarray(Q, dtype=self.dtype)  # (h, T, d)
        K = np.asarray(K, dtype=self.dtype)
        V = np.asarray(V, dtype=self.dtype)
        h, T, d = Q.shape
        x = np.array([self.dtype(a) / self.dtype(b) for a, b in slope_exponents(h)], dtype=self.dtype)
        slopes = np.exp(-x * ln_2(self.dtype))  # (h,)

        distance = np.arange(T)[:, None] - np.arange(T)[None, :]  # t - u
        scores = Q @ K.transpose(0, 2, 1) / np.sqrt(self.dtype(d))
        scores = scores - slopes[:, None, None] * distance.astype(self.dtype)
        scores = np.where(distance >= 0, scores, -np.inf)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        return weights @ V
