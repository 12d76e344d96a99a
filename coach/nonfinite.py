"""What a NaN or an infinity in a wrong answer means, said before any bundled mistake is matched:
where the first one is and which computations make one. A NaN looks the same whichever step
made it, so where it is names no step by itself."""

from __future__ import annotations

import numpy as np

from grading.checker import position

# The ways float64 arithmetic makes a value it cannot represent, and where attention code does it.
MEANING = ("NaN and inf are what float64 gives for a result with no value (0 / 0, inf / inf, inf - inf) or too "
           "large for it (beyond about 1.8e308), and anything computed from a NaN is NaN. Three steps make one: an "
           "exp without the row's maximum subtracted first (the exp of a score above about 709 is inf, and inf / inf "
           "is NaN; when every score of a row is below about -745, every exp is 0, and 0 / 0 is NaN); a row whose "
           "every key is masked (its weights sum to 0: 0 / 0); a division by a sum or a norm that is 0")


def diagnosis(got: np.ndarray, interactive: bool = False, step: int | None = None) -> dict | None:
    """None when every element of `got` is finite; else where the first non-finite one is, how
    many there are, and `text`: that, and what such a value means. For an interactive problem
    `got` holds one answer per step, so the first axis is the step; when the answers' shapes
    differ it holds the failing `step`'s answer alone."""
    bad = ~np.isfinite(got)
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    if interactive and got.ndim >= 2:
        where = f"step t = {index[0]}, " + position(index[1:])
    else:
        where = (f"step t = {step}, " if interactive and step is not None else "") + position(index)
    value = float(got[index])
    kinds = " and ".join(name for name, present in (("NaN", np.isnan(got).any()), ("inf", np.isinf(got).any()))
                         if present)
    count = int(bad.sum())
    text = (f"your output holds {kinds}: {count} of its {got.size} elements {'is' if count == 1 else 'are'} not "
            f"finite, the first at {where} ({value!r}). {MEANING}")
    return {"index": list(index), "position": where, "value": repr(value), "count": count,
            "elements": int(got.size), "text": text}
