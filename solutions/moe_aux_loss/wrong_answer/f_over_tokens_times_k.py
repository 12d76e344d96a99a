# WRONG: f divided by T * top_k (each expert's share of the token-slot assignments), the normalisation of Megatron-LM's switch aux loss (NVIDIA/Megatron-LM issue #1561) and of the dim=(0, 1) mean proposed in transformers issue #33639, not Hugging Face's mean over tokens.
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]
        f = np.bincount(chosen.ravel(), minlength=E) / (T * top_k)
        P = probs.mean(axis=0)
        return E * float(f @ P)
