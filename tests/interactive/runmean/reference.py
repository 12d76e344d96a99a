"""Reference: keeps the running sum, so a step costs O(d)."""

import numpy as np


class Solution:
    dtype = np.float64

    def __init__(self, w, b):
        self.w = np.asarray(w, dtype=self.dtype)
        self.b = np.asarray(b, dtype=self.dtype)
        self.total = np.zeros_like(self.w)
        self.count = 0

    def step(self, x):
        self.total = self.total + np.asarray(x, dtype=self.dtype)
        self.count += 1
        return (self.total / self.count * self.w + self.b).tolist()
