# Accepted: the best k tokens of each live beam (stable within the beam) hold the step's best k overall; merge those few candidates with sorted() on (-score, beam, token).
"""Beam search over a bigram model: per-beam top-k, then a small merge."""

import numpy as np


class Solution:
    def beam_search(self, logits, start, eos, k, n, alpha):
        Z = np.asarray(logits, dtype=np.float64)
        top = Z.max(axis=1, keepdims=True)
        L = Z - (top + np.log(np.sum(np.exp(Z - top), axis=1, keepdims=True)))
        # Each row's tokens by log-prob descending, equal ones by lower id: the same every step.
        ranked = np.argsort(-L, axis=1, kind="stable")[:, :k].tolist()
        rows = L.tolist()
        beams = [(0.0, [start])]  # (score, [start, generated...]) in rank order
        hyps = []
        for _ in range(n):
            cands = []
            for b, (score, seq) in enumerate(beams):
                row = rows[seq[-1]]
                cands += [(-(score + row[v]), b, v) for v in ranked[seq[-1]]]
            cands.sort()
            kept = []
            for neg, b, v in cands[:k]:
                hyp = (-neg, beams[b][1] + [v])
                (hyps if v == eos else kept).append(hyp)
            beams = kept
            if not beams:
                break
        hyps += beams

        def key(h):
            length = len(h[1]) - 1
            return (-h[0] / length**alpha, length, h[1])

        best = min(hyps, key=key)[1][1:]
        return best + [-1] * (n - len(best))
