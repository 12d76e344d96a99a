# TIME LIMIT: recomputes the whole log-softmax for every class to read that class's column for the smoothing sum (O(N C^2), not O(N C)).
import numpy as np


class Solution:
    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        n, c = Z.shape
        kept = targets != ignore_index
        if not kept.any():
            return 0.0

        def log_softmax(z):
            shifted = z - z.max(axis=1, keepdims=True)
            return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))

        uniform = np.zeros(n)
        for k in range(c):
            uniform -= log_softmax(Z)[:, k] / c
        nll = -log_softmax(Z)[np.arange(n), targets]
        losses = (1 - label_smoothing) * nll + label_smoothing * uniform
        return float(losses[kept].mean())
