# Too slow: pure Python over every beam, every token and, for each candidate, the row's log-sum-exp recomputed over V tokens: O(n*k*V*V) interpreted steps.
"""Beam search over a bigram model in plain Python loops."""

import math


class Solution:
    def beam_search(self, logits, start, eos, k, n, alpha):
        beams = [(0.0, [start])]
        hyps = []
        for _ in range(n):
            cands = []
            for b, (score, seq) in enumerate(beams):
                row = logits[seq[-1]]
                for v in range(len(row)):
                    top = max(row)
                    lse = top + math.log(sum(math.exp(z - top) for z in row))
                    cands.append((-(score + (row[v] - lse)), b, v))
            cands.sort()
            kept = []
            for neg, b, v in cands[:k]:
                (hyps if v == eos else kept).append((-neg, beams[b][1] + [v]))
            beams = kept
            if not beams:
                break
        hyps += beams
        best = min(hyps, key=lambda h: (-h[0] / (len(h[1]) - 1) ** alpha, len(h[1]), h[1]))[1][1:]
        return best + [-1] * (n - len(best))
