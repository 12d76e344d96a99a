# WRONG: the scale clamped at 100 as CLIP training does (open_clip's train.py clamps logit_scale to [0, ln 100]): the loss must use s as given, up to 1000.
import numpy as np


def normalise(X):
    return X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)


def mean_nll(Z):
    """Cross-entropy of each row of Z with its own index as the target, averaged."""
    top = Z.max(axis=1, keepdims=True)
    log_norm = top[:, 0] + np.log(np.exp(Z - top).sum(axis=1))
    return np.mean(log_norm - np.diagonal(Z))


class Solution:
    def clip_loss(self, image_embeds, text_embeds, logit_scale):
        image = normalise(np.asarray(image_embeds, dtype=np.float64))
        text = normalise(np.asarray(text_embeds, dtype=np.float64))
        logits = min(logit_scale, 100.0) * (image @ text.T)
        return float((mean_nll(logits) + mean_nll(logits.T)) / 2)
