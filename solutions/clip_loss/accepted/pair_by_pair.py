# ACCEPTED: one image and one text at a time: row i and column i of the logits, each with np.logaddexp.reduce, never the N x N matrix.
import numpy as np


class Solution:
    def clip_loss(self, image_embeds, text_embeds, logit_scale):
        image = np.asarray(image_embeds, dtype=np.float64)
        text = np.asarray(text_embeds, dtype=np.float64)
        image = image / np.maximum(np.sqrt(np.einsum("ij,ij->i", image, image)), 1e-12)[:, None]
        text = text / np.maximum(np.sqrt(np.einsum("ij,ij->i", text, text)), 1e-12)[:, None]
        n = len(image)
        total = 0.0
        for i in range(n):
            row = logit_scale * (text @ image[i])  # image i against every text
            col = logit_scale * (image @ text[i])  # text i against every image
            target = row[i]
            total += (np.logaddexp.reduce(row) - target) + (np.logaddexp.reduce(col) - target)
        return total / (2 * n)
