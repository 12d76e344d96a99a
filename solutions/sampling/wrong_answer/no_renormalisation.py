# WRONG: the filtered probabilities are not renormalised before the CDF: they sum to less than 1, so a u above their sum falls past every token and the last kept token is returned instead.
"""Batched next-token sampling with temperature, top-k and top-p."""

import numpy as np


class Solution:
    def sample_next_tokens(self, logits, temperature, top_k, top_p, u):
        s = np.asarray(logits, dtype=np.float64) / temperature
        u = np.asarray(u, dtype=np.float64)
        B, V = s.shape
        rows = np.arange(B)[:, None]
        k = V if top_k == 0 else top_k
        order = np.argsort(-s, axis=1, kind="stable")  # largest first, ties by lower index
        ranked = s[rows, order]
        e = np.exp(ranked - ranked[:, :1])
        e[:, k:] = 0.0
        prob = e / e.sum(axis=1, keepdims=True)
        before = np.cumsum(prob, axis=1) - prob  # mass ranked strictly before each token
        keep = np.arange(V)[None, :] < k
        if top_p < 1:
            keep = keep & (before < top_p)
        keep[:, 0] = True
        w = np.zeros((B, V))
        w[rows, order] = np.where(keep, prob, 0.0)  # probabilities before the cut, never rescaled
        cdf = np.cumsum(w, axis=1)
        token = (cdf <= u[:, None]).sum(axis=1)
        kept = w > 0
        last = V - 1 - np.argmax(kept[:, ::-1], axis=1)
        return np.where(token >= V, last, token)
