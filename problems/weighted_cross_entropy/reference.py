"""Reference solution for the class-weighted mean cross-entropy with ignore_index and label smoothing.

PyTorch's F.cross_entropy(weight=w, reduction="mean"): rows whose target equals ignore_index are
dropped; a kept row's target term is w[y] * -log p(y) and its smoothing term sum_c w[c] * -log p(c);
the loss is (1 - eps) times the sum of target terms plus eps / C times the sum of smoothing terms,
both divided by the sum of the kept rows' target weights (0 when no row is kept, where PyTorch
gives nan). The log-softmax subtracts the row maximum, so logits of 1e4 cannot overflow. `dtype`
is float64 for judging; in np.longdouble the generator's np.exp and np.log are the portable ones.
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def weighted_cross_entropy(self, logits, targets, weight, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=self.dtype)
        w = np.asarray(weight, dtype=self.dtype)
        eps = np.asarray(label_smoothing, dtype=self.dtype)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return np.asarray(0, dtype=self.dtype)
        Z, targets = Z[kept], targets[kept]
        C = Z.shape[1]
        top = Z.max(axis=1, keepdims=True)
        log_norm = top + np.log(np.exp(Z - top).sum(axis=1, keepdims=True))
        neg_log_p = log_norm - Z  # -log p(c), every kept row and class
        w_target = w[targets]
        target_sum = (w_target * neg_log_p[np.arange(len(targets)), targets]).sum()
        smooth_sum = (neg_log_p * w).sum()
        return ((1 - eps) * target_sum + eps / self.dtype(C) * smooth_sum) / w_target.sum()
