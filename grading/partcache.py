"""Stored tests kept as the wire's bytes, beside the JSON they come from (like Python's .pyc).

Parsing a test's JSON and packing its arrays is most of what reading a judging's tests costs
(docs/performance.md). The message `tests.test_data` makes from a file depends only on that
file, the problem's problem.toml and the code that reads and checks them, so it is kept in
`tests/__pycache__/<name>.parts` with a key made of those: the file's size, times and inode (any
write changes its ctime), problem.toml's bytes, the reading code's bytes and the byte order. A
copy whose key differs, or that is not whole, is made again from the JSON. The folder is as
hidden from a run as the tests themselves, and as trusted: whoever can write it can write them.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import struct
import sys
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path
from typing import Any

from sandbox.keep import keep

Message = tuple[dict[str, Any], list[bytes]]

_MAGIC = b"judge-test-parts-2\n"
_FRAME = struct.Struct(">I")
_HERE = Path(__file__).resolve().parent


def cached(problem_toml: Path, path: Path, make: Callable[[], Message], valid: Callable[[Message], bool]) -> Message:
    """The message `make()` gives for the stored test `path`: the kept copy when it is current
    and `valid`, else `make()`'s, kept for next time."""
    key = _key(problem_toml, path)
    kept = path.parent / "__pycache__" / f"{path.stem}.parts"  # (`forget` drops the folder)
    message = _read(kept, key) if key is not None else None
    if message is None or not valid(message):
        message = make()
        if key is not None:
            _write(kept, key, message)
    return message


def forget(tests_dir: Path) -> None:
    """Drop every kept copy of a problem's tests (the benchmark's cold judging)."""
    shutil.rmtree(tests_dir / "__pycache__", ignore_errors=True)


@functools.cache
def _code() -> bytes:
    """The code the messages come from: how a file is read, checked and packed."""
    problems = _HERE.parent / "problems"
    sources = [_HERE / "tests.py", _HERE / "partcache.py", problems / "testfile.py", problems / "package.py",
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


def _read(kept: Path, key: bytes) -> Message | None:
    """The kept message, or None when the copy is missing, of another key, or not whole."""
    try:
        data = memoryview(kept.read_bytes())
    except OSError:
        return None
    start = len(_MAGIC) + len(key)
    if data[:len(_MAGIC)] != _MAGIC or data[len(_MAGIC):start] != key:
        return None
    try:
        raw, at = _frame(data, start)
        header = json.loads(bytes(raw))
        blobs = []
        for _ in range(header.pop("blobs")):
            blob, at = _frame(data, at)
            blobs.append(bytes(blob))
    except (ValueError, KeyError, TypeError, AttributeError, struct.error):
        return None
    return (header, blobs) if at == len(data) else None


def _frame(data: memoryview, at: int) -> tuple[memoryview, int]:
    (size,) = _FRAME.unpack_from(data, at)
    end = at + _FRAME.size + size
    if end > len(data):
        raise ValueError("cut short")
    return data[at + _FRAME.size:end], end


def _write(kept: Path, key: bytes, message: Message) -> None:
    header, blobs = message
    chunks = [_MAGIC, key]
    for payload in (json.dumps(dict(header, blobs=len(blobs))).encode(), *blobs):
        chunks += [_FRAME.pack(len(payload)), payload]
    keep(kept, b"".join(chunks))
