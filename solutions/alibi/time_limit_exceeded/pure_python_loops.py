# TIME LIMIT: plain Python loops over heads, queries, keys and coordinates: O(h T^2 d) interpreted steps.
import math


class Solution:
    def alibi_attention(self, Q, K, V):
        h, T, d = len(Q), len(Q[0]), len(Q[0][0])
        p = 1
        while p * 2 <= h:
            p *= 2
        out = []
        for i in range(h):
            m = 2.0 ** -(8.0 * (i + 1) / p if i < p else 4.0 * (2 * (i - p) + 1) / p)
            rows = []
            for t in range(T):
                scores = []
                for u in range(t + 1):
                    dot = 0.0
                    for c in range(d):
                        dot += Q[i][t][c] * K[i][u][c]
                    scores.append(dot / math.sqrt(d) - m * (t - u))
                top = max(scores)
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights)
                row = [0.0] * d
                for u, w in enumerate(weights):
                    for c in range(d):
                        row[c] += w / total * V[i][u][c]
                rows.append(row)
            out.append(rows)
        return out
