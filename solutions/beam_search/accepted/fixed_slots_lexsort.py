# Accepted: Hugging Face style fixed k beam slots, empty ones scored -inf; np.logaddexp.reduce normalises, np.lexsort ranks (score, beam, token); a finished hypothesis frees its slot.
"""Beam search over a bigram model with a fixed array of k beam slots."""

import numpy as np


class Solution:
    def beam_search(self, logits, start, eos, k, n, alpha):
        Z = np.asarray(logits, dtype=np.float64)
        V = Z.shape[0]
        L = Z - np.logaddexp.reduce(Z, axis=1)[:, None]
        scores = np.full(k, -np.inf)
        scores[0] = 0.0  # only slot 0 is live at the start: k copies would give duplicates
        tokens = np.full((k, n), -1, dtype=np.int64)
        last = np.full(k, start)
        best = None  # (rank key, tokens)
        for step in range(n):
            cand = scores[:, None] + L[last]  # (k, V); empty slots stay -inf
            beam, tok = np.divmod(np.arange(k * V), V)
            order = np.lexsort((tok, beam, -cand.ravel()))
            live = np.isfinite(cand.ravel()[order])
            order = order[live][:k]
            b, t = beam[order], tok[order]
            new_tokens = tokens[b].copy()
            new_tokens[:, step] = t
            new_scores = cand[b, t]
            for i in np.flatnonzero(t == eos):
                best = self._better(best, new_scores[i], step + 1, new_tokens[i], alpha)
            keep = t != eos
            m = int(keep.sum())
            scores = np.full(k, -np.inf)
            scores[:m] = new_scores[keep]
            tokens = np.full((k, n), -1, dtype=np.int64)
            tokens[:m] = new_tokens[keep]
            last = np.full(k, start)
            last[:m] = t[keep]
            if m == 0:
                break
        for i in np.flatnonzero(np.isfinite(scores)):
            best = self._better(best, scores[i], n, tokens[i], alpha)
        return best[1]

    def _better(self, best, score, length, tokens, alpha):
        """The better of the best so far and this hypothesis: rank score, then shorter, then smaller ids."""
        key = (-score / length**alpha, length, tokens.tolist())
        return (key, tokens) if best is None or key < best[0] else best
