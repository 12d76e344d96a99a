# Bug: the length penalty is applied to the running score at every step (score / t^alpha stored and added to), not once to the final sum. Public: OpenNMT/OpenNMT-tf PR #456 (opennmt/utils/decoding.py divided the running scores by the step penalty each step).
"""Beam search over a bigram model, one vectorised step at a time."""

import numpy as np


class Solution:
    def beam_search(self, logits, start, eos, k, n, alpha):
        Z = np.asarray(logits, dtype=np.float64)
        V = Z.shape[0]
        top = Z.max(axis=1, keepdims=True)
        L = Z - top - np.log(np.exp(Z - top).sum(axis=1, keepdims=True))
        seqs = np.zeros((1, 0), dtype=np.int64)
        scores = np.zeros(1)
        last = np.array([start])
        hyps = []
        for t in range(1, n + 1):
            cand = (scores[:, None] + L[last]).ravel()
            chosen = np.argsort(-cand, kind="stable")[:k]
            beam, tok = chosen // V, chosen % V
            seqs = np.concatenate([seqs[beam], tok[:, None]], axis=1)
            scores = cand[chosen] / t**alpha
            done = tok == eos
            hyps += [(s, list(t)) for s, t in zip(scores[done], seqs[done])]
            seqs, scores, last = seqs[~done], scores[~done], tok[~done]
            if len(last) == 0:
                break
        hyps += [(s, list(t)) for s, t in zip(scores, seqs)]
        best = min(hyps, key=lambda h: (-h[0], len(h[1]), h[1]))[1]
        return best + [-1] * (n - len(best))
