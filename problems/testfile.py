"""Reading one stored test file: {"input": {...}, "expected": [[...]], ...}."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from problems.package import Problem, ProblemError


@dataclass
class TestCase:
    name: str
    path: Path | None  # None: made in memory (stress)
    input: dict
    expected: list
    meta: dict = field(default_factory=dict)

    @property
    def category(self) -> str:
        return self.meta.get("category") or (category_of(self.path) if self.path is not None else "")


def category_of(path: Path) -> str:
    """The category a test's file name carries (NNN-<category>.json; the validator holds them equal)."""
    return path.stem.partition("-")[2]


def read_test(problem: Problem, path: Path) -> TestCase:
    """Parse a test file; a malformed one is a ProblemError naming the file and what is wrong."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ProblemError(f"{path}: no such test file") from None
    try:
        data = _parse(raw, path)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise not_json(path, exc) from None
    return test_from(problem, path, data)


def _parse(raw: bytes, path: Path) -> object:
    """What test_decoder reads from a test file, read ~3x faster by orjson where it can tell.

    Parsing a test's numbers is most of a problem's first judging. orjson keeps the last of two
    keys, so the keys the text holds are counted against the keys parsed; it refuses NaN and makes
    floats of ints past 64 bits. A file where it fails, counts otherwise (a key twice, '":' inside
    a string) or made such a float outside an array is read by json: its value, or its error.
    (Inside an array that float is the number json's int becomes on the wire.)"""
    try:
        data = orjson.loads(raw)
        if len(_KEY_END.findall(raw)) == _keys(data):
            return data
    except orjson.JSONDecodeError:
        pass
    return test_decoder(path).decode(raw.decode("utf-8"))


_KEY_END = re.compile(rb'"\s*:')  # where a key ends; inside a string only as \":, counted too


def _keys(data: object) -> int:
    """The keys of the objects not inside an array (a test file's), -1 for a float past 2**64."""
    if not isinstance(data, dict):
        return 0
    if any(isinstance(v, float) and abs(v) >= 2.0**64 for v in data.values()):
        return -1
    inner = [_keys(v) for v in data.values() if isinstance(v, dict)]
    return -1 if -1 in inner else len(data) + sum(inner)


def test_decoder(where: Path | str) -> json.JSONDecoder:
    """JSON's decoder, refusing a key given twice in one object (json alone keeps the last one),
    with a ProblemError that starts with `where`."""
    def members(pairs: list[tuple[str, object]]) -> dict:
        data = dict(pairs)
        if len(data) < len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise ProblemError(f"{where}: the key {key!r} appears twice")
                seen.add(key)
        return data

    return json.JSONDecoder(object_pairs_hook=members)


def not_json(path: Path, exc: ValueError) -> ProblemError:
    return ProblemError(f"{path}: not valid JSON ({exc})")


def check_input(problem: Problem, path: Path, value: object) -> None:
    """The rules of a test's 'input' member (ProblemError naming the file when one is broken)."""
    if not isinstance(value, dict):
        raise ProblemError(f"{path}: 'input' must be an object of argument name to value")
    names = list(value)
    if names != list(problem.arg_names):
        raise ProblemError(
            f"{path}: 'input' must hold the arguments {', '.join(problem.arg_names)} in this order, "
            f"got {', '.join(names) or 'none'}"
        )


def test_from(problem: Problem, path: Path, data: object) -> TestCase:
    """The test a parsed file holds, once its shape is checked."""
    if not isinstance(data, dict) or "input" not in data or "expected" not in data:
        raise ProblemError(f"{path}: a test is one JSON object with keys 'input' and 'expected'")
    check_input(problem, path, data["input"])
    meta = {k: v for k, v in data.items() if k not in ("input", "expected")}
    return TestCase(path.stem, path, data["input"], data["expected"], meta)


def read_tests(problem: Problem) -> list[TestCase]:
    return [read_test(problem, p) for p in problem.test_files()]
