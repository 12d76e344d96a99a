# WRONG: the log-softmax taken over axis 0 (each class across the rows) instead of over the classes of a row.
import numpy as np


class Solution:
    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return 0.0
        shifted = Z - Z.max(axis=0, keepdims=True)
        log_probs = (shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True)))[kept]
        nll = -log_probs[np.arange(len(log_probs)), targets[kept]]
        return float(np.mean((1 - label_smoothing) * nll - label_smoothing * log_probs.mean(axis=1)))
