# WRONG: the weighted sums are divided by the number of kept rows, not by the sum of their target weights (what reduction="mean" does with weight=).
import numpy as np


class Solution:
    def weighted_cross_entropy(self, logits, targets, weight, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        w = np.asarray(weight, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return 0.0
        Z, targets = Z[kept], targets[kept]
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        w_t = w[targets]
        nll = -(w_t * log_probs[np.arange(len(targets)), targets]).sum()
        smooth = -(log_probs @ w).sum() / Z.shape[1]
        return float(((1 - label_smoothing) * nll + label_smoothing * smooth) / len(targets))
