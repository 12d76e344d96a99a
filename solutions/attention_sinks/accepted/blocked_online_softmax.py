# ACCEPTED: query blocks of 64; the sink part and the window part as two partial softmaxes merged online (flash-style).
import numpy as np

BLOCK = 64


def _partial(q, k, v, visible, scale):
    """Row maxima, exp-sums and weighted value sums of one masked key group (rows with no key: max -inf)."""
    if k.shape[1] == 0:  # no sinks at all
        shape = q.shape[:2] + (1,)
        return np.full(shape, -np.inf), np.zeros(shape), np.zeros_like(q)
    s = np.where(visible, q @ k.transpose(0, 2, 1) * scale, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    safe = np.where(np.isfinite(m), m, 0.0)
    p = np.exp(s - safe)
    return m, p.sum(axis=-1, keepdims=True), p @ v


class Solution:
    def attention_with_sinks(self, Q, K, V, n_sink, window):
        Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
        h, T, d = Q.shape
        scale = 1.0 / np.sqrt(d)
        out = np.empty_like(Q)
        for lo in range(0, T, BLOCK):
            hi = min(T, lo + BLOCK)
            t = np.arange(lo, hi)[:, None]
            q = Q[:, lo:hi]
            # the window part: keys from the oldest one any row of the block sees up to the block's end
            w0 = max(0, lo - window + 1)
            j = np.arange(w0, hi)[None, :]
            m1, l1, o1 = _partial(q, K[:, w0:hi], V[:, w0:hi], (j <= t) & (t - j < window), scale)
            # the sink part: only the sinks that lie before the window of a row (no key counted twice)
            ns = min(n_sink, hi)
            j = np.arange(ns)[None, :]
            m2, l2, o2 = _partial(q, K[:, :ns], V[:, :ns], (j <= t) & (t - j >= window), scale)
            m = np.maximum(m1, m2)  # finite: the window part holds the diagonal
            a1 = np.exp(np.where(np.isfinite(m1), m1 - m, -np.inf))
            a2 = np.exp(np.where(np.isfinite(m2), m2 - m, -np.inf))
            out[:, lo:hi] = (a1 * o1 + a2 * o2) / (a1 * l1 + a2 * l2)
        return out
