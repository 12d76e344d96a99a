# Correct but slow: no sort; each token's rank is counted against the whole row (how many tokens beat it) and its top-p mass summed over the tokens ranked before it, O(V^2) per row (expected: TLE on the V = 32000 test).
"""Next-token sampling, ranks found by counting instead of sorting."""

import numpy as np


class Solution:
    def sample_next_tokens(self, logits, temperature, top_k, top_p, u):
        x = np.asarray(logits, dtype=np.float64)
        out = []
        for row, r in zip(x, u):
            s = row / temperature
            V = s.size
            k = V if top_k == 0 else top_k
            idx = np.arange(V)
            # rank of token i: tokens with a larger scaled logit, plus equal ones with a lower id
            rank = np.array([np.count_nonzero(s > s[i]) + np.count_nonzero(s[:i] == s[i]) for i in range(V)])
            e = np.where(rank < k, np.exp(s - s.max()), 0.0)
            p = e / e.sum()
            keep = rank < k
            if top_p < 1:
                before = np.array([p[rank < rank[i]].sum() for i in range(V)])
                keep &= (before < top_p) | (rank == 0)
            w = np.where(keep, e, 0.0)
            cdf = np.cumsum(w / w.sum())
            j = int(np.count_nonzero(cdf <= r))
            out.append(j if j < V else int(idx[keep][-1]))
        return out
