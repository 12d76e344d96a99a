# ACCEPTED: plain Python lists: a scale per channel from its absmax, then round() (half to even) and clip: O(h T d).
class Solution:
    def kv_quant_roundtrip(self, K):
        out = []
        for head in K:
            T, d = len(head), len(head[0])
            scales = []
            for c in range(d):
                m = max(abs(row[c]) for row in head)
                scales.append(m / 127 if m > 0 else 1.0)
            rows = []
            for row in head:
                rows.append([max(-127, min(127, round(x / s))) * s for x, s in zip(row, scales)])
            out.append(rows)
        return out
