# Bug: np.argpartition(-cand, k - 1) needs k <= the number of candidates; with fewer than k (V = 1, or the first step when V < k) it raises ValueError, as torch.topk does.
"""Beam search over a bigram model with a partial sort per step."""

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
        for _ in range(n):
            cand = (scores[:, None] + L[last]).ravel()
            part = np.argpartition(-cand, k - 1)[:k]
            # Sort the k found by score, then by flat index (beam-major, token-minor).
            chosen = part[np.lexsort((part, -cand[part]))]
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
