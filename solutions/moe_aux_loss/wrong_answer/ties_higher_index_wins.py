# WRONG: the top-k as the last k of an ascending sort (np.argsort(logits)[:, -k:]): among equal logits the higher expert index wins.
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        chosen = np.argsort(logits, axis=1, kind="stable")[:, E - top_k:]
        f = np.bincount(chosen.ravel(), minlength=E) / T
        P = probs.mean(axis=0)
        return E * float(f @ P)
