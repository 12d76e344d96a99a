# WRONG: the Szegedy/TF convention, the target gets 1 - eps and each other class eps / (C - 1), not eps / C over all classes; fastai PR #1814 and awslabs/sockeye PR #203 (sockeye/loss.py off_value eps / (V - 1)) show both conventions in the wild.
import numpy as np


class Solution:
    def weighted_cross_entropy(self, logits, targets, weight, ignore_index, label_smoothing):
        Z = np.asarray(logits, dtype=np.float64)
        w = np.asarray(weight, dtype=np.float64)
        targets = np.asarray(targets, dtype=np.int64)
        kept = targets != ignore_index
        if not kept.any():
            return 0.0
        Z, targets = Z[kept], targets[kept]
        shifted = Z - Z.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        w_t = w[targets]
        nll = -(w_t * log_probs[np.arange(len(targets)), targets]).sum()
        C = Z.shape[1]
        others = -(log_probs @ w) + w_t * log_probs[np.arange(len(targets)), targets]
        smooth = others.sum() / (C - 1) if C > 1 else 0.0
        return float(((1 - label_smoothing) * nll + label_smoothing * smooth) / w_t.sum())
