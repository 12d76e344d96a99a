# ACCEPTED: each token's k-th largest logit as a threshold: experts above it are chosen, and equal ones fill the remaining slots from the lowest index (a cumulative sum).
import numpy as np


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        logits = np.asarray(router_logits, dtype=np.float64)
        T, E = logits.shape
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_norm = np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        probs = np.exp(shifted - log_norm)  # the softmax through a log-softmax
        kth = np.sort(logits, axis=1)[:, E - top_k][:, None]  # the k-th largest logit of each token
        above = logits > kth
        at = logits == kth
        free = top_k - above.sum(axis=1, keepdims=True)  # slots left for the experts tied at the threshold
        chosen = above | (at & (np.cumsum(at, axis=1) <= free))
        f = chosen.sum(axis=0) / T
        return E * float((f * probs.mean(axis=0)).sum())
