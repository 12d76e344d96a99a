# Correct but slow: pure-Python loops over every multiply-add, no numpy (expected: TLE on the large tests).
import math


def matmul(A, B):
    """A @ B, accumulating each row of the result from the rows of B."""
    out = []
    for a in A:
        row = [0.0] * len(B[0])
        for k, a_k in enumerate(a):
            B_k = B[k]
            for j in range(len(row)):
                row[j] += a_k * B_k[j]
        out.append(row)
    return out


def rms_norm(Z, g):
    out = []
    for z in Z:
        r = math.sqrt(sum(v * v for v in z) / len(z) + 1e-5)
        out.append([v / r * g_j for v, g_j in zip(z, g)])
    return out


def silu(x):
    if x >= 0:
        return x / (1.0 + math.exp(-x))
    e = math.exp(x)
    return x * e / (1.0 + e)


class Solution:
    def llama_decoder_block(self, X, g_attn, W_Q, W_K, W_V, W_O, num_heads, num_kv_heads, g_ffn, W1, W2, W3):
        T, d_model = len(X), len(X[0])
        d = d_model // num_heads
        half = d // 2
        group = num_heads // num_kv_heads
        inv_freq = [10000.0 ** (-2.0 * i / d) for i in range(half)]

        def rotate(row, t, count):
            out = list(row)
            for h in range(count):
                base = h * d
                for i in range(half):
                    c, s = math.cos(t * inv_freq[i]), math.sin(t * inv_freq[i])
                    a, b = row[base + i], row[base + half + i]
                    out[base + i] = a * c - b * s
                    out[base + half + i] = b * c + a * s
            return out

        A = rms_norm(X, g_attn)
        Q = [rotate(r, t, num_heads) for t, r in enumerate(matmul(A, W_Q))]
        K = [rotate(r, t, num_kv_heads) for t, r in enumerate(matmul(A, W_K))]
        V = matmul(A, W_V)
        attn = [[0.0] * d_model for _ in range(T)]
        scale = math.sqrt(d)
        for h in range(num_heads):
            qo, ko = h * d, (h // group) * d
            for t in range(T):
                scores = []
                for u in range(t + 1):
                    acc = 0.0
                    for c in range(d):
                        acc += Q[t][qo + c] * K[u][ko + c]
                    scores.append(acc / scale)
                top = max(scores)
                w = [math.exp(x - top) for x in scores]
                total = sum(w)
                for c in range(d):
                    acc = 0.0
                    for u in range(t + 1):
                        acc += w[u] * V[u][ko + c]
                    attn[t][qo + c] = acc / total
        H = [[x + o for x, o in zip(xr, orow)] for xr, orow in zip(X, matmul(attn, W_O))]
        B = rms_norm(H, g_ffn)
        gated = [[silu(g) * u for g, u in zip(gr, ur)] for gr, ur in zip(matmul(B, W1), matmul(B, W3))]
        return [[h + f for h, f in zip(hr, fr)] for hr, fr in zip(H, matmul(gated, W2))]
