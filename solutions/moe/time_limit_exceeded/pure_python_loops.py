# Correct but slow: pure-Python loops over every multiply-add, no numpy (expected: TLE on the large tests).
import math


def vec_mat(x, W):
    """x @ W for a list x and a list of rows W."""
    out = [0.0] * len(W[0])
    for k, x_k in enumerate(x):
        W_k = W[k]
        for j in range(len(out)):
            out[j] += x_k * W_k[j]
    return out


def silu(g):
    if g >= 0:
        return g / (1.0 + math.exp(-g))
    e = math.exp(g)
    return g * e / (1.0 + e)


class Solution:
    def sparse_moe(self, X, W_g, W1, W2, W3, top_k):
        out = []
        for x in X:
            logits = vec_mat(x, W_g)
            chosen = sorted(range(len(logits)), key=lambda e: (-logits[e], e))[:top_k]
            best = logits[chosen[0]]
            weights = [math.exp(logits[e] - best) for e in chosen]
            total = sum(weights)
            y = [0.0] * len(x)
            for e, w in zip(chosen, weights):
                h = [silu(g) * u for g, u in zip(vec_mat(x, W1[e]), vec_mat(x, W3[e]))]
                for j, v in enumerate(vec_mat(h, W2[e])):
                    y[j] += w / total * v
            out.append(y)
        return out
