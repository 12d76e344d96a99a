# Accepted: every expert on every token (einsum), then a dense weight matrix: rank of each expert by counting who beats it, softmax over rank < top_k with -inf elsewhere.
import numpy as np


class Solution:
    def sparse_moe(self, X, W_g, W1, W2, W3, top_k):
        X = np.asarray(X, dtype=np.float64)
        W1 = np.asarray(W1, dtype=np.float64)
        W2 = np.asarray(W2, dtype=np.float64)
        W3 = np.asarray(W3, dtype=np.float64)
        L = X @ np.asarray(W_g, dtype=np.float64)  # (T, E)
        E = L.shape[1]
        lower = np.arange(E)[:, None] < np.arange(E)[None, :]  # [j, e]: j has the lower index
        beats = (L[:, :, None] > L[:, None, :]) | ((L[:, :, None] == L[:, None, :]) & lower)
        rank = beats.sum(axis=1)  # (T, E): how many experts come before e
        scores = np.where(rank < top_k, L, -np.inf)
        w = np.exp(scores - scores.max(axis=1, keepdims=True))
        w /= w.sum(axis=1, keepdims=True)
        G = np.einsum("td,edf->etf", X, W1)
        with np.errstate(over="ignore"):
            H = G / (1.0 + np.exp(-G)) * np.einsum("td,edf->etf", X, W3)
        Y = np.einsum("etf,efd->etd", H, W2)  # (E, T, d_model): every expert's output
        return np.einsum("te,etd->td", w, Y)
