# TIME LIMIT: pure Python loops that score every (query, key) pair of every head and mask afterwards: O(h T^2 d) interpreted steps.
import math


class Solution:
    def attention_with_sinks(self, Q, K, V, n_sink, window):
        out = []
        for q_head, k_head, v_head in zip(Q, K, V):
            d = len(q_head[0])
            rows = []
            for t, q in enumerate(q_head):
                scores = [sum(a * b for a, b in zip(q, k)) / math.sqrt(d) for k in k_head]
                keep = [j for j in range(len(k_head)) if j <= t and (j < n_sink or t - j < window)]
                top = max(scores[j] for j in keep)
                weights = {j: math.exp(scores[j] - top) for j in keep}
                total = sum(weights.values())
                rows.append([sum(weights[j] * v_head[j][c] for j in keep) / total for c in range(d)])
            out.append(rows)
        return out
