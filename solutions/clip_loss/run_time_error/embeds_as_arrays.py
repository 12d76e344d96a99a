# RUN-TIME ERROR: transposes text_embeds with .T as if it were an array, but it arrives as a Python list (AttributeError).
import numpy as np


class Solution:
    def clip_loss(self, image_embeds, text_embeds, logit_scale):
        image = np.asarray(image_embeds, dtype=np.float64)
        image = image / np.maximum(np.linalg.norm(image, axis=1, keepdims=True), 1e-12)
        text = text_embeds.T / np.maximum(np.linalg.norm(text_embeds, axis=1), 1e-12)
        logits = logit_scale * image @ text
        shifted = logits - logits.max(axis=1, keepdims=True)
        rows = np.log(np.exp(shifted).sum(axis=1)) - np.diagonal(shifted)
        shifted = logits - logits.max(axis=0, keepdims=True)
        cols = np.log(np.exp(shifted).sum(axis=0)) - np.diagonal(shifted)
        return float((rows.mean() + cols.mean()) / 2)
