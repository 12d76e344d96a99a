"""The judge's side of an interactive run (inside/interactive.py is the fork server's, the runner's
`interact` the run's): rows go into the sandbox one at a time, each only after the last answer
came back, straight to the run's pipe, and answers come straight back. The fork server keeps the
clock; the judge tells it how much of the wall clock was its own turn."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable

from sandbox.errors import SandboxLost
from sandbox.inside import protocol, wire
from sandbox.launch import ForkServer
from sandbox.outcome import RunOutcome, outcome_of
from sandbox.tasks import REPLY_GRACE_S

ANSWER_READ_BYTES = 64 << 10  # one read of a run's answers: a pipe's worth (1 MiB was an mmap per step)
END = protocol.to_wire(protocol.Control(protocol.ControlKind.END))


class Steps:
    """One interactive run. Row t+1 is written after step t's answer came back; `on_step(t,
    answer)` checks that answer while the run works on row t+1, and saying stop ends the run,
    whose answer to row t+1 is then dropped; the last row answered also ends it. The run's first
    frame is its word that construction succeeded. Every answer is the run's own bytes, cut from
    a stream read without blocking: a frame over `result_bytes` is an invalid answer, and nothing
    the run writes can stall this."""

    def __init__(self, server: ForkServer, rows: list[bytes], result_bytes: int,
                 on_step: Callable[[int, bytes], bool]):
        self.server, self.rows, self.result_bytes, self.on_step = server, rows, result_bytes, on_step
        self.answered = -1  # -1: construction not yet confirmed
        self.ended = False
        self.received, self.pending = bytearray(), bytearray()
        self.turns = _JudgeTurns()
        self.woke: float | None = None  # when the judge woke to an answer it has not sent a row for

    def run(self, task: protocol.Task, blobs: list[bytes]) -> RunOutcome:
        wire.drain(self.server.answers)  # what an earlier run wrote and nobody read
        self.server.send(protocol.to_wire(task), blobs)
        deadline = time.monotonic() + task.limits.cap_ms / 1000 + REPLY_GRACE_S
        from_server = self.server.stdout.fileno()
        try:
            while True:
                remaining = deadline - time.monotonic()
                ready, writable, _ = select.select([self.server.answers, from_server] if not self.ended else
                                                   [from_server], [self.server.rows] if self.pending else [], [],
                                                   max(remaining, 0.0))
                if not ready and not writable and remaining <= 0:
                    raise SandboxLost(f"no answer from the fork server within "
                                      f"{task.limits.cap_ms / 1000 + REPLY_GRACE_S:.0f} s", timed_out=True)
                if writable:
                    self._write_rows()
                if self.server.answers in ready:
                    self.woke = time.monotonic()
                    if self.turns.due() and not self.ended:  # the fork server's clock leaves the judge's turns out
                        self.server.send(protocol.to_wire(protocol.Control(protocol.ControlKind.JUDGE_TIME,
                                                                                self.turns.total_ms())))
                    self._read_answers()
                    self._answer_all()
                if from_server in ready:  # the run has exited: what it wrote before is all in the pipe
                    while not self.ended and self._read_answers():
                        self._answer_all()
                    outcome = outcome_of(*self.server.receive(0.0))
                    if not self.ended:
                        self.server.send(END)
                    return outcome
        finally:
            self.turns.close()

    def _answer_all(self) -> None:
        for frame in self._frames():
            if not self.ended:
                self._answer(frame)

    def _answer(self, frame: bytes) -> None:
        going_on = self.answered + 1 < len(self.rows)
        if going_on:  # the run works on the next row while this answer is checked here
            row = self.rows[self.answered + 1]
            self.pending.extend(len(row).to_bytes(4, "big") + row)
            self._write_rows()
            if self.woke is not None:
                self.turns.add(time.monotonic() - self.woke)
                self.woke = None
        if self.answered >= 0 and not self.on_step(self.answered, frame):
            self.ended = True
        self.ended = self.ended or not going_on
        self.answered += 1
        if self.ended:
            self.pending.extend(bytes(4))  # the empty frame: no more steps
            self._write_rows()
            self.server.send(END)

    def _read_answers(self) -> bool:
        """One read of what the run wrote (a run that writes without end cannot hold the judge in a
        loop here); False when there was nothing to read."""
        try:
            chunk = os.read(self.server.answers, ANSWER_READ_BYTES)
        except BlockingIOError:
            return False
        self.received += chunk
        return bool(chunk)

    def _frames(self) -> list[bytes]:
        """The complete answer frames at the front of what was read; one over the limit becomes an
        invalid answer and the rest of the stream is dropped, so what is kept stays under a frame."""
        try:
            return wire.cut_frames(self.received, self.result_bytes)
        except ValueError:
            size = int.from_bytes(self.received[:4], "big")
            self.received.clear()
            over = protocol.Result(protocol.ResultStatus.INVALID,
                                   message=f"a step's answer of {size} bytes is over the limit")
            return [protocol.result_header(over)]

    def _write_rows(self) -> None:
        try:
            del self.pending[:os.write(self.server.rows, self.pending)]
        except BlockingIOError:
            pass


class _JudgeTurns:
    """The judge's share of an interactive run's wall clock: from an answer's arrival to the next
    row, and the time this thread waited for a CPU (on a busy machine, most of it), which
    /proc/thread-self/schedstat counts. Reported to the fork server every REPORT_MS."""

    REPORT_MS = 20.0

    def __init__(self):
        try:
            self._fd = os.open("/proc/thread-self/schedstat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self._fd = -1
        self._start_delay = self._delay_ms()
        self._held_ms = 0.0
        self._reported = 0.0

    def _delay_ms(self) -> float:
        if self._fd < 0:
            return 0.0
        try:
            return int(os.pread(self._fd, 128, 0).split()[1]) / 1e6
        except (OSError, IndexError, ValueError):
            return 0.0

    def add(self, seconds: float) -> None:
        self._held_ms += seconds * 1000

    def total_ms(self) -> float:
        self._reported = self._held_ms + self._delay_ms() - self._start_delay
        return self._reported

    def due(self) -> bool:
        return self._held_ms + self._delay_ms() - self._start_delay - self._reported >= self.REPORT_MS

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
