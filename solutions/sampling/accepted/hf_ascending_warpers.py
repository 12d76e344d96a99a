# Accepted: the Hugging Face warper chain done right: logits / T, top-k by the k-th value with ties cut by index, top-p by an ascending sort that removes tokens whose cumulative mass from the bottom is <= 1 - top_p, masked logits set to -inf and a fresh softmax.
"""Next-token sampling as a chain of logits processors, each masking logits to -inf."""

import numpy as np


def softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


class Solution:
    def sample_next_tokens(self, logits, temperature, top_k, top_p, u):
        z = np.asarray(logits, dtype=np.float64) / temperature
        B, V = z.shape
        idx = np.arange(V)
        if 0 < top_k < V:
            # Rank by (value descending, index ascending): exactly k survive even among ties.
            rank = np.argsort(np.argsort(-z, axis=-1, kind="stable"), axis=-1, kind="stable")
            z = np.where(rank < top_k, z, -np.inf)
        if top_p < 1:
            # Ascending order with ties by higher index first, so that the lower index ranks higher.
            asc = np.lexsort((-np.broadcast_to(idx, (B, V)), z), axis=-1)
            probs = np.take_along_axis(softmax(z), asc, axis=-1)
            remove = np.cumsum(probs, axis=-1) <= 1 - top_p
            remove[:, -1] = False  # the top token always stays
            drop = np.zeros((B, V), dtype=bool)
            np.put_along_axis(drop, asc, remove, axis=-1)
            z = np.where(drop, -np.inf, z)
        probs = softmax(z)
        cdf = np.cumsum(probs, axis=-1)
        out = []
        for b in range(B):
            j = int(np.argmax(cdf[b] > u[b])) if cdf[b, -1] > u[b] else V
            if j == V:  # u = 1: the last token still in the distribution
                j = int(np.flatnonzero(np.isfinite(z[b]))[-1])
            out.append(j)
        return out
