# ACCEPTED: numpy, the running sum in an array.
import numpy as np


class Solution:
    def __init__(self, w, b):
        self.w, self.b = np.asarray(w, dtype=float), np.asarray(b, dtype=float)
        self.total, self.n = np.zeros(len(w)), 0

    def step(self, x):
        self.total += np.asarray(x, dtype=float)
        self.n += 1
        return self.total / self.n * self.w + self.b
