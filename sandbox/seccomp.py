"""The seccomp program the judge hands to every fork server: built by libseccomp through its
binding (`syscalls.compile_filter`), and kept on disk beside the judge's bytecode.

Importing the binding and building the program would cost every judging (docs/sandbox.md). The
program only changes when what it is built from does: the rules (syscalls.py), the binding, the
system's libraries (ld.so.cache, LD_LIBRARY_PATH) and the architecture. Those are its cache
key; the file is checked for its shape before it is used, and anything wrong with it (torn,
foreign, another key) means building it again. The file sits in `sandbox/__pycache__`, which
none of the sandbox modes shows to a run and which is as trusted as the bytecode beside it.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import struct
from hashlib import sha256
from pathlib import Path

from sandbox.keep import keep

Program = tuple[bytes, tuple[bytes, tuple[int, ...]]]

_HERE = Path(__file__).resolve().parent
_CACHE_DIR = _HERE / "__pycache__"
_MAGIC = b"judge-seccomp-1\n"
_HEADER = struct.Struct("=III")  # shared part's length, run part's length, number of pid offsets


@functools.cache
def seccomp_program() -> Program | None:
    """The program in its two parts (the fork server's; each run's, with the offsets where the
    run writes its own pid). None where the binding or its library cannot be loaded: the sandbox
    then says it has no seccomp, and the judge refuses (except with JUDGE_SANDBOX=none)."""
    key = _key()
    if key is None:
        return None
    path = _CACHE_DIR / f"seccomp-{key}.bpf"
    program = _read(path)
    if program is None:
        program = _build()
        if program is not None:
            _write(path, program)
    return program


def _key() -> str | None:
    """What the program is built from, hashed; None when the binding is not installed at all."""
    try:
        spec = importlib.util.find_spec("pyseccomp")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return None
    digest = sha256(_MAGIC)
    for path in (_HERE / "syscalls.py", Path(spec.origin)):
        digest.update(path.read_bytes())
    try:
        libraries = os.stat("/etc/ld.so.cache")
        digest.update(f"{libraries.st_ino} {libraries.st_size} {libraries.st_mtime_ns}".encode())
    except OSError:
        pass
    digest.update(f"{os.environ.get('LD_LIBRARY_PATH', '')}\0{os.uname().machine}\0{spec.origin}".encode())
    return digest.hexdigest()[:32]


def _build() -> Program | None:
    from sandbox import syscalls

    module = syscalls.seccomp_module()
    if module is None:
        return None
    try:
        return syscalls.compile_filter(module)
    except Exception:  # the binding or libseccomp failed: no filter, which the sandbox then says
        return None


def _read(path: Path) -> Program | None:
    """The stored program, or None when it is missing or not the shape `_write` gives it."""
    from sandbox.inside.walls import PID_SENTINEL

    try:
        data = path.read_bytes()
    except OSError:
        return None
    start = len(_MAGIC) + _HEADER.size
    if not data.startswith(_MAGIC) or len(data) < start:
        return None
    shared_len, run_len, count = _HEADER.unpack_from(data, len(_MAGIC))
    if shared_len % 8 or run_len % 8 or not shared_len or not run_len or not count \
            or len(data) != start + shared_len + run_len + 4 * count:
        return None
    shared = data[start:start + shared_len]
    run = data[start + shared_len:start + shared_len + run_len]
    offsets = struct.unpack_from(f"={count}I", data, start + shared_len + run_len)
    if any(o % 8 != 4 or o + 4 > run_len or struct.unpack_from("=I", run, o)[0] != PID_SENTINEL for o in offsets):
        return None
    return shared, (run, offsets)


def _write(path: Path, program: Program) -> None:
    shared, (run, offsets) = program
    keep(path, _MAGIC + _HEADER.pack(len(shared), len(run), len(offsets)) + shared + run
         + struct.pack(f"={len(offsets)}I", *offsets))
