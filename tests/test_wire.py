"""sandbox/inside/wire.py's framing, over plain pipes (no sandbox): a 4-byte big-endian length and a
payload; a message is a JSON header frame, then as many binary frames as its `blobs` says. What the
other side sends is untrusted: sizes are capped and anything malformed is EOFError or ValueError."""

from __future__ import annotations

import fcntl
import json
import os
import re
import struct
import threading

import pytest

from sandbox.inside import wire


def frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


@pytest.fixture
def pipe():
    read_end, write_end = os.pipe()
    yield read_end, write_end
    for fd in (read_end, write_end):
        try:
            os.close(fd)
        except OSError:
            pass


def test_cut_frames_takes_the_whole_frames_and_keeps_a_partial_one():
    buffer = bytearray(frame(b"one") + frame(b"") + frame(b"three")[:6])
    assert wire.cut_frames(buffer, 100) == [b"one", b""]
    assert buffer == frame(b"three")[:6]  # the partial frame stays for the next read
    buffer += frame(b"three")[6:] + frame(b"four")[:2]
    assert wire.cut_frames(buffer, 100) == [b"three"]
    assert buffer == frame(b"four")[:2]  # not even a whole length yet
    assert wire.cut_frames(buffer, 100) == []
    buffer += frame(b"four")[2:]
    assert wire.cut_frames(buffer, 100) == [b"four"] and buffer == b""


def test_cut_frames_takes_a_frame_of_exactly_the_limit():
    buffer = bytearray(frame(b"x" * 8))
    assert wire.cut_frames(buffer, 8) == [b"x" * 8]


def test_cut_frames_refuses_a_frame_over_the_limit_from_its_length_alone():
    """The length is enough: nothing waits for (or buffers) the bytes a frame over the limit claims."""
    buffer = bytearray(frame(b"ok") + struct.pack(">I", 9))
    with pytest.raises(ValueError, match="^a frame of 9 bytes is over the limit$"):
        wire.cut_frames(buffer, 8)
    with pytest.raises(ValueError, match="^a frame of 4294967295 bytes is over the limit$"):
        wire.cut_frames(bytearray(b"\xff\xff\xff\xff"), wire.MAX_FRAME)


def test_a_message_goes_through_a_pipe_and_comes_back_whole(pipe):
    read_end, write_end = pipe
    blobs = [b"", bytes(range(256)) * 40, b"\n" * 3]
    wire.send(write_end, {"kind": "run", "id": 3, "nested": {"a": [1, 2.5, None]}}, blobs)
    wire.send(write_end, {"kind": "end"})
    header, got = wire.receive(read_end)
    assert header == {"kind": "run", "id": 3, "nested": {"a": [1, 2.5, None]}, "blobs": 3}
    assert got == blobs
    assert wire.receive(read_end) == ({"kind": "end", "blobs": 0}, [])


def test_a_frame_cut_short_is_eof(pipe):
    read_end, write_end = pipe
    os.write(write_end, frame(b"payload")[:-2])
    os.close(write_end)
    with pytest.raises(EOFError, match="^channel closed$"):
        wire.read_frame(read_end)


def test_no_length_at_all_is_eof(pipe):
    read_end, write_end = pipe
    os.write(write_end, b"\x00\x00")
    os.close(write_end)
    with pytest.raises(EOFError, match="^channel closed$"):
        wire.read_frame(read_end)


def test_a_frame_over_the_reader_s_limit_is_eof(pipe):
    read_end, write_end = pipe
    os.write(write_end, struct.pack(">I", 1 << 30))
    with pytest.raises(EOFError, match="^frame of 1073741824 bytes is over the limit of 1048576$"):
        wire.read_frame(read_end, 1 << 20)


