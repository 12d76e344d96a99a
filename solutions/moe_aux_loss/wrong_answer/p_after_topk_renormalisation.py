# WRONG: P from the routing weights, a softmax over the chosen top-k logits only (0 elsewhere), as transformers' Mixtral load_balancing_loss_func had it (issues #28021 and #28093: "always returns a constant") and maxtext before PR #1433.
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
        top = np.take_along_axis(logits, chosen, axis=1)
        weights = np.exp(top - top[:, :1])
        weights /= weights.sum(axis=1, keepdims=True)
        routing = np.zeros_like(logits)
        np.put_along_axis(routing, chosen, weights, axis=1)
        f = np.bincount(chosen.ravel(), minlength=E) / T
        return E * float(f @ routing.mean(axis=0))
