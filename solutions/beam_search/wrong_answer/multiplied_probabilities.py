# Bug: path probabilities are multiplied instead of log-probabilities added: products of 160 small probabilities underflow to 0 and the beam ranks ties of 0 by index. Public: githubharald/CTCDecoder PR #23 (ctc_decoder/beam_search.py multiplied probabilities until moved to log space "to avoid underflow").
"""Beam search over a bigram model, one vectorised step at a time."""

import numpy as np


class Solution:
    def beam_search(self, logits, start, eos, k, n, alpha):
        Z = np.asarray(logits, dtype=np.float64)
        V = Z.shape[0]
        top = Z.max(axis=1, keepdims=True)
        L = Z - top - np.log(np.exp(Z - top).sum(axis=1, keepdims=True))
        P = np.exp(L)
        seqs = np.zeros((1, 0), dtype=np.int64)
        scores = np.ones(1)
        last = np.array([start])
        hyps = []
        for _ in range(n):
            cand = (scores[:, None] * P[last]).ravel()
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
        best = min(hyps, key=lambda h: (-np.log(h[0]) / len(h[1]) ** alpha, len(h[1]), h[1]))[1]
        return best + [-1] * (n - len(best))
