# WRONG: log-sum-exp without the maximum subtracted: with s = 1000 the logits reach 1000, exp overflows to inf and the loss to inf or nan.
import numpy as np


def normalise(X):
    return X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)


def mean_nll(Z):
    """Cross-entropy of each row of Z with its own index as the target, averaged."""
    with np.errstate(all="ignore"):
        log_norm = np.log(np.exp(Z).sum(axis=1))
    return np.mean(log_norm - np.diagonal(Z))


class Solution:
    def clip_loss(self, image_embeds, text_embeds, logit_scale):
        image = normalise(np.asarray(image_embeds, dtype=np.float64))
        text = normalise(np.asarray(text_embeds, dtype=np.float64))
        logits = logit_scale * (image @ text.T)
        return float((mean_nll(logits) + mean_nll(logits.T)) / 2)
