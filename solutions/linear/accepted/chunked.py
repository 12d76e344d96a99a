# ACCEPTED: chunkwise form: inside a chunk of 128 positions a small masked quadratic product, across chunks the running state (S, z).
import numpy as np

CHUNK = 128


class Solution:
    def linear_attention(self, Q, K, V):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        fq = np.where(Q > 0, Q + 1.0, np.exp(np.minimum(Q, 0.0)))
        fk = np.where(K > 0, K + 1.0, np.exp(np.minimum(K, 0.0)))
        h, T, d = Q.shape
        S = np.zeros((h, d, V.shape[-1]))
        z = np.zeros((h, d))
        out = np.empty((h, T, V.shape[-1]))
        for start in range(0, T, CHUNK):
            stop = min(start + CHUNK, T)
            q, k, v = fq[:, start:stop], fk[:, start:stop], V[:, start:stop]
            local = np.tril(q @ k.transpose(0, 2, 1))  # (h, c, c): keys of this chunk up to the query
            num = q @ S + local @ v
            den = q @ z[..., None] + local.sum(axis=-1, keepdims=True)
            out[:, start:stop] = num / den
            S += k.transpose(0, 2, 1) @ v
            z += k.sum(axis=1)
        return out
