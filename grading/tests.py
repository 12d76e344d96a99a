"""A judging's tests: which stored files, each read, checked and encoded for the wire once, by a
thread of its own while the runs go (partcache.py keeps what a file comes to beside it)."""

from __future__ import annotations

import fnmatch
import math
import sys
from array import array
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from grading.partcache import cached
from problems import Problem, ProblemError, TestCase, read_test

_ORDER = "<" if sys.byteorder == "little" else ">"  # array's bytes are native, as numpy's dtype.str says


def select_tests(problem: Problem, patterns: list[str] | None) -> list[Path]:
    """The problem's tests in order, kept when a name or number matches one of the patterns."""
    files = problem.test_files()
    if not files:
        raise ProblemError(f"{problem.tests_dir}: no stored tests (run make testcases)")
    if not patterns:
        return files
    kept = [f for f in files if any(_matches(f.stem, p) for p in patterns)]
    if not kept:
        raise ProblemError(f"--tests {' '.join(patterns)}: no test of {problem.slug} matches "
                           f"(names look like {files[0].stem})")
    return kept


def _matches(name: str, pattern: str) -> bool:
    number = name.partition("-")[0]
    return fnmatch.fnmatchcase(name, pattern) or name == pattern or number == pattern.zfill(len(number))


@dataclass
class TestData:
    """A test as the wire carries it: its arguments encoded (`specs`, `blobs`: the constructor's,
    for an interactive problem), its expected output (and an interactive problem's stream, one
    row per step) as float64, and what the report shows."""

    name: str
    sizes: dict[str, int]
    specs: list[dict[str, Any]]
    blobs: list[bytes]
    expected: np.ndarray
    rows: np.ndarray | None
    note: str

    @property
    def expected_count(self) -> int:
        return int(self.expected.size)


def test_data(problem: Problem, item: TestCase | Path | TestData) -> TestData:
    """A test made in memory, or a stored one (from its kept copy when current), or one read already
    (a warm worker keeps them). A file that cannot be read, or whose arrays are not numbers, is a
    ProblemError naming it."""
    if isinstance(item, TestData):
        return item
    if isinstance(item, TestCase):
        return _decoded(*_encoded(problem, item))
    return _decoded(*cached(problem.toml_path, item, lambda: _encoded(problem, read_test(problem, item)), _whole))


def _encoded(problem: Problem, case: TestCase) -> tuple[dict[str, Any], list[bytes]]:
    """A test as one message: a header, then the arguments' arrays, the expected output and an
    interactive problem's stream, as bytes."""
    try:
        names = problem.constructor if problem.interactive else problem.arg_names
        scalars = {a.name for a in problem.args if a.is_scalar}  # a real scalar reaches the method as a float
        specs, blobs = encode_args([float(case.input[name]) if name in scalars else case.input[name]
                                    for name in names])
        arrays = [encode_array(case.expected, floats=True)[1:]]
        if problem.interactive:
            arrays.append(encode_array(case.input[problem.stream], floats=True)[1:])
    except (ValueError, TypeError, KeyError) as exc:
        raise ProblemError(f"{case.path}: its arrays cannot be read as numbers ({type(exc).__name__}: {exc})") \
            from None
    header = {"name": case.name, "sizes": problem.sizes_of(case.input), "specs": specs, "args": len(blobs),
              "note": str(case.meta.get("note", "")), "shapes": [shape for shape, _ in arrays]}
    return header, blobs + [data for _, data in arrays]


def _whole(message: tuple[dict[str, Any], list[bytes]]) -> bool:
    """Whether a kept message is one `_encoded` could have made (a damaged copy is made again)."""
    header, blobs = message
    try:
        count, shapes = header["args"], header["shapes"]
        fields_ok = (isinstance(header["name"], str) and isinstance(header["sizes"], dict)
                     and isinstance(header["specs"], list) and isinstance(header["note"], str))
        return (fields_ok and type(count) is int and 0 <= count and count + len(shapes) == len(blobs)
                and len(shapes) in (1, 2) and all(
                    math.prod(shape) * 8 == len(data) for shape, data in zip(shapes, blobs[count:])))
    except (KeyError, TypeError):
        return False


def _decoded(header: dict[str, Any], blobs: list[bytes]) -> TestData:
    count = header["args"]
    arrays = [np.frombuffer(data, dtype=np.float64).reshape(shape)
              for shape, data in zip(header["shapes"], blobs[count:])]
    return TestData(header["name"], header["sizes"], header["specs"], blobs[:count], arrays[0],
                    arrays[1] if len(arrays) > 1 else None, header["note"])


class Reader:
    """The tests of a judging, read in order by a thread of their own; iterated as (index, test).
    A test that cannot be read raises its ProblemError when its turn comes. Use with `with`."""

    def __init__(self, problem: Problem, items: Sequence[TestCase | Path | TestData]):
        self.total = len(items)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-reader")
        self._futures = [self._pool.submit(test_data, problem, item) for item in items]

    def __len__(self) -> int:
        return self.total

    def __iter__(self) -> Iterator[tuple[int, TestData]]:
        for index, future in enumerate(self._futures):
            yield index, future.result()

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def encode_args(args: list[Any]) -> tuple[list[dict[str, Any]], list[bytes]]:
    """Arguments as the wire carries them: arrays as raw bytes with dtype and shape, ints as values."""
    specs: list[dict[str, Any]] = []
    blobs: list[bytes] = []
    for value in args:
        if isinstance(value, list):
            dtype, shape, data = encode_array(value)
            specs.append({"kind": "array", "dtype": dtype, "shape": shape, "blob": len(blobs)})
            blobs.append(data)
        else:
            specs.append({"kind": "value", "value": value})
    return specs, blobs


def encode_array(value: Any, floats: bool = False) -> tuple[str, list[int], bytes]:
    """A nested list of numbers as (dtype, shape, native bytes), as numpy.asarray would make it:
    int64 when every number is an int, float64 otherwise (or when `floats`). ValueError for a
    ragged list, TypeError for anything that is not a number."""
    shape: list[int] = []
    level: Any = value
    while isinstance(level, list):
        shape.append(len(level))
        level = level[0] if level else None
    flat: list[Any] = value if shape else [value]  # a scalar output's expected number: shape ()
    for width in shape[1:]:
        if any(type(row) is not list or len(row) != width for row in flat):
            raise ValueError(f"the nested lists are ragged (shape {shape} from their first elements)")
        flat = list(chain.from_iterable(flat))
    if not floats and flat and type(flat[0]) in (int, bool):
        # numpy: ints (with bools among them) are int64; array("q") refuses anything else
        if type(flat[0]) is int or int in set(map(type, flat)):
            try:
                return f"{_ORDER}i8", shape, array("q", flat).tobytes()
            except (OverflowError, TypeError):  # past int64 (numpy keeps objects), or a float among them
                pass
    return f"{_ORDER}f8", shape, array("d", flat).tobytes()  # a list among the numbers: TypeError
