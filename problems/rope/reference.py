"""Reference solution for rotary position embedding (RoPE) in the rotate-half convention.

Vectorised over heads and positions. `dtype` is float64 for judging; the test generator re-runs it
in np.longdouble, where np.exp, np.sin and np.cos are the portable versions of testcases/oracle.py.
The base is an argument, so ln(base) cannot be a constant: in long double it is computed from the
base's exact binary value with the decimal module (40 digits) and rounded to the working dtype
exactly, which is the same on every machine (the C library's long double log is not); in float64
np.log is exact enough. The frequencies are then exp(-(2i / d) * ln base) instead of a power.
decimal and fractions are imported only for long double: their import would cost every judged
test a few milliseconds of the time limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from fractions import Fraction


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


def ln(value, dtype) -> np.floating:
    """ln(value) for value > 1: np.log in float64, correctly rounded from 40 digits in long double."""
    if np.dtype(dtype) == np.dtype(np.float64):
        return np.log(np.float64(value))
    import decimal
    from fractions import Fraction

    numerator, denominator = (dtype(value)).as_integer_ratio()
    with decimal.localcontext() as context:
        context.prec = 40
        logarithm = (decimal.Decimal(numerator) / decimal.Decimal(denominator)).ln()
    return nearest(Fraction(logarithm), dtype)


class Solution:
    dtype = np.float64

    def rotary_embedding(self, q, k, positions, base):
        q = np.asarray(q, dtype=self.dtype)  # (num_heads, T, d)
        k = np.asarray(k, dtype=self.dtype)
        d = q.shape[-1]
        half = d // 2

        # theta_i = base^(-2i/d) for i = 0 .. d/2 - 1, as an exp of a logarithm (see the docstring).
        exponents = np.arange(0, d, 2, dtype=self.dtype) / self.dtype(d)
        inv_freq = np.exp(-exponents * ln(base, self.dtype))
        angles = np.asarray(positions, dtype=self.dtype)[:, None] * inv_freq  # (T, d/2)
        cos, sin = np.cos(angles), np.sin(angles)

        def rotate(x):  # pair (i, i + d/2) turned by angle[t, i], counter-clockwise
            x1, x2 = x[..., :half], x[..., half:]
            return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)

        return np.stack([rotate(q), rotate(k)])
