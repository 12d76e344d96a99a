# WRONG: the ignored rows' losses set to 0 but the sum divided by all N rows (huggingface/transformers#5919's label_smoothed_nll_loss divided by lprobs.shape[0]; eladhoffer/utils.pytorch#4).
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
        return float(np.where(kept, losses, 0.0).sum() / len(targets))
