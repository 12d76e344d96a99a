# WRONG: divides by the number of kept rows with no guard: nan (0 / 0) when every target is ignored, PyTorch's own result, which the statement replaces by 0.
import numpy as np


class Solution:
    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        nll = -log_probs[np.arange(len(targets)), targets]
        losses = (1 - label_smoothing) * nll - label_smoothing * log_probs.mean(axis=1)
        with np.errstate(all="ignore"):
            return float(np.where(kept, losses, 0.0).sum() / np.float64(kept.sum()))
