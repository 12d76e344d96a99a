# Accepted: one row at a time, only the rows the verification reaches (the draft's softmax and the target's for position i, then the residual or row K); the token by a linear scan of the cumulative sum.
"""Speculative decoding's verification step, computing each row only when it is needed."""

import numpy as np


def probs(row):
    z = np.asarray(row, dtype=np.float64)
    e = np.exp(z - z.max())
    return e / e.sum()


def scan(w, u):
    """Inverse CDF over ids in order: the first whose cumulative probability exceeds u."""
    w = w / w.sum()
    total = 0.0
    last = 0
    for v, wv in enumerate(w.tolist()):
        if wv > 0:
            last = v
            total += wv
            if total > u:
                return v
    return last  # u = 1: the last id of positive probability


class Solution:
    def verify_draft(self, draft_tokens, draft_logits, target_logits, u_accept, u_sample):
        K = len(draft_tokens)
        out = []
        for i in range(K):
            p, q = probs(target_logits[i]), probs(draft_logits[i])
            x = draft_tokens[i]
            if u_accept[i] * q[x] <= p[x]:
                out.append(x)
            else:
                out.append(scan(np.where(p > q, p - q, 0.0), u_sample))
                break
        else:
            out.append(scan(probs(target_logits[K]), u_sample))
        return out + [-1] * (K + 1 - len(out))
