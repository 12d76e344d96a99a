# ACCEPTED: texts in blocks of 64: an online log-sum-exp per image (running max and rescaled sum), each block's columns finished at once.
import numpy as np

BLOCK = 64


class Solution:
    def clip_loss(self, image_embeds, text_embeds, logit_scale):
        image = np.asarray(image_embeds, dtype=np.float64)
        text = np.asarray(text_embeds, dtype=np.float64)
        image = image / np.maximum(np.linalg.norm(image, axis=1, keepdims=True), 1e-12)
        text = text / np.maximum(np.linalg.norm(text, axis=1, keepdims=True), 1e-12)
        n = len(image)
        row_max = np.full(n, -np.inf)
        row_sum = np.zeros(n)
        text_to_image = 0.0
        diagonal = logit_scale * np.einsum("ij,ij->i", image, text)
        for start in range(0, n, BLOCK):
            block = logit_scale * (image @ text[start:start + BLOCK].T)  # (n, b): every image, these texts
            new_max = np.maximum(row_max, block.max(axis=1))
            row_sum = row_sum * np.exp(row_max - new_max) + np.exp(block - new_max[:, None]).sum(axis=1)
            row_max = new_max
            col_max = block.max(axis=0)
            col_lse = col_max + np.log(np.exp(block - col_max).sum(axis=0))
            text_to_image += (col_lse - diagonal[start:start + BLOCK]).sum()
        image_to_text = (row_max + np.log(row_sum) - diagonal).sum()
        return (image_to_text + text_to_image) / (2 * n)
