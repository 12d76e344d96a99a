# TIME LIMIT: pure Python, the sum of squares of the row recomputed inside the comprehension for every element (O(d^2) per row).
class Solution:
    def rms_norm(self, X, gamma, eps):
        return [[x / (sum(v * v for v in row) / len(row) + eps) ** 0.5 * g for x, g in zip(row, gamma)] for row in X]
