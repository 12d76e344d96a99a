# WRONG: sigmoid(g) written exp(g) / (1 + exp(g)): for g > 709.78 exp overflows and inf / inf is NaN; DyNet's logistic had this branch (clab/dynet issue #1525, dynet/simd-functors.h), and SciPy's expit gave NaN for large inputs (scipy/scipy PR #3387).
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        G = X @ np.asarray(W1, dtype=np.float64)
        U = X @ np.asarray(W3, dtype=np.float64)
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(G)
            silu = G * e / (1.0 + e)
        return (silu * U) @ np.asarray(W2, dtype=np.float64)
