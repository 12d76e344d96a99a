"""Reference solution for the mean cross-entropy with ignore_index and label smoothing.

PyTorch's F.cross_entropy(reduction="mean"): rows whose target equals ignore_index are dropped,
each kept row's loss mixes the target's negative log-probability (weight 1 - eps) with the mean
over all C classes of theirs (weight eps), and the losses are averaged over the kept rows (0 when
none is kept, where PyTorch gives nan). The log-softmax subtracts the row maximum, so logits of
1e4 cannot overflow. `dtype` is float64 for judging; in np.longdouble the test generator's np.exp
and np.log are the portable ones (testcases/oracle.py).
"""

from __future__ import annotations

import numpy as np


class Solution:
    dtype = np.float64

    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=self.dtype)
        eps = np.asarray(label_smoothing, dtype=self.dtype)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return np.asarray(0, dtype=self.dtype)
        Z, targets = Z[kept], targets[kept]
        top = Z.max(axis=1, keepdims=True)
        log_norm = top[:, 0] + np.log(np.exp(Z - top).sum(axis=1))  # log sum_c exp(z_c)
        nll = log_norm - Z[np.arange(len(targets)), targets]  # -log p(target)
        uniform = log_norm - Z.mean(axis=1)  # (1/C) sum_c -log p(c)
        losses = (1 - eps) * nll + eps * uniform
        return losses.sum() / self.dtype(kept.sum())
