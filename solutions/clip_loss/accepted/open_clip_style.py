# ACCEPTED: open_clip's ClipLoss: normalise, logits_per_image = s * I @ T.T, logits_per_text its transpose, mean of two cross-entropies.
import numpy as np


def cross_entropy_diagonal(logits):
    """F.cross_entropy(logits, arange(N)): log-softmax over each row, the row's own index as target."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -np.mean(np.diagonal(log_probs))


class Solution:
    def clip_loss(self, image_embeds, text_embeds, logit_scale):
        image = np.asarray(image_embeds, dtype=np.float64)
        text = np.asarray(text_embeds, dtype=np.float64)
        image = image / np.maximum(np.linalg.norm(image, axis=1, keepdims=True), 1e-12)
        text = text / np.maximum(np.linalg.norm(text, axis=1, keepdims=True), 1e-12)
        logits_per_image = logit_scale * image @ text.T
        logits_per_text = logits_per_image.T
        return float((cross_entropy_diagonal(logits_per_image) + cross_entropy_diagonal(logits_per_text)) / 2)
