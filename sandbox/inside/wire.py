"""The wire format between the judge and the fork server, used on both sides.

Frames of a 4-byte big-endian length and a payload; a message is one JSON header frame followed
by `header["blobs"]` binary frames. The judge reads what comes back as untrusted bytes: sizes are
capped, and anything malformed is an EOFError or ValueError for the caller to turn into a verdict.
"""

from __future__ import annotations

import json
import os
import select
import struct
from collections.abc import Callable, Sequence

MAX_FRAME = 256 << 20
MAX_HEADER = 1 << 20
MAX_BLOBS = 16


def write_frame(fd: int, payload: bytes) -> None:
    data = memoryview(struct.pack(">I", len(payload)) + payload)
    while data:
        data = data[os.write(fd, data):]


def read_frame(fd: int, limit: int = MAX_FRAME) -> bytes:
    size = struct.unpack(">I", _read_exact(fd, 4))[0]
    if size > limit:
        raise EOFError(f"frame of {size} bytes is over the limit of {limit}")
    return _read_exact(fd, size)


def _read_exact(fd: int, n: int) -> bytes:
    parts, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise EOFError("channel closed")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def drain(fd: int) -> None:
    """Discard what is waiting in a pipe (a step pipe's leftovers from an earlier run), without
    blocking and without changing the descriptor's flags, which its other holders share."""
    while select.select([fd], [], [], 0)[0]:
        if not os.read(fd, 1 << 16):
            return


def cut_frames(buffer: bytearray, limit: int) -> list[bytes]:
    """The complete frames at the front of `buffer` (removed from it), for a stream read without
    blocking; ValueError when the next frame announces more than `limit` bytes."""
    frames = []
    while len(buffer) >= 4:
        size = struct.unpack(">I", buffer[:4])[0]
        if size > limit:
            raise ValueError(f"a frame of {size} bytes is over the limit")
        if len(buffer) < 4 + size:
            break
        frames.append(bytes(buffer[4:4 + size]))
        del buffer[:4 + size]
    return frames


def send(fd: int, header: dict, blobs: Sequence[bytes] = ()) -> None:
    header = dict(header, blobs=len(blobs))
    write_frame(fd, json.dumps(header).encode())
    for blob in blobs:
        write_frame(fd, blob)


def receive(fd: int) -> tuple[dict, list[bytes]]:
    """One message; ValueError when its header is not a JSON object with a sane blob count."""
    raw = read_frame(fd, MAX_HEADER)
    try:
        header = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"unreadable header ({type(exc).__name__})") from None
    count = header.get("blobs", 0) if isinstance(header, dict) else None
    if type(count) is not int or not 0 <= count <= MAX_BLOBS:
        raise ValueError("malformed header")
    return header, [read_frame(fd) for _ in range(count)]


def forked_writer(write: Callable[[int], None], keep_only_pipe: bool = False) -> tuple[int, int]:
    """Run `write(fd)` in a forked child that sends its messages into a new pipe, then exits
    (status 0, or 1 when `write` raised): never returns into the caller's stack. Returns the
    child's pid and the pipe's read end. `keep_only_pipe`: the child first closes every other
    descriptor above 2, so it holds nothing of its parent's (a pipe to another process among them).
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.close(read_end)
            if keep_only_pipe:
                os.closerange(3, write_end)
                os.closerange(write_end + 1, 1 << 16)
            write(write_end)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return pid, read_end
