# TIME LIMIT: pure Python that recomputes each token's whole softmax for every expert's mean probability: O(T E^2) interpreted steps.
import math


class Solution:
    def load_balancing_loss(self, router_logits, top_k):
        T, E = len(router_logits), len(router_logits[0])

        def softmax(row):
            top = max(row)
            exps = [math.exp(x - top) for x in row]
            total = sum(exps)
            return [v / total for v in exps]

        P = [sum(softmax(row)[e] for row in router_logits) / T for e in range(E)]
        counts = [0] * E
        for row in router_logits:
            for e in sorted(range(E), key=lambda e: (-row[e], e))[:top_k]:
                counts[e] += 1
        return E * sum(counts[e] / T * P[e] for e in range(E))
