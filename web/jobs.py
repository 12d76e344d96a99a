"""Judgings for the web page: one queue, as many workers as cores, each judging a `python -m judge`
process of its own (so in its own sandbox, recorded in the history, exactly as in a terminal).

The page follows a job's events (one per test as it is judged, then the final report) and may
cancel it: a queued job is dropped, a running one gets SIGINT as from Ctrl-C (the judge tears its
sandbox down and exits 130), then SIGKILL if it does not go.
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

CANCEL_GRACE_S = 5.0
KEEP_JOBS = 200  # finished jobs kept for a page that reconnects


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

    def add(self, event: dict) -> None:
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    def events_after(self, seen: int, timeout: float) -> tuple[list[dict], bool]:
        """Events from index `seen` on, waiting up to `timeout` for one; and whether the job ended."""
        with self.changed:
            if len(self.events) <= seen and self.state in ("queued", "running"):
                self.changed.wait(timeout)
            return self.events[seen:], self.state in ("done", "cancelled")


class JobQueue:
    def __init__(self, workers: int | None = None):
        self.jobs: dict[str, Job] = {}
        self._todo: queue.Queue[Job | None] = queue.Queue()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._work, daemon=True, name=f"judge-worker-{i}")
                         for i in range(workers or os.cpu_count() or 1)]
        for thread in self._threads:
            thread.start()

    def submit(self, job: Job) -> Job:
        with self._lock:
            self.jobs[job.id] = job
            finished = [j for j in self.jobs.values() if j.state in ("done", "cancelled")]
            for old in finished[:max(0, len(finished) - KEEP_JOBS)]:
                del self.jobs[old.id]
        self._todo.put(job)
        return job

    def cancel(self, job: Job) -> None:
        with job.changed:
            if job.state == "queued":
                job.state = "cancelled"
                job.events.append({"event": "cancelled"})
                job.changed.notify_all()
                return
            process = job.process
        if job.state == "running" and process is not None:
            _stop(process)

    def close(self) -> None:
        """Cancel everything: no judging outlives the server."""
        for job in list(self.jobs.values()):
            self.cancel(job)
        for _ in self._threads:
            self._todo.put(None)
        for thread in self._threads:
            thread.join(CANCEL_GRACE_S + 1)

    def _work(self) -> None:
        while (job := self._todo.get()) is not None:
            with job.changed:
                if job.state != "queued":
                    continue
                job.state = "running"
                try:
                    job.process = subprocess.Popen(job.argv, cwd=job.cwd, stdout=subprocess.PIPE,
                                                   stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                                   errors="replace", env=dict(os.environ, PYTHONUNBUFFERED="1"))
                except OSError as exc:  # the worker lives on; the page is told
                    job.state = "done"
                    job.events.append({"event": "error", "message": f"the judge could not start: {exc}"})
                    job.changed.notify_all()
                    for path in job.cleanup:
                        path.unlink(missing_ok=True)
                    continue
            try:
                self._follow(job)
            finally:
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
                job.add(event)
            else:
                last = event
        stderr = process.stderr.read()
        code = process.wait()
        with job.changed:
            if code in (130, -signal.SIGINT, -signal.SIGKILL):
                job.state = "cancelled"
                job.events.append({"event": "cancelled"})
            else:
                job.state = "done"
                if isinstance(last, dict) and "error" in last:
                    message = str(last["error"])
                    for path, name in job.aliases.items():
                        message = message.replace(path, name)
                    job.events.append({"event": "error", "message": message})
                elif isinstance(last, dict):
                    job.events.append({"event": "done", "exit": code, "report": last})
                else:
                    message = stderr.strip().splitlines()[-1] if stderr.strip() else f"the judge exited {code}"
                    job.events.append({"event": "error", "message": message})
            job.changed.notify_all()


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
