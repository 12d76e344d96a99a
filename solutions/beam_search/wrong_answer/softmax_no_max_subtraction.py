# Bug: the log-softmax takes exp of the raw logits, no row maximum subtracted: exp(10000) overflows to inf and every log-probability of that row turns nan.
"""Beam search over a bigram model, one vectorised step at a time."""

import numpy as np


class Solution:
    def beam_search(self, logits, start, eos, k, n, alpha):
        Z = np.asarray(logits, dtype=np.float64)
        V = Z.shape[0]
        top = Z.max(axis=1, keepdims=True)
        L = Z - np.log(np.exp(Z).sum(axis=1, keepdims=True))
        seqs = np.zeros((1, 0), dtype=np.int64)
        scores = np.zeros(1)
        last = np.array([start])
        hyps = []
        for _ in range(n):
            cand = (scores[:, None] + L[last]).ravel()
            chosen = np.argsort(-cand, kind="stable")[:k]
            beam, tok = chosen // V, chosen % V
            seqs = np.concatenate([seqs[beam], tok[:, None]], axis=1)
            scores = cand[chosen]
            done = tok == eos
            hyps += [(s, list(t)) for s, t in zip(scores[done], seqs[done])]
            seqs, scores, last = seqs[~done], scores[~done], tok[~done]
            if len(last) == 0:
                break
        hyps += [(s, list(t)) for s, t in zip(scores, seqs)]
        best = min(hyps, key=lambda h: (-h[0] / len(h[1]) ** alpha, len(h[1]), h[1]))[1]
        return best + [-1] * (n - len(best))
