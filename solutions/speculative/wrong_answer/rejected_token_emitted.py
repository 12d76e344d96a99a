# WRONG: the rejected draft token is emitted too, followed by the corrected token, so the output holds one token too many after a rejection.
"""Speculative decoding's verification step."""

import numpy as np


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def inverse_cdf(w, u):
    """First id whose cumulative probability exceeds u; the last id of positive probability if none."""
    cdf = np.cumsum(w / w.sum())
    j = int(np.searchsorted(cdf, u, side="right"))
    return j if j < len(w) else int(np.flatnonzero(w > 0)[-1])


class Solution:
    def verify_draft(self, draft_tokens, draft_logits, target_logits, u_accept, u_sample):
        q = softmax(np.asarray(draft_logits, dtype=np.float64))
        p = softmax(np.asarray(target_logits, dtype=np.float64))
        K = q.shape[0]
        out = [-1] * (K + 1)
        for i, x in enumerate(draft_tokens):
            if u_accept[i] <= min(1.0, p[i, x] / q[i, x]):
                out[i] = x
            else:
                out[i] = x
                out[i + 1] = inverse_cdf(np.maximum(p[i] - q[i], 0.0), u_sample)
                return out
        out[K] = inverse_cdf(p[K], u_sample)
        return out
