# WRONG: the softmax without the row maximum subtracted: logits of 1e4 overflow exp to inf, and inf / inf is nan.
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        with np.errstate(over="ignore", invalid="ignore"):
            probs = np.exp(logits)
            probs /= probs.sum(axis=1, keepdims=True)
        chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
        f = np.bincount(chosen.ravel(), minlength=E) / T
        return E * float(f @ probs.mean(axis=0))
