"""Stored tests kept as the wire's bytes, beside the JSON they come from (like Python's .pyc).

Parsing a test's JSON and packing its arrays is most of what reading a judging's tests costs:
~115 ms of CPU for gqa's 3.6 MB, on a machine whose two cores are busy with the sandbox at that
moment. The messages `reading.stored_parts` makes from a file (its arguments, then its expected
output and note) depend only on that file, on the problem's problem.toml and on the code that
reads and checks them, so they are kept in `tests/__pycache__/<name>.parts` with a key made of
those: the file's size, times and inode (any write changes its ctime), problem.toml's bytes, the
reading code's bytes (size expressions included) and the byte order. A copy whose key differs,
or that is not whole, is read from the JSON again and rewritten. The folder is as hidden from a
run as the tests themselves (the sandbox shows none of problems/), and as trusted: whoever can
write it can write the tests.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import struct
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from judge.fingerprint import sha256
from judge.keep import keep

Parts = list[tuple[dict, list[bytes]]]

_MAGIC = b"judge-test-parts-1\n"
_FRAME = struct.Struct(">I")
_HERE = Path(__file__).resolve().parent


def cached_parts(problem_toml: Path, path: Path, parse: Callable[[], Iterator[tuple[dict, list[bytes]]]]) \
        -> Iterator[tuple[dict, list[bytes]]]:
    """The messages `parse()` yields for the stored test `path`: from the kept copy when it is
    current, else from `parse()` as it goes (a run can start on the first message while the rest
    is parsed), kept once the last one is made."""
    key = _key(problem_toml, path)
    kept = path.parent / "__pycache__" / f"{path.stem}.parts"  # (`forget` drops the folder)
    parts = _read(kept, key) if key is not None else None
    if parts is not None:
        yield from parts
        return
    made = []
    for message in parse():
        made.append(message)
        yield message
    if key is not None:
        _write(kept, key, made)


def forget(tests_dir: Path) -> None:
    """Drop every kept copy of a problem's tests (the benchmark's cold judging)."""
    shutil.rmtree(tests_dir / "__pycache__", ignore_errors=True)


@functools.cache
def _code() -> bytes:
    """The code the messages come from: how a file is read, checked and packed."""
    problems = _HERE.parent / "problems"
    sources = [_HERE / "reading.py", _HERE / "partcache.py", problems / "testfile.py", problems / "package.py",
               problems / "expr.py"]
    return sys.byteorder.encode() + b"".join(sha256(p.read_bytes()).digest() for p in sources)


def _key(problem_toml: Path, path: Path) -> bytes | None:
    try:
        definition = _definition(problem_toml, _stamp(problem_toml))
        stamp = _stamp(path)
    except OSError:
        return None  # the parse says what is wrong
    return sha256(_MAGIC + _code() + definition + stamp.encode()).digest()


def _stamp(path: Path) -> str:
    """What changes whenever the file is written (its ctime, which no user can set back)."""
    info = os.stat(path)
    return f"{info.st_size} {info.st_mtime_ns} {info.st_ctime_ns} {info.st_ino} {info.st_dev}"


@functools.lru_cache(maxsize=16)
def _definition(problem_toml: Path, stamp: str) -> bytes:
    """problem.toml's digest, read once per judging, not once per test (`stamp` keys it)."""
    return sha256(problem_toml.read_bytes()).digest()


def _read(kept: Path, key: bytes) -> Parts | None:
    """The kept messages, or None when the copy is missing, of another key, or not whole."""
    try:
        data = memoryview(kept.read_bytes())
    except OSError:
        return None
    start = len(_MAGIC) + len(key)
    if data[:len(_MAGIC)] != _MAGIC or data[len(_MAGIC):start] != key:
        return None
    parts, at = [], start
    try:
        while at < len(data):
            header, at = _frame(data, at)
            header = json.loads(bytes(header))
            blobs = []
            for _ in range(header.pop("blobs")):
                blob, at = _frame(data, at)
                blobs.append(bytes(blob))
            parts.append((header, blobs))
    except (ValueError, KeyError, TypeError, AttributeError, struct.error):
        return None
    if [h.get("part") for h, _ in parts] != ["input", "rest"]:
        return None
    return parts


def _frame(data: memoryview, at: int) -> tuple[memoryview, int]:
    (size,) = _FRAME.unpack_from(data, at)
    end = at + _FRAME.size + size
    if end > len(data):
        raise ValueError("cut short")
    return data[at + _FRAME.size:end], end


def _write(kept: Path, key: bytes, parts: Parts) -> None:
    chunks = [_MAGIC, key]
    for header, blobs in parts:
        for payload in (json.dumps(dict(header, blobs=len(blobs))).encode(), *blobs):
            chunks += [_FRAME.pack(len(payload)), payload]
    keep(kept, b"".join(chunks))
