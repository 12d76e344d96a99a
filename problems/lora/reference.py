"""Reference solution for a LoRA-adapted linear layer with PEFT's scaling alpha / r.

The adapter is applied as (X A) B, never as X (A B): the low-rank route costs T r (d_in + d_out)
instead of d_in d_out (T + r). `dtype` is float64 for judging; the test generator re-runs it in
np.longdouble.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def lora_linear(self, X, W, b, A, B, alpha):
        X = np.asarray(X, dtype=self.dtype)  # (T, d_in)
        W = np.asarray(W, dtype=self.dtype)  # (d_in, d_out)
        b = np.asarray(b, dtype=self.dtype)  # (d_out,)
        A = np.asarray(A, dtype=self.dtype)  # (d_in, r)
        B = np.asarray(B, dtype=self.dtype)  # (r, d_out)
        scaling = self.dtype(alpha) / self.dtype(A.shape[1])
        return X @ W + b + scaling * ((X @ A) @ B)
