# WRONG: the factor E (the number of experts) left out: sum_e f_e P_e, which is top_k / E rather than top_k at a uniform routing.
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
        f = np.bincount(chosen.ravel(), minlength=E) / T
        P = probs.mean(axis=0)
        return float(f @ P)
