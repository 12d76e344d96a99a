"""Reference solution for layer normalization over the last axis.

Two passes per row: the mean, then the mean of the squared deviations from it (the biased
variance), so that rows far from 0 lose nothing to cancellation. `dtype` is float64 for judging;
the test generator re-runs it in np.longdouble (only + - * / and sqrt here: portable).
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def layer_norm(self, X, gamma, beta, eps):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X, gamma, beta, eps = f(X), f(gamma), f(beta), f(eps)
        centred = X - X.mean(axis=-1, keepdims=True)
        variance = (centred * centred).mean(axis=-1, keepdims=True)
        return centred / np.sqrt(variance + eps) * gamma + beta
