# ACCEPTED: the RNN form in plain Python, no numpy: per head a d x d_v state S and a d-vector z updated once per position, O(T d d_v).
"""Causal linear attention as a recurrence over the positions, one head at a time."""
import math


def phi(x):
    """elu(x) + 1, each branch computed directly so that x far below 0 keeps its exp."""
    return x + 1.0 if x > 0 else math.exp(x)


class Solution:
    def linear_attention(self, Q, K, V):
        out = []
        for q_head, k_head, v_head in zip(Q, K, V):
            d, d_v = len(q_head[0]), len(v_head[0])
            state = [[0.0] * d_v for _ in range(d)]
            z = [0.0] * d
            rows = []
            for q, k, v in zip(q_head, k_head, v_head):
                fk = [phi(float(x)) for x in k]
                fq = [phi(float(x)) for x in q]
                for a in range(d):
                    row, f = state[a], fk[a]
                    for b in range(d_v):
                        row[b] += f * v[b]
                    z[a] += f
                norm = sum(fq[a] * z[a] for a in range(d))
                rows.append([sum(fq[a] * state[a][b] for a in range(d)) / norm for b in range(d_v)])
            out.append(rows)
        return out
