# ACCEPTED: plain Python lists, the sum of squares by math.fsum (exactly rounded).
import math


class Solution:
    def rms_norm(self, X, gamma, eps):
        out = []
        for row in X:
            scale = 1.0 / math.sqrt(math.fsum(x * x for x in row) / len(row) + eps)
            out.append([x * scale * g for x, g in zip(row, gamma)])
        return out
