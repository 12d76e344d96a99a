"""Reference solution for the SwiGLU feed-forward block of LLaMA.

Three matrix products and one elementwise SiLU, written as g / (1 + exp(-g)): for g far below 0,
exp(-g) overflows to inf and the quotient is -0.0 (right: silu(g) tends to 0), and for g far above
0, exp(-g) is 0 and the quotient is g, so no NaN can appear. `dtype` is float64 for judging; the
test generator re-runs it in np.longdouble, where np.exp is the portable exp of testcases/oracle.py.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def swiglu_feed_forward(self, X, W1, W2, W3):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X = f(X)
        G = X @ f(W1)  # (T, d_ff): the gate, through SiLU
        U = X @ f(W3)  # (T, d_ff): the up projection
        with np.errstate(over="ignore"):  # exp(-g) = inf for g < -709.78 in float64: silu is -0.0 there
            silu = G / (1 + np.exp(-G))
        return ((silu * U) @ f(W2)).tolist()
