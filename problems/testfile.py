"""Reading one stored test file: {"input": {...}, "expected": [[...]], ...}."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

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
    text = test_text(path)
    try:
        data = test_decoder(path).decode(text)
    except json.JSONDecodeError as exc:
        raise not_json(path, exc) from None
    return test_from(problem, path, data)


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


def test_text(path: Path) -> str:
    """A test file's text (ProblemError when it is missing or not UTF-8)."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProblemError(f"{path}: no such test file") from None
    except UnicodeDecodeError as exc:
        raise not_json(path, exc) from None


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
