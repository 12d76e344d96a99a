"""The array a run returned, from its result bytes: untrusted, whatever they contain.

The header is read by sandbox/inside/protocol.py's read_result, which never raises; here nothing
may raise either, nor allocate by a size the bytes claim: a bad array is None.
"""

from __future__ import annotations

import math

import numpy as np

from sandbox.inside.protocol import Result


def returned_array(result: Result | None, payload: bytes) -> np.ndarray | None:
    """The float64 array the header describes, or None when its shape and bytes disagree."""
    shape = result.shape if result is not None else None
    if shape is None:
        return None
    if not all(0 <= n <= len(payload) for n in shape):
        return None
    if math.prod(shape) * 8 != len(payload):  # Python integers: no wrap-around
        return None
    return np.frombuffer(payload, dtype=np.float64).reshape(shape)
