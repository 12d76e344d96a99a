# Correct but slow: each probability p_i(v) is looked up through a fresh softmax of the whole row, so building the residual (or the bonus row) costs O(V^2) per row (expected: TLE on the V = 32000 test).
"""Speculative decoding's verification step, one probability at a time."""

import numpy as np


def prob(row, v):
    """The softmax of the row, taken at id v (recomputed at every call)."""
    e = np.exp(row - row.max())
    return e[v] / e.sum()


class Solution:
    def verify_draft(self, draft_tokens, draft_logits, target_logits, u_accept, u_sample):
        d = np.asarray(draft_logits, dtype=np.float64)
        t = np.asarray(target_logits, dtype=np.float64)
        K, V = d.shape
        out = []
        for i in range(K):
            x = draft_tokens[i]
            if u_accept[i] * prob(d[i], x) <= prob(t[i], x):
                out.append(x)
                continue
            w = [max(0.0, prob(t[i], v) - prob(d[i], v)) for v in range(V)]
            break
        else:
            w = [prob(t[K], v) for v in range(V)]
        total = sum(w)
        running, token = 0.0, max(v for v in range(V) if w[v] > 0)
        for v in range(V):
            running += w[v] / total
            if running > u_sample:
                token = v
                break
        out.append(token)
        return out + [-1] * (K + 1 - len(out))
