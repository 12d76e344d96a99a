# ACCEPTED: one row at a time, log-sum-exp by np.logaddexp.reduce (stable at any magnitude), ignored rows skipped, the weights summed as it goes.
import numpy as np


class Solution:
    def weighted_cross_entropy(self, logits, targets, weight, ignore_index, label_smoothing):
        w = np.asarray(weight, dtype=np.float64)
        total, weight_sum = 0.0, 0.0
        for row, target in zip(logits, targets):
            if target == ignore_index:
                continue
            z = np.asarray(row, dtype=np.float64)
            neg_log_p = np.logaddexp.reduce(z) - z
            total += (1 - label_smoothing) * w[target] * neg_log_p[target]
            total += label_smoothing * float(np.dot(w, neg_log_p)) / len(z)
            weight_sum += w[target]
        return total / weight_sum if weight_sum else 0.0
