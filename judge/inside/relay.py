"""The interactive relay, inside the sandbox: between the judge and a run that answers one step
at a time (an interactive problem's `step` calls).

The fork server holds both ends: rows the judge sends go to the run only when the judge sends
them (after it has the previous answer), and every frame the run writes is cut from a byte stream
read without blocking and passed on unparsed. The run is untrusted: a frame over its size cap, a
run that will not exit after its last step, or one past the wall clock, is killed; nothing it
writes can stall the loop.
"""

from __future__ import annotations

import os
import select
import signal
import struct
import time

import wire

ENDED_GRACE_S = 0.2  # after the judge's last step, the child's time to see end of input and exit


def relay(pid: int, deadline: float, step_in: int, step_out: int, protocol: tuple[int, int],
           cap: int) -> tuple[bool, bool]:
    """An interactive run: each row the judge sends goes to the child, each frame the child writes
    goes back to the judge, until the child exits or the wall-clock deadline passes.

    The child is untrusted: its frames are cut from a byte stream read without blocking, a frame
    over `cap` ends the run, and nothing it writes can stall this loop. The judge sends `end` when
    it wants no more steps; then the child's input is closed, and a child that does not exit
    promptly is killed. Returns (timed out, the judge ended it).
    """
    proto_in, proto_out = protocol
    pidfd = os.pidfd_open(pid)
    os.set_blocking(step_in, False)
    os.set_blocking(step_out, False)
    received, pending = bytearray(), bytearray()
    ended_at = None
    try:
        while True:
            now = time.monotonic()
            limit = deadline if ended_at is None else min(deadline, ended_at + ENDED_GRACE_S)
            if now >= limit:
                os.kill(pid, signal.SIGKILL)
                return ended_at is None, ended_at is not None
            readers = [pidfd, proto_in] + ([step_out] if step_out >= 0 else [])
            if ended_at is not None:
                readers.remove(proto_in)
            writers = [step_in] if pending and step_in >= 0 else []
            ready_r, ready_w, _ = select.select(readers, writers, [], limit - now)
            if step_out in ready_r:
                step_out = _forward(step_out, received, cap, proto_out, pid)
            if ready_w:
                try:
                    del pending[:os.write(step_in, pending)]
                except BlockingIOError:
                    pass
                except OSError:  # the child closed its end: it gets nothing more
                    pending.clear()
            if proto_in in ready_r:
                header, blobs = wire.receive(proto_in)
                if header.get("kind") == "step" and blobs:
                    pending += struct.pack(">I", len(blobs[0])) + blobs[0]
                else:  # end: no more input for the child
                    ended_at = time.monotonic()
                    pending.clear()
                    os.close(step_in)
                    step_in = -1
            if pidfd in ready_r:
                if step_out >= 0:
                    step_out = _forward(step_out, received, cap, proto_out, pid)  # written before it exited
                return False, ended_at is not None
    finally:
        os.close(pidfd)
        for fd in (step_in, step_out):
            if fd >= 0:
                os.close(fd)


def _forward(fd: int, received: bytearray, cap: int, proto_out: int, pid: int) -> int:
    """Read what the child wrote, send each complete frame to the judge; the descriptor, or -1 once
    the child closed it or broke the framing (then it is killed: it gets no more steps)."""
    while True:
        try:
            chunk = os.read(fd, 1 << 20)
        except BlockingIOError:
            return fd
        if not chunk:
            os.close(fd)
            return -1
        received += chunk
        while len(received) >= 4:
            size = struct.unpack(">I", received[:4])[0]
            if size > cap:
                os.kill(pid, signal.SIGKILL)
                wire.send(proto_out, {"event": "step"}, [b'{"status": "invalid", "message": "a step\'s answer of '
                                                         + str(size).encode() + b' bytes is over the limit"}\n'])
                os.close(fd)
                return -1
            if len(received) < 4 + size:
                break
            wire.send(proto_out, {"event": "step"}, [bytes(received[4:4 + size])])
            del received[:4 + size]


def await_end(proto_in: int) -> None:
    """After an interactive run's last report, the judge's `end` (rows it sent meanwhile are dropped)."""
    while True:
        try:
            header, _ = wire.receive(proto_in)
        except (EOFError, ValueError):
            os._exit(0)
        if header.get("kind") == "end":
            return
