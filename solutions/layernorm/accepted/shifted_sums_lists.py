# ACCEPTED: plain Python lists; sums of x - K and (x - K)^2 with the shift K = the row's first element (shifted data: no cancellation).
import math


class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        out = []
        for row in X:
            d = len(row)
            shift = float(row[0])
            s = s2 = 0.0
            for x in row:
                y = x - shift
                s += y
                s2 += y * y
            mean_shifted = s / d
            variance = max(s2 / d - mean_shifted * mean_shifted, 0.0)
            inv_std = 1.0 / math.sqrt(variance + eps)
            mean = shift + mean_shifted
            out.append([(x - mean) * inv_std * g + b for x, g, b in zip(row, gamma, beta)])
        return out
