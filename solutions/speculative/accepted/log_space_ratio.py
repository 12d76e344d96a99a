# Accepted: log-softmax of both models via log-sum-exp, the acceptance ratio as exp(log p - log q) compared without a min (u <= 1 anyway), the residual accumulated in id order with a running sum.
"""Speculative decoding's verification step in log space."""

import numpy as np


def log_softmax(z):
    m = z.max(axis=-1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=-1, keepdims=True))


class Solution:
    def verify_draft(self, draft_tokens, draft_logits, target_logits, u_accept, u_sample):
        lq = log_softmax(np.asarray(draft_logits, dtype=np.float64))
        lp = log_softmax(np.asarray(target_logits, dtype=np.float64))
        K, V = lq.shape
        tokens = []
        for i in range(K):
            x = int(draft_tokens[i])
            if u_accept[i] <= np.exp(lp[i, x] - lq[i, x]):
                tokens.append(x)
                continue
            w = np.clip(np.exp(lp[i]) - np.exp(lq[i]), 0.0, None)
            break
        else:
            w = np.exp(lp[K])
        target = u_sample * w.sum()  # compare with the unnormalised running sum
        cdf = np.cumsum(w)
        above = np.flatnonzero(cdf > target)
        tokens.append(int(above[0]) if above.size else int(np.flatnonzero(w > 0)[-1]))
        return tokens + [-1] * (K + 1 - len(tokens))
