# WRONG: returns the answer for every row so far instead of the last one.
import numpy as np


class Solution:
    def __init__(self, w, b):
        self.w, self.b = np.asarray(w, dtype=float), np.asarray(b, dtype=float)
        self.rows = []

    def step(self, x):
        self.rows.append(np.asarray(x, dtype=float))
        means = np.cumsum(self.rows, axis=0) / np.arange(1, len(self.rows) + 1)[:, None]
        return means * self.w + self.b
