# Bug: np.searchsorted returns n (one past the kept tokens) when u = 1 exceeds every cumulative probability, and ids[n] raises IndexError: the u = 1 rule (the last kept token) is missing.
"""Next-token sampling, row by row."""

import numpy as np


class Solution:
    def sample_next_tokens(self, logits, temperature, top_k, top_p, u):
        x = np.asarray(logits, dtype=np.float64)
        out = []
        for row, r in zip(x, u):
            s = row / temperature
            V = s.size
            k = V if top_k == 0 or top_k > V else top_k
            order = np.lexsort((np.arange(V), -s))[:k]  # top k, largest first, ties by lower index
            p = np.exp(s[order] - s[order[0]])
            p /= p.sum()
            mass_before = np.concatenate(([0.0], np.cumsum(p)[:-1]))
            n = k if top_p >= 1 else max(1, int(np.count_nonzero(mass_before < top_p)))
            ids = np.sort(order[:n])  # the kept tokens, in id order
            w = np.exp(s[ids] - s[order[0]])
            cdf = np.cumsum(w / w.sum())
            j = int(np.searchsorted(cdf, r, side="right"))  # first cumulative > r
            out.append(int(ids[j]))
        return out
