# WRONG: ignores the rows whose target is negative (PyTorch's default ignore_index -100 hard-coded) instead of those equal to ignore_index.
import numpy as np


class Solution:
    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets >= 0
        if not kept.any():
            return 0.0
        Z, targets = Z[kept], targets[kept]
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        nll = -log_probs[np.arange(len(targets)), targets]
        return float(np.mean((1 - label_smoothing) * nll - label_smoothing * log_probs.mean(axis=1)))
