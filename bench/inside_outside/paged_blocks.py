"""gqa_decode with a paged KV cache: many small arrays per step, none of them large.

The cache is a list of blocks of BLOCK positions, (h_k, BLOCK, d_k) each (32 KiB at gqa_decode's
020-large), as paged attention keeps it; a new block is allocated when the last one is full. Each
step scores the query against every block separately, one small array per block, joins the
scores for one softmax, and sums the blocks' weighted values: at T = 1280 that is 40 blocks and
~130 arrays per step (~90 with data of their own, 1-40 KiB), all under glibc's 128 KiB mmap
threshold.
"""

import numpy as np

BLOCK = 32


class Solution:
    def __init__(self, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        f = lambda a: np.asarray(a, dtype=np.float64)  # noqa: E731
        self.h_k, self.group = h_k, h_q // h_k
        self.d_model = d_model = len(W_Q)
        self.d_k = d_k = d_model // h_q
        self.W_Q, self.b_Q = f(W_Q) / np.sqrt(d_k), f(b_Q) / np.sqrt(d_k)
        self.W_K, self.b_K, self.W_V, self.b_V = f(W_K), f(b_K), f(W_V), f(b_V)
        self.W_O, self.b_O = f(W_O), f(b_O)
        self.t = 0
        self.key_blocks, self.value_blocks = [], []  # block b holds positions b*BLOCK .. b*BLOCK + BLOCK - 1

    def step(self, x):
        x = np.asarray(x, dtype=np.float64)
        t, h_k, d_k = self.t, self.h_k, self.d_k
        if t % BLOCK == 0:
            self.key_blocks.append(np.empty((h_k, d_k, BLOCK)))  # keys transposed: position u in column u
            self.value_blocks.append(np.empty((h_k, BLOCK, d_k)))
        self.key_blocks[-1][:, :, t % BLOCK] = (x @ self.W_K + self.b_K).reshape(h_k, d_k)
        self.value_blocks[-1][:, t % BLOCK] = (x @ self.W_V + self.b_V).reshape(h_k, d_k)
        self.t = t = t + 1
        q = (x @ self.W_Q + self.b_Q).reshape(h_k, self.group, d_k)
        filled = t - (len(self.key_blocks) - 1) * BLOCK  # positions in the last block
        scores = [q @ keys for keys in self.key_blocks[:-1]] + [q @ self.key_blocks[-1][:, :, :filled]]
        scores = np.concatenate(scores, axis=-1)  # (h_k, group, t)
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        heads = weights[:, :, t - filled:] @ self.value_blocks[-1][:, :filled]
        for b, values in enumerate(self.value_blocks[:-1]):
            heads += weights[:, :, b * BLOCK:(b + 1) * BLOCK] @ values
        return heads.reshape(self.d_model) @ self.W_O + self.b_O
