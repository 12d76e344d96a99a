# WRONG: f taken from the probabilities (the mean router probability of each expert) instead of counting the tokens routed to it: E * sum(P^2).
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
        f = probs.mean(axis=0)
        P = probs.mean(axis=0)
        return E * float(f @ P)
