# ACCEPTED: plain Python: each step sorts the (-score, beam rank, token) tuples of every candidate; O(V^2 + n k V log(k V)).
import math


class Solution:
    def beam_search(self, logits, start, eos, k, n, alpha):
        L = []
        for row in logits:
            m = max(row)
            lse = m + math.log(sum(math.exp(z - m) for z in row))
            L.append([z - lse for z in row])
        V = len(L)
        beam = [(0.0, [], start)]
        finished = []
        for _ in range(n):
            if not beam:
                break
            cands = []
            for rank, (s, toks, last) in enumerate(beam):
                row = L[last]
                for v in range(V):
                    cands.append((-(s + row[v]), rank, v))
            cands.sort()
            nxt = []
            for negs, rank, v in cands[:k]:
                s, toks, _ = beam[rank]
                h = (-negs, toks + [v], v)
                (finished if v == eos else nxt).append(h)
            beam = nxt
        final = finished + beam
        best = min(final, key=lambda h: (-(h[0] / len(h[1]) ** alpha), len(h[1]), h[1]))
        toks = best[1]
        return toks + [-1] * (n - len(toks))
