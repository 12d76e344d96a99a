# WRONG: the smoothing term is divided by the target weights of every row, ignored ones included: pytorch/pytorch issue #69339, fixed by PR #69511 (LossNLL.cpp used weight.gather(0, target.flatten()).sum()).
import numpy as np


class Solution:
    def weighted_cross_entropy(self, logits, targets, weight, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        w = np.asarray(weight, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return 0.0
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        rows = np.flatnonzero(kept)
        w_t = w[targets[rows]]
        nll = -(w_t * log_probs[rows, targets[rows]]).sum() / w_t.sum()
        smooth = -(log_probs[rows] @ w).sum() / Z.shape[1] / w[targets].sum()
        return float((1 - label_smoothing) * nll + label_smoothing * smooth)
