# WRONG: smoothing gives the target 1 - eps and each other class eps / (C - 1), a common variant (awslabs/sockeye#203's off_value = eps / (V - 1)), not eps / C over all C classes.
import numpy as np


class Solution:
    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return 0.0
        Z, targets = Z[kept], targets[kept]
        n, c = Z.shape
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        q = np.full((n, c), label_smoothing / (c - 1) if c > 1 else 0.0)
        q[np.arange(n), targets] = 1 - label_smoothing
        return float(-(q * log_probs).sum() / n)
