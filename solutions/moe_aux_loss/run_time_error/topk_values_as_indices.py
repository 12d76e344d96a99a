# RUN-TIME ERROR: np.sort's top-k logit values used as expert indices (sort for argsort): float indices raise IndexError.
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        chosen = np.sort(-logits, axis=1)[:, :top_k]
        mask = np.zeros_like(logits)
        mask[np.arange(T)[:, None], chosen] = 1
        return E * float(mask.mean(axis=0) @ probs.mean(axis=0))
