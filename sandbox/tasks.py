"""Tasks for a fork server: one alone (compile, check) or runs in flight side by side (submit,
then collect whichever ends first). Runs are written by a thread of their own: while a megabyte
of input goes in, the fork server may be writing another run's result back, and each side would
otherwise wait for the other to read."""

from __future__ import annotations

import queue
import threading
import time

from sandbox.errors import SandboxLost
from sandbox.inside import protocol, wire
from sandbox.launch import ForkServer
from sandbox.outcome import RunOutcome, outcome_of

REPLY_GRACE_S = 5.0  # past a run's own wall-clock cap, before the fork server is presumed lost


class Tasks:
    def __init__(self, server: ForkServer):
        self.server = server
        self._in_flight: dict[int, float] = {}  # run id -> when the fork server is overdue
        self._writer: threading.Thread | None = None
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()

    def alone(self, task: protocol.Task, blobs: list[bytes]) -> RunOutcome:
        """Send one task (no run in flight) and wait for its outcome, as long as its limits allow."""
        self.settle()
        self.server.send(protocol.to_wire(task), blobs)
        return outcome_of(*self.server.receive(task.limits.cap_ms / 1000 + REPLY_GRACE_S))

    def submit(self, task: protocol.Task, blobs: list[bytes]) -> None:
        """Start a run alongside those in flight; `collect` gets its outcome."""
        if self._writer is None:
            self._writer = threading.Thread(target=self._write, daemon=True)
            self._writer.start()
        assert task.id is not None  # a run's Status comes back with its id
        self._outbox.put((protocol.to_wire(task), blobs))
        self._in_flight[task.id] = time.monotonic() + task.limits.cap_ms / 1000 + REPLY_GRACE_S

    def collect(self) -> tuple[int, RunOutcome]:
        """The next run in flight to end, whichever it is: (its id, its outcome)."""
        header, parts = self.server.receive(max(0.0, min(self._in_flight.values()) - time.monotonic()))
        task_id = header.get("id")
        if type(task_id) is not int or task_id not in self._in_flight:
            raise SandboxLost("the fork server reported a run that is not in flight")
        del self._in_flight[task_id]
        return task_id, outcome_of(header, parts)

    def _write(self) -> None:
        fd = self.server.stdin.fileno()
        while (item := self._outbox.get()) is not None:
            try:
                wire.send(fd, *item)
            except (OSError, ValueError):
                return  # the fork server is gone: the next reply awaited says so

    def settle(self) -> None:
        """Let the writer finish what it holds, before a task that goes alone: only with no run in
        flight (the fork server then only reads)."""
        if self._writer is not None:
            self._outbox.put(None)
            self._writer.join()
            self._writer = None

    def close(self, grace_s: float | None) -> bool:
        """Stop the writer; False when it is still stuck writing to a fork server that does not
        read after `grace_s` (None: wait until it is done, once the fork server is ended)."""
        writer = self._writer
        if writer is None:
            return True
        self._outbox.put(None)
        writer.join(timeout=grace_s)
        if writer.is_alive():
            return False
        self._writer = None
        return True
