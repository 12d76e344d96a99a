# ACCEPTED: keeps running sums in plain lists: O(d) per step.
class Solution:
    def __init__(self, w, b):
        self.w, self.b = w, b
        self.total = [0.0] * len(w)
        self.n = 0

    def step(self, x):
        self.n += 1
        self.total = [t + v for t, v in zip(self.total, x)]
        return [t / self.n * w + b for t, w, b in zip(self.total, self.w, self.b)]
