# WRONG: raw dot products, the embeddings never L2-normalised, as Zasder3/train-CLIP's training loss had it before its PR #3.
import numpy as np


def mean_nll(Z):
    """Cross-entropy of each row of Z with its own index as the target, averaged."""
    top = Z.max(axis=1, keepdims=True)
    log_norm = top[:, 0] + np.log(np.exp(Z - top).sum(axis=1))
    return np.mean(log_norm - np.diagonal(Z))


class Solution:
    def clip_loss(self, image_embeds, text_embeds, logit_scale):
        image = np.asarray(image_embeds, dtype=np.float64)
        text = np.asarray(text_embeds, dtype=np.float64)
        logits = logit_scale * (image @ text.T)
        return float((mean_nll(logits) + mean_nll(logits.T)) / 2)
