# TIME LIMIT: pure Python loops: every output element a Python sum over d_in for the frozen layer and over r for the adapter (O(T d_in d_out) interpreted steps).
class Solution:
    def lora_linear(self, X, W, b, A, B, alpha):
        r = len(B)
        d_out = len(b)
        scale = alpha / r
        out = []
        for x in X:
            xa = [sum(x[i] * A[i][k] for i in range(len(x))) for k in range(r)]
            row = []
            for j in range(d_out):
                base = sum(x[i] * W[i][j] for i in range(len(x)))
                low = sum(xa[k] * B[k][j] for k in range(r))
                row.append(base + b[j] + scale * low)
            out.append(row)
        return out
