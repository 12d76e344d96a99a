"""Reading what a run wrote on its result descriptor: untrusted bytes, whatever they contain.

The submission can write there itself, so nothing here may raise, recurse without bound or
allocate by a size the bytes claim: a bad header is an empty report, a bad array is None.
"""

from __future__ import annotations

import json
import math

import numpy as np

MAX_HEADER_BYTES = 64 << 10
MAX_DIMS = 32


def parse_report(raw: bytes) -> dict:
    """The run's report header as a dict (empty when unreadable), the array bytes under `_payload`."""
    head, _, payload = raw.partition(b"\n")
    if len(head) > MAX_HEADER_BYTES:
        return {}
    try:
        report = json.loads(head)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}
    if not isinstance(report, dict):
        return {}
    report["_payload"] = payload
    return report


def text(report: dict, key: str, default: str = "", limit: int = 4000) -> str:
    value = report.get(key, default)
    return (value if isinstance(value, str) else default)[:limit]


def returned_array(report: dict) -> np.ndarray | None:
    """The float64 array the report describes, or None when its shape and bytes disagree."""
    shape = report.get("shape")
    payload = report.get("_payload", b"")
    if not isinstance(shape, list) or len(shape) > MAX_DIMS:
        return None
    if not all(type(n) is int and 0 <= n <= len(payload) for n in shape):
        return None
    if math.prod(shape) * 8 != len(payload):  # Python integers: no wrap-around
        return None
    return np.frombuffer(payload, dtype=np.float64).reshape(shape)
