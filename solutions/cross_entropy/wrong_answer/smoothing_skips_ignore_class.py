# WRONG: the smoothing mean leaves out the class ignore_index (OpenNMT-py's LabelSmoothingLoss zeroes that class in its smoothed target; OpenNMT/OpenNMT#570): PyTorch spreads eps / C over all C classes.
import numpy as np


class Solution:
    def cross_entropy(self, logits, targets, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return 0.0
        Z, targets = Z[kept], targets[kept]
        c = Z.shape[1]
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        nll = -log_probs[np.arange(len(targets)), targets]
        classes = np.arange(c) != ignore_index
        uniform = -log_probs[:, classes].mean(axis=1) if classes.any() else np.zeros(len(targets))
        return float(np.mean((1 - label_smoothing) * nll + label_smoothing * uniform))
