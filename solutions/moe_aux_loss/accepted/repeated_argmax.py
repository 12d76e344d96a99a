# ACCEPTED: top_k passes of argmax (its first maximum is the lower index), each chosen expert masked to -inf: O(top_k T E).
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        remaining = logits.copy()
        counts = np.zeros(E)
        rows = np.arange(T)
        for _ in range(top_k):
            best = remaining.argmax(axis=1)
            counts += np.bincount(best, minlength=E)
            remaining[rows, best] = -np.inf
        return E * float(np.dot(counts / T, probs.sum(axis=0) / T))
