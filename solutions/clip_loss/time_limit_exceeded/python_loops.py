# TIME LIMIT: pure Python loops: every cosine similarity as a Python sum over d, and each row's and column's log-sum-exp over lists (O(N^2 d) interpreted steps).
import math


class Solution:
    def clip_loss(self, image_embeds, text_embeds, logit_scale):
        def unit(row):
            norm = max(math.sqrt(sum(x * x for x in row)), 1e-12)
            return [x / norm for x in row]

        image = [unit(r) for r in image_embeds]
        text = [unit(r) for r in text_embeds]
        n = len(image)
        logits = [[logit_scale * sum(a * b for a, b in zip(image[i], text[j])) for j in range(n)] for i in range(n)]

        def lse(values):
            top = max(values)
            return top + math.log(sum(math.exp(v - top) for v in values))

        total = 0.0
        for i in range(n):
            total += lse(logits[i]) - logits[i][i]
            total += lse([logits[k][i] for k in range(n)]) - logits[i][i]
        return total / (2 * n)
