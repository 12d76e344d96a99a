# WRONG: label_smoothing ignored: the plain mean negative log-likelihood of the targets.
import numpy as np


class Solution:
    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return 0.0
        Z, targets = Z[kept], targets[kept]
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        return float(-np.mean(log_probs[np.arange(len(targets)), targets]))
