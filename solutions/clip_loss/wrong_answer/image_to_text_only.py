# WRONG: one direction only, the image->text cross-entropy (rows); the text->image term is missing. Forgetting the .T of logits_per_text (both terms over the rows) gives this same loss.
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
        logits = logit_scale * (image @ text.T)
        return float(mean_nll(logits))
