# ACCEPTED: builds the smoothed target distribution q = (1 - eps) one_hot + eps / C, then sums w[c] q[i, c] (-log p[i, c]) over kept rows and classes.
import numpy as np


class Solution:
    def weighted_cross_entropy(self, logits, targets, weight, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        w = np.asarray(weight, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        n, c = Z.shape
        kept = targets != ignore_index
        if not kept.any():
            return 0.0
        top = Z.max(axis=1, keepdims=True)
        log_probs = Z - top - np.log(np.exp(Z - top).sum(axis=1, keepdims=True))
        q = np.full((n, c), label_smoothing / c)
        rows = np.flatnonzero(kept)
        q[rows, targets[rows]] += 1 - label_smoothing
        q[~kept] = 0
        return float(-(q * w * log_probs).sum() / w[targets[rows]].sum())
