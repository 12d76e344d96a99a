"""Judgings for the web page: one queue, as many workers as cores, each judging a `python -m judge`
process of its own (so in its own sandbox, recorded in the history, exactly as in a terminal).

The queue is bounded: at most MAX_QUEUED judgings wait in all, and one per file (a second Submit
of the same file while one waits is refused, not queued behind it); beyond, `Busy` (429).

The page follows a job's events (one per test as it is judged, then the final report), may come
back to it after a reload (`active`), and may cancel it: a queued job is dropped, a running one
gets SIGINT as from Ctrl-C (the judge tears its sandbox down and exits 130), then SIGKILL if it
does not go. `shutdown` (the server's Ctrl-C or SIGTERM) stops taking jobs, drops the queue and
interrupts every running judging at once, without waiting: the event streams end at once.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from serving.answers import finite

CANCEL_GRACE_S = 5.0
KEEP_JOBS = 200  # finished jobs kept for a page that reconnects
MAX_QUEUED = 8  # judgings waiting for a worker, in all
ENDED = ("done", "cancelled")


class Busy(Exception):
    """The queue cannot take this judging now: the message says why (the page shows it)."""

    def __init__(self, message: str, status: int = 429):
        super().__init__(message)
        self.status = status


@dataclass
class Job:
    argv: list[str]
    cwd: Path
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    events: list[dict] = field(default_factory=list)
    state: str = "queued"  # queued, running, done, cancelled
    process: subprocess.Popen | None = None
    changed: threading.Condition = field(default_factory=threading.Condition)
    cleanup: list[Path] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)  # a temporary path -> what the user calls it
    file: str = ""  # the practice file judged (its resolved path): one queued judging per file
    about: dict = field(default_factory=dict)  # what the page needs to show it again: kind, level, problem
    stopping: bool = False  # interrupted on request: however the judge ends without a report, it is cancelled

    def add(self, event: dict) -> None:
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    def events_after(self, seen: int, timeout: float) -> tuple[list[dict], bool]:
        """Events from index `seen` on, waiting up to `timeout` for one; and whether the job ended."""
        with self.changed:
            if len(self.events) <= seen and self.state in ("queued", "running"):
                self.changed.wait(timeout)
            return self.events[seen:], self.state in ENDED

    def snapshot(self, seen: int) -> tuple[list[dict], bool]:
        """Events from index `seen` on, without waiting; and whether the job ended."""
        with self.changed:
            return self.events[seen:], self.state in ENDED

    def summary(self) -> dict:
        return {"job": self.id, "state": self.state, **self.about}

    def end(self, state: str, event: dict) -> None:
        """Under self.changed: the last state and event; the temporary files go."""
        self.state = state
        self.events.append(event)
        self.changed.notify_all()
        for path in self.cleanup:
            path.unlink(missing_ok=True)


class JobQueue:
    def __init__(self, workers: int | None = None, max_queued: int = MAX_QUEUED):
        self.jobs: dict[str, Job] = {}
        self.max_queued = max_queued
        self.closing = threading.Event()
        self._todo: queue.Queue[Job | None] = queue.Queue()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._work, daemon=True, name=f"judge-worker-{i}")
                         for i in range(workers or os.cpu_count() or 1)]
        for thread in self._threads:
            thread.start()

    @property
    def workers(self) -> int:
        return len(self._threads)

    def submit(self, job: Job) -> Job:
        """Queue `job`, or raise Busy: the server is closing, MAX_QUEUED wait already, or a
        judging of the same file waits already. Its temporary files go with a refusal."""
        with self._lock:
            try:
                if self.closing.is_set():
                    raise Busy("the server is shutting down", 503)
                waiting = [j for j in self.jobs.values() if j.state == "queued"]
                if job.file and any(j.file == job.file for j in waiting):
                    raise Busy(f"a judging of {Path(job.file).name} is already waiting for a worker: cancel it, "
                               "or wait for it")
                if len(waiting) >= self.max_queued:
                    raise Busy(f"{len(waiting)} judgings are waiting for the {self.workers} workers already: "
                               "try again when one has finished")
            except Busy:
                for path in job.cleanup:
                    path.unlink(missing_ok=True)
                raise
            self.jobs[job.id] = job
            finished = [j for j in self.jobs.values() if j.state in ENDED]
            for old in finished[:max(0, len(finished) - KEEP_JOBS)]:
                del self.jobs[old.id]
        self._todo.put(job)
        return job

    def active(self, file: str) -> Job | None:
        """The latest judging of `file` that has not ended (a reloaded page follows it again)."""
        with self._lock:
            found = [j for j in self.jobs.values() if j.file == file and j.state not in ENDED]
        return found[-1] if found else None

    def counts(self) -> dict:
        with self._lock:
            states = [j.state for j in self.jobs.values()]
        return {"running": states.count("running"), "queued": states.count("queued"), "workers": self.workers,
                "max_queued": self.max_queued}

    def cancel(self, job: Job, wait: bool = True) -> None:
        """A queued job is dropped (its temporary files with it); a running one is interrupted,
        and with `wait` killed if it has not gone after the grace."""
        with job.changed:
            if job.state == "queued":
                job.end("cancelled", {"event": "cancelled"})
                return
            process = job.process
            job.stopping = job.state == "running"
        if job.state == "running" and process is not None:
            if wait:
                _stop(process)
            else:
                _interrupt(process)

    def shutdown(self) -> None:
        """The server is stopping: take no more jobs, drop the queued ones, interrupt the running
        ones (without waiting), and wake every event stream so that it ends now."""
        self.closing.set()
        with self._lock:
            jobs = list(self.jobs.values())
        for job in jobs:
            self.cancel(job, wait=False)
        for job in jobs:
            with job.changed:
                job.changed.notify_all()

    def close(self) -> None:
        """Cancel everything and wait for it: no judging outlives the server."""
        self.shutdown()
        with self._lock:
            running = [j.process for j in self.jobs.values() if j.state == "running" and j.process is not None]
        deadline = time.monotonic() + CANCEL_GRACE_S
        for process in running:
            try:
                process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
        for _ in self._threads:
            self._todo.put(None)
        for thread in self._threads:
            thread.join(CANCEL_GRACE_S + 1)

    def _work(self) -> None:
        while (job := self._todo.get()) is not None:
            with job.changed:
                if job.state != "queued":
                    continue
                if self.closing.is_set():
                    job.end("cancelled", {"event": "cancelled"})
                    continue
                job.state = "running"
                try:
                    job.process = subprocess.Popen(job.argv, cwd=job.cwd, stdout=subprocess.PIPE,
                                                   stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                                   errors="replace", env=dict(os.environ, PYTHONUNBUFFERED="1"))
                except OSError as exc:  # the worker lives on; the page is told
                    job.end("done", {"event": "error", "message": f"the judge could not start: {exc}"})
                    continue
            try:
                self._follow(job)
            finally:
                with job.changed:
                    for path in job.cleanup:
                        path.unlink(missing_ok=True)

    @staticmethod
    def _follow(job: Job) -> None:
        process = job.process
        assert process is not None and process.stdout is not None and process.stderr is not None  # started, piped
        last = None
        for line in process.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("event") == "test":
                job.add(finite(event))
            else:
                last = event
        stderr = process.stderr.read()
        code = process.wait()
        with job.changed:
            reported = isinstance(last, dict) and "error" not in last
            # a SIGINT that lands while the judge still imports ends it with a bare traceback
            if code in (130, -signal.SIGINT, -signal.SIGKILL) or (job.stopping and not reported):
                job.end("cancelled", {"event": "cancelled"})
            elif isinstance(last, dict) and "error" in last:
                message = str(last["error"])
                for path, name in job.aliases.items():
                    message = message.replace(path, name)
                job.end("done", {"event": "error", "message": message})
            elif isinstance(last, dict):
                job.end("done", {"event": "done", "exit": code, "report": finite(last)})
            else:
                message = stderr.strip().splitlines()[-1] if stderr.strip() else f"the judge exited {code}"
                job.end("done", {"event": "error", "message": message})


def _interrupt(process: subprocess.Popen) -> None:
    try:
        process.send_signal(signal.SIGINT)
    except ProcessLookupError:
        pass


def _stop(process: subprocess.Popen) -> None:
    try:
        process.send_signal(signal.SIGINT)
        deadline = time.monotonic() + CANCEL_GRACE_S
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if process.poll() is None:
            process.kill()
    except ProcessLookupError:
        pass


def judge_command(*args: str) -> list[str]:
    """`python -m judge ...` with this interpreter: the same entry point as a terminal's."""
    return [sys.executable, "-m", "judge", *args]
