"""Reference solution for RMS normalization over the last axis (LLaMA's RMSNorm).

Each row is divided by the root of its mean square plus eps, then multiplied by the weight per
feature. `dtype` is float64 for judging; the test generator re-runs it in np.longdouble (only
+ - * / and sqrt here: portable).
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def rms_norm(self, X, gamma, eps):
        f = lambda a: np.asarray(a, dtype=self.dtype)  # noqa: E731
        X, gamma, eps = f(X), f(gamma), f(eps)
        mean_square = (X * X).mean(axis=-1, keepdims=True)
        return X / np.sqrt(mean_square + eps) * gamma