@pytest.mark.parametrize(("header", "message"), [
    (b"not json", "unreadable header (JSONDecodeError)"),
    (b"\xff\xfe", "unreadable header (JSONDecodeError)"),  # a UTF-16 byte order mark, then nothing
    (b"\xc3\x28", "unreadable header (UnicodeDecodeError)"),
    (b"[" * 100000 + b"]" * 100000, "unreadable header (RecursionError)"),
    (b"[1, 2]", "malformed header"),
    (b'"text"', "malformed header"),
    (b'{"blobs": -1}', "malformed header"),
    (b'{"blobs": 17}', "malformed header"),  # over MAX_BLOBS
    (b'{"blobs": true}', "malformed header"),
    (b'{"blobs": 1.0}', "malformed header"),
    (b'{"blobs": "1"}', "malformed header"),
])
def test_a_malformed_header_is_a_value_error(pipe, header, message):
    read_end, write_end = pipe
    writer = threading.Thread(target=wire.write_frame, args=(write_end, header))  # more than a pipe holds
    writer.start()
    try:
        with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
            wire.receive(read_end)
    finally:
        writer.join()


def test_a_header_over_its_limit_is_eof(pipe):
    read_end, write_end = pipe
    os.write(write_end, struct.pack(">I", wire.MAX_HEADER + 1))
    over = f"^frame of {wire.MAX_HEADER + 1} bytes is over the limit of {wire.MAX_HEADER}$"
    with pytest.raises(EOFError, match=over):
        wire.receive(read_end)


def test_the_most_blobs_a_message_may_have(pipe):
    read_end, write_end = pipe
    wire.send(write_end, {}, [bytes([n]) for n in range(wire.MAX_BLOBS)])
    assert wire.receive(read_end) == ({"blobs": wire.MAX_BLOBS}, [bytes([n]) for n in range(wire.MAX_BLOBS)])


def test_a_blob_count_without_its_blobs_is_eof(pipe):
    read_end, write_end = pipe
    wire.write_frame(write_end, json.dumps({"blobs": 2}).encode())
    wire.write_frame(write_end, b"only one")
    os.close(write_end)
    with pytest.raises(EOFError, match="^channel closed$"):
        wire.receive(read_end)


def test_drain_empties_a_pipe_without_blocking(pipe):
    read_end, write_end = pipe
    os.write(write_end, b"left over" * 1000)
    flags = fcntl.fcntl(read_end, fcntl.F_GETFL)
    wire.drain(read_end)
    wire.drain(read_end)  # nothing waiting: returns at once
    assert fcntl.fcntl(read_end, fcntl.F_GETFL) == flags  # still blocking, for the pipe's other holders
    os.write(write_end, b"next")
    assert os.read(read_end, 100) == b"next"


def test_drain_returns_at_the_end_of_a_closed_pipe(pipe):
    read_end, write_end = pipe
    os.write(write_end, b"last words")
    os.close(write_end)
    wire.drain(read_end)
    assert os.read(read_end, 100) == b""


def _reap(pid: int) -> int:
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@pytest.mark.parametrize("keep_only_pipe", [False, True])
def test_a_forked_writer_sends_from_a_child_holding_only_its_pipe_when_asked(pipe, keep_only_pipe):
    """The child's messages come through the pipe it was given; with keep_only_pipe, another
    descriptor of the parent's (here the test's pipe) is closed in the child before it writes."""
    other = pipe[1]

    def write(fd: int) -> None:
        try:
            os.fstat(other)
            held = True
        except OSError:
            held = False
        wire.send(fd, {"held": held}, [b"blob"])

    pid, read_end = wire.forked_writer(write, keep_only_pipe=keep_only_pipe)
    try:
        assert wire.receive(read_end) == ({"held": not keep_only_pipe, "blobs": 1}, [b"blob"])
        assert os.read(read_end, 1) == b""  # the child has exited: its end is closed
    finally:
        os.close(read_end)
    assert _reap(pid) == 0


def test_a_forked_writer_that_raises_exits_1_and_never_returns_here():
    def write(fd: int) -> None:
        wire.send(fd, {"before": True})
        raise RuntimeError("in the child")

    pid, read_end = wire.forked_writer(write)
    try:
        assert wire.receive(read_end) == ({"before": True, "blobs": 0}, [])
        assert os.read(read_end, 1) == b""
    finally:
        os.close(read_end)
    assert _reap(pid) == 1
