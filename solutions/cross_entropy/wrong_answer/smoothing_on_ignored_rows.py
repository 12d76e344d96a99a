# WRONG: the uniform (smoothing) part summed over the ignored rows too, only the target part masked: PyTorch's own bug, pytorch/pytorch#73205.
import numpy as np


class Solution:
    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        count = int(kept.sum())
        if count == 0:
            return 0.0
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        nll = np.where(kept, -log_probs[np.arange(len(targets)), targets], 0.0)
        uniform = -log_probs.mean(axis=1)
        return float(((1 - label_smoothing) * nll.sum() + label_smoothing * uniform.sum()) / count)
