"""One machine, no other service: in-process workers, one per core, each a thread with a warm
sandbox (judging.py), taking judgings from the fair queue and storing each result."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from classroom.fair import FairQueue
from classroom.judging import WarmJudge, internal
from classroom.store import Job, Store
from problems import Problem

log = logging.getLogger("classroom")


class LocalJudges:
    def __init__(self, store: Store, problems: dict[str, Problem], workers: int, secrets: list[Path]):
        self.store, self.problems, self.secrets = store, problems, secrets
        self.queue = FairQueue()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._work, args=(i,), daemon=True, name=f"class-worker-{i}")
                         for i in range(workers)]

    def start(self) -> None:
        for job in self.store.jobs_to_do():  # what a stopped server left: judged now
            self.queue.put(job)
        for thread in self._threads:
            thread.start()

    def submit(self, job: Job) -> None:
        self.queue.put(job)

    def run_judge(self) -> None:
        """Students' Runs are judged by this server's own sandboxes (tryout.py)."""
        return None

    def _work(self, index: int) -> None:
        judge = WarmJudge(self.problems, f"{index}", self.secrets)
        try:
            judge.warm_up()  # in this thread: the sandbox lives with the thread that started it
        except Exception as exc:  # judged all the same: each judging says what fails
            log.warning("worker %s could not warm up: %s", index, exc)
        try:
            while not self._stop.is_set():
                job = self.queue.take(timeout=0.5)
                if job is None or not self.store.current(job):
                    continue  # nothing yet, or rejudged since it was queued (the new round is queued too)
                self.store.judging(job)
                try:
                    result = judge.judge(job.problem, job.code)
                except Exception as exc:  # the worker lives on; the submission gets a verdict all the same
                    log.exception("judging %s failed", job.submission)
                    result = internal(f"the judge failed: {exc!r}")
                self.store.finish(job.submission, job.round, result)
        finally:
            judge.close()

    def close(self) -> None:
        self._stop.set()
        self.queue.close()
        for thread in self._threads:
            thread.join(timeout=10)
