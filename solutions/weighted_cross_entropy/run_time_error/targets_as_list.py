# RUN-TIME ERROR: indexes targets[:, None] as if it were an array, but it arrives as a Python list (TypeError).
import numpy as np


class Solution:
    def weighted_cross_entropy(self, logits, targets, weight, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        w = np.asarray(weight, dtype=np.float64)
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        picked = np.take_along_axis(log_probs, targets[:, None], axis=1)[:, 0]
        kept = np.asarray(targets) != ignore_index
        w_t = w[np.asarray(targets)[kept]]
        nll = -(w_t * picked[kept]).sum()
        smooth = -(log_probs[kept] @ w).sum() / Z.shape[1]
        return float(((1 - label_smoothing) * nll + label_smoothing * smooth) / w_t.sum()) if kept.any() else 0.0
