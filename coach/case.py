"""A case the user wrote ({"input": {...}}), read from untrusted bytes: a file given to `run
--input`, or the body of the web page's Run. Its size and nesting are bounded before any parser
sees it, so no input can exhaust memory or Python's recursion; every refusal is one line."""

from __future__ import annotations

import json
import re
from itertools import accumulate

from problems import Arg, Problem, ProblemError

MAX_CASE_BYTES = 8 << 20  # a package's whole test budget: no own case needs more
MAX_CASE_DEPTH = 32  # arrays and objects within each other; a case needs 5 ({"input": {"q": [[[...]]]}})
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


def parse_case(raw: bytes, where: str) -> dict:
    """The case as a dict with an "input" object, or a ProblemError naming `where` and the reason."""
    if len(raw) > MAX_CASE_BYTES:
        raise ProblemError(f"{where}: over the limit of {MAX_CASE_BYTES >> 20} MiB for a case")
    depth = nesting(raw)
    if depth > MAX_CASE_DEPTH:
        raise ProblemError(f"{where}: arrays and objects nested {depth} deep, over the limit of {MAX_CASE_DEPTH}")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProblemError(f"{where}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("input"), dict):
        raise ProblemError(f'{where}: a case is one JSON object {{"input": {{argument: value, ...}}}}')
    return data


def nesting(raw: bytes) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings do not count)."""
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(1 if c in b"[{" else -1 for c in brackets), default=0)


def fields(problem: Problem) -> list[dict]:
    """The arguments a case gives, in the method's order, as an own-input editor asks for them: the
    name, the shape in the statement's size names ([] for one number) and the kind of values."""
    return [{"name": a.name, "shape": list(a.shape), "kind": _kind(a)} for a in problem.args]


def _kind(arg: Arg) -> str:
    """float_array, int_array (whole numbers: token ids, block tables, a 0/1 mask), float or int."""
    if arg.is_array:
        return "int_array" if arg.integer or arg.is_mask else "float_array"
    return "float" if arg.is_scalar else "int"
