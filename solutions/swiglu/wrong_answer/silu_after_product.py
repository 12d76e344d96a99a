# WRONG: SiLU applied to the product, silu(X W1 * X W3); as in breakdown-minimind's 1_model.ipynb (github.com/Nijikadesu/breakdown-minimind issue #3: w2(silu(w1(x) * w3(x)))).
import numpy as np


class Solution:
    def swiglu_feed_forward(self, X, W1, W2, W3):
        X = np.asarray(X, dtype=np.float64)
        P = (X @ np.asarray(W1, dtype=np.float64)) * (X @ np.asarray(W3, dtype=np.float64))
        with np.errstate(over="ignore"):
            silu = P / (1.0 + np.exp(-P))
        return silu @ np.asarray(W2, dtype=np.float64)
