"""Round-robin between users: each user's judgings wait in their own line, and the next judging
taken is the first of the next user in turn, so one student's many submissions do not hold up the
class."""

from __future__ import annotations

import threading
from collections import OrderedDict, deque

from classroom.store import Job


class FairQueue:
    def __init__(self) -> None:
        self._lines: OrderedDict[int, deque[Job]] = OrderedDict()  # user -> their judgings; in turn order
        self._changed = threading.Condition()
        self._closed = False

    def put(self, job: Job) -> None:
        with self._changed:
            self._lines.setdefault(job.user, deque()).append(job)
            self._changed.notify()

    def take(self, timeout: float | None = None) -> Job | None:
        """The next user's first judging (waiting up to `timeout`), or None when closed or none came."""
        with self._changed:
            if not self._lines and not self._closed:
                self._changed.wait(timeout)
            if not self._lines:
                return None
            user, line = next(iter(self._lines.items()))
            job = line.popleft()
            del self._lines[user]
            if line:
                self._lines[user] = line  # to the back of the turn
            return job

    def __len__(self) -> int:
        with self._changed:
            return sum(len(line) for line in self._lines.values())

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
