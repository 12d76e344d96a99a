# TIME LIMIT: pure Python loops, with the deviations recomputed for every element through a generator per element (O(d^2) per row).
class Solution:
    def layer_norm(self, X, gamma, beta, eps):
        out = []
        for row in X:
            d = len(row)
            out.append([(row[j] - sum(row) / d) / (sum((x - sum(row) / d) ** 2 for x in row) / d + eps) ** 0.5
                        * gamma[j] + beta[j] for j in range(d)])
        return out
