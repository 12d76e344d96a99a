"""A Run's report as a worker sent it back, read as strictly as a submission's result: the bytes
capped before they are parsed, every field of coach/run.py's run_json (and a hint's) typed and
bounded, anything else dropped; a reply that does not fit is refused whole (RunReplyError), so
nothing a worker (or whoever can write to Redis) sends reaches the page unread."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from coach.case import MAX_CASE_BYTES
from grading.judgement import Mismatch, Verdict
from grading.report import OUTPUT_JSON_CHARS

MAX_REPLY_BYTES = 3 * MAX_CASE_BYTES + (1 << 20)  # two outputs the size of the largest input, and the rest
TEXT_CHARS = 20000  # a message, a traceback, a hint's text
ARRAY_DEPTH = 4  # an output is a scalar, a vector, a matrix or a stack of them
LIST_ITEMS = 64  # names of bugs, matches, earlier runs; an index's coordinates
NOT_FINITE = ("nan", "inf", "-inf")  # serving/answers.py's finite() writes them so
VERDICTS = {str(v) for v in Verdict}
INPUTS = ("sample", "your input")
HINT_KINDS = ("step", "own", "nonfinite", "not_wa", "none")
STATUSES = (400, 413, 503)  # what a worker may refuse a Run with: the input, the code, or its own failure


class RunReplyError(ValueError):
    """The worker's reply is not a Run's report: it is not shown."""


Reader = Callable[[Any, str], Any]


def _text(limit: int = TEXT_CHARS) -> Reader:
    def read(value: Any, where: str) -> str:
        if not isinstance(value, str) or len(value) > limit:
            raise RunReplyError(f"{where}: not text of at most {limit} characters")
        return value
    return read


def _count(value: Any, where: str) -> int:
    if type(value) is not int or not 0 <= value < 1 << 53:
        raise RunReplyError(f"{where}: not a count")
    return value


def _number(value: Any, where: str) -> float | int | str:
    if isinstance(value, str) and value in NOT_FINITE:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RunReplyError(f"{where}: not a number")
    return value


def _optional(read: Reader) -> Reader:
    return lambda value, where: None if value is None else read(value, where)


def _one_of(*allowed: Any) -> Reader:
    def read(value: Any, where: str) -> Any:
        if isinstance(value, bool) or value not in allowed:
            raise RunReplyError(f"{where}: not one of {allowed}")
        return value
    return read


def _list(read: Reader, limit: int = LIST_ITEMS) -> Reader:
    def read_list(value: Any, where: str) -> list:
        if not isinstance(value, list) or len(value) > limit:
            raise RunReplyError(f"{where}: not a list of at most {limit}")
        return [read(item, f"{where}[{i}]") for i, item in enumerate(value)]
    return read_list


def _array(value: Any, where: str, depth: int = 0) -> Any:
    """An output: a number, or nested lists of numbers, at most ARRAY_DEPTH deep."""
    if not isinstance(value, list):
        return _number(value, where)
    if depth >= ARRAY_DEPTH:
        raise RunReplyError(f"{where}: nested deeper than {ARRAY_DEPTH}")
    return [_array(item, where, depth + 1) for item in value]


def _sizes(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, dict) or len(value) > LIST_ITEMS:
        raise RunReplyError(f"{where}: not a table of sizes")
    return {_text(64)(k, where): _count(v, f"{where}.{k}") for k, v in value.items()}


def _record(fields: dict[str, Reader], required: set[str]) -> Reader:
    """An object with these fields (the `required` ones present), each read by its reader."""
    def read(value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise RunReplyError(f"{where}: not an object")
        missing = required - set(value)
        if missing:
            raise RunReplyError(f"{where}: no {sorted(missing)[0]}")
        return {k: reader(value[k], f"{where}.{k}") for k, reader in fields.items() if k in value}
    return read


_SHAPE = _list(_count, ARRAY_DEPTH)
_MISMATCH_FIELDS: dict[str, Reader] = {
    "got_shape": _SHAPE, "expected_shape": _SHAPE, "index": _SHAPE, "position": _text(200),
    "expected": _number, "got": _number, "error": _number, "allowed": _number, "differ": _count, "elements": _count}
assert set(_MISMATCH_FIELDS) == set(Mismatch.__annotations__)  # a field added to Mismatch is read here too

_TEST = _record({
    "name": _text(200), "verdict": _one_of(*VERDICTS), "time_ms": _optional(_number), "user_ms": _optional(_number),
    "memory_mb": _optional(_number), "max_abs_err": _optional(_number), "max_rel_err": _optional(_number),
    "message": _text(), "step": _count, "output": _text(4 * OUTPUT_JSON_CHARS + 8), "output_size": _count,
    "traceback": _text(), "note": _text(), "sizes": _sizes, "mismatch": _record(_MISMATCH_FIELDS, set()),
    "judged_again": _list(_text(1000))},
    {"name", "verdict", "message", "output", "output_size", "traceback", "note", "sizes"})

_NONFINITE = _record({"index": _list(_count, ARRAY_DEPTH + 1), "position": _text(200), "value": _text(40),
                      "count": _count, "elements": _count, "text": _text()},
                     {"index", "position", "value", "count", "elements", "text"})

_HINT = _record({"level": _one_of(1, 2), "kind": _one_of(*HINT_KINDS), "step": _optional(_text(200)),
                 "matches": _optional(_list(_text(200))), "bugs": _optional(_list(_text(2000))),
                 "nonfinite": _optional(_NONFINITE), "text": _text()},
                {"level", "kind", "text"})


def _report(slug: str, level: int) -> Reader:
    fields: dict[str, Reader] = {
        "problem": _one_of(slug), "verdict": _one_of(*VERDICTS), "message": _text(), "input": _one_of(*INPUTS),
        "output": _optional(_array), "expected": _optional(_array), "test": _optional(_TEST), "traceback": _text(),
        **({"hint": _HINT} if level else {})}  # a Run without a hint shows none, whatever came
    required = {"problem", "verdict", "message", "input", "output", "expected", "test"} | ({"hint"} if level else set())
    return _record(fields, required)


def run_reply(raw: bytes, slug: str, level: int) -> dict:
    """The worker's reply to a Run of `slug` (with a hint of `level`): {"report": the report} or
    {"refused": {"status", "message"}} (the worker would not judge it: the input or the code)."""
    if len(raw) > MAX_REPLY_BYTES:
        raise RunReplyError(f"the reply is {len(raw)} bytes, over {MAX_REPLY_BYTES}")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise RunReplyError("the reply is not JSON") from None
    if isinstance(data, dict) and set(data) == {"refused"}:
        return {"refused": _record({"status": _one_of(*STATUSES), "message": _text(2000)},
                                   {"status", "message"})(data["refused"], "refused")}
    if isinstance(data, dict) and set(data) == {"report"}:
        report = _report(slug, level)(data["report"], "report")
        if level and report["hint"]["level"] != level:
            raise RunReplyError(f"report.hint: level {report['hint']['level']}, {level} asked")
        return {"report": report}
    raise RunReplyError("the reply is neither a report nor a refusal")


def _no_constant(name: str) -> None:
    raise RunReplyError(f"the reply holds a bare {name}")
