"""Many machines: judgings on a Redis queue, with Dramatiq (docs/classroom.md says why).

The server (`serve --class DIR --queue URL`) only enqueues and stores: its fair queue (fair.py)
hands Dramatiq at most two messages per worker thread, so the round-robin order holds; each
message's id names the class, the submission and its judging round, and its result comes back
through Dramatiq's Results backend on the same Redis, which the server polls and writes to SQLite
once (store.finish).

A worker (`python -m judge worker --queue URL`) judges with warm sandboxes (judging.py), one per
thread. Dramatiq acknowledges a message only after the actor returned and its result is stored
(the store is retried until Redis takes it); a worker that dies holds its messages unacknowledged
and, once its heartbeat is older than the timeout, another worker's broker puts them back on the
queue. Each try counts itself in Redis first: past MAX_TRIES a submission that keeps killing
workers ends as JE ("judging failed 3 times"), not in a loop.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import dramatiq
import redis
from dramatiq.brokers.redis import RedisBroker
from dramatiq.errors import BrokerConnectionError
from dramatiq.message import Message
from dramatiq.middleware import AgeLimit, Middleware, Retries
from dramatiq.results import ResultFailure, ResultMissing, Results
from dramatiq.results.backends.redis import RedisBackend

from classroom.fair import FairQueue
from classroom.judging import WarmJudge, internal
from classroom.remote_runs import RUN_QUEUE, RemoteRuns, register
from classroom.secret import masked
from classroom.store import Job, Store
from classroom.tryout import RUN_WAIT_S
from problems import Problem, all_problems

log = logging.getLogger("classroom")

NAMESPACE = "attention_judge"
QUEUE = "judge"
ACTOR = "judge_submission"
MAX_TRIES = 3  # then JE: as DMOJ ends a submission that keeps failing its judges
RESULT_TTL_MS = 7 * 86400 * 1000  # a server down for days still collects its results
MAINTENANCE_CHANCE = 50_000  # of a million broker commands: an idle worker's ~20 a second find a dead one's soon
WORKER_KEY_TTL_S = 30  # a worker announces its threads (the server's window) this long, renewed every 10 s
POLL_S = 0.05  # the server looks for results this often (a few GETs): a worker waits little for its next
IDLE_POLL_MS = 100  # an idle worker asks for work this often (Dramatiq's default, 1 s, left workers idle)
DOWN = (redis.ConnectionError, redis.TimeoutError, BrokerConnectionError)


class QueueError(Exception):
    pass


@dataclass
class Queue:
    url: str
    client: redis.Redis
    broker: RedisBroker
    backend: _DurableBackend
    judges: list[WarmJudge] = field(default_factory=list)  # a worker's, one per thread


def connect(url: str, heartbeat_ms: int = 15000) -> Queue:
    """Dramatiq's Redis broker and results backend on `url`; QueueError when it cannot be reached."""
    if urlparse(url).scheme not in ("redis", "rediss", "unix"):
        raise QueueError(f"the queue {masked(url)!r}: expected redis://[:PASSWORD@]HOST:PORT/N")
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_keepalive=True, health_check_interval=5)
        client.ping()
    except (redis.RedisError, ValueError) as exc:
        raise QueueError(f"cannot reach the queue at {masked(url)}: {exc}") from None
    backend = _DurableBackend(client=client, namespace=f"{NAMESPACE}-results")
    broker = RedisBroker(client=client, namespace=NAMESPACE, heartbeat_timeout=heartbeat_ms,
                         maintenance_chance=MAINTENANCE_CHANCE,
                         middleware=[AgeLimit(), Retries(max_retries=2, min_backoff=1000, max_backoff=10000),
                                     Results(backend=backend, store_results=True, result_ttl=RESULT_TTL_MS)])
    queue = Queue(url, client, broker, backend)
    broker.add_middleware(_WarmUp(queue))
    dramatiq.actor(actor_name=ACTOR, queue_name=QUEUE, broker=broker, store_results=True)(_actor(queue))
    register(broker, client, NAMESPACE)  # Runs (remote_runs.py): their own queue, the same workers
    return queue


class _DurableBackend(RedisBackend):
    """Results stored with retries until Redis takes them: Dramatiq acknowledges a message only
    after its result is stored, so no verdict is acknowledged and lost while Redis restarts."""

    def store_result(self, message, result, ttl):
        _until_up(lambda: super(_DurableBackend, self).store_result(message, result, ttl))

    def store_exception(self, message, exception, ttl):
        _until_up(lambda: super(_DurableBackend, self).store_exception(message, exception, ttl))


class _WarmUp(Middleware):
    """Each worker thread starts its sandbox and reads the tests before its first message."""

    def __init__(self, queue: Queue):
        self.queue = queue

    def after_worker_thread_boot(self, broker, thread) -> None:
        _judge_for(self.queue)


_local = threading.local()


def _judge_for(queue: Queue) -> WarmJudge:
    judge = getattr(_local, "judge", None)
    if judge is None:
        judge = _local.judge = WarmJudge({p.slug: p for p in all_problems()}, f"{os.getpid()}-{len(queue.judges)}")
        queue.judges.append(judge)
        try:
            judge.warm_up()  # in this thread: its sandbox lives with the thread that started it
        except Exception as exc:  # each judging says what fails
            log.warning("a worker thread could not warm up: %s", exc)
    return judge


def _actor(queue: Queue):
    def judge_submission(key: str, problem: str, code: str) -> dict:
        tries = _until_up(lambda: queue.client.incr(f"{NAMESPACE}:tries:{key}"))
        _until_up(lambda: queue.client.pexpire(f"{NAMESPACE}:tries:{key}", RESULT_TTL_MS))
        if tries > MAX_TRIES:
            return {**internal(f"judging failed {MAX_TRIES} times"), "attempts": MAX_TRIES}
        try:
            result = _judge_for(queue).judge(problem, code)
        except Exception as exc:  # a verdict all the same: the message is not retried for it
            log.exception("judging %s failed", key)
            result = internal(f"the judge failed: {exc!r}")
        return {**result, "attempts": tries}

    return judge_submission


def _until_up(command) -> Any:
    """A Redis command, retried while Redis restarts (a judging's first step: none is lost to it)."""
    while True:
        try:
            return command()
        except DOWN:
            time.sleep(1)


class QueueNoise(logging.Filter):
    """Dramatiq's consumer logs a CRITICAL line every 3 s while Redis is down: folded into one
    warning when it goes down; `back()` says once that it is up again."""

    NOISE = ("Consumer encountered a connection error", "Restarting consumer", "due to a connection error")

    def __init__(self, url: str):
        super().__init__()
        self.url, self.down = masked(url), False
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("dramatiq") or not any(n in str(record.msg) for n in self.NOISE):
            return True
        with self._lock:
            if self.down:
                return False
            self.down = True
        record.name, record.levelno, record.levelname = "classroom", logging.WARNING, "WARNING"
        reason = _reason(record)
        record.msg, record.args = f"the queue at {self.url} is down ({reason}): retrying, quiet until it is back", ()
        record.exc_info = record.exc_text = None
        return True

    def back(self) -> None:
        with self._lock:
            was, self.down = self.down, False
        if was:
            log.warning("the queue at %s is back", self.url)


def _reason(record: logging.LogRecord) -> str:
    errors = [a for a in (record.args if isinstance(record.args, tuple) else ()) if isinstance(a, BaseException)]
    return str(errors[0]).splitlines()[0][:200] if errors else "connection error"


def run_worker(queue: Queue, threads: int) -> int:
    noise = QueueNoise(queue.url)
    for handler in logging.getLogger().handlers:
        handler.addFilter(noise)
    worker = dramatiq.Worker(queue.broker, queues={QUEUE, RUN_QUEUE}, worker_threads=threads,
                             worker_timeout=IDLE_POLL_MS)
    worker.queue_prefetch = threads  # hold no more than it judges: the rest wait in the fair order
    name = f"{NAMESPACE}:worker:{uuid.uuid4().hex}"
    stop = threading.Event()

    def announce() -> None:
        while not stop.is_set():
            try:
                queue.client.set(name, threads, ex=WORKER_KEY_TTL_S)
                noise.back()
            except DOWN:
                pass
            stop.wait(1 if noise.down else 10)

    worker.start()
    announcer = threading.Thread(target=announce, daemon=True)
    announcer.start()
    print(f"worker {os.getpid()}: judging from {masked(queue.url)} with {threads} thread(s)", flush=True)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        worker.stop(timeout=30000)  # judgings under way finish; prefetched messages go back
        for judge in queue.judges:
            judge.close()
        try:
            queue.client.delete(name)
        except DOWN:
            pass
    return 0


class RemoteJudges:
    """The server's side: the fair queue, a window of messages on Redis, the results collected."""

    def __init__(self, store: Store, problems: dict[str, Problem], queue: Queue, run_wait_s: float = RUN_WAIT_S):
        self.store, self.queue = store, queue
        self.runs = RemoteRuns(queue.broker, queue.client, queue.backend, NAMESPACE, run_wait_s)
        self.class_id = store.class_id
        self.fair = FairQueue()
        self.outstanding: dict[str, tuple[Job, Message]] = {}
        self._retry: Job | None = None  # taken from the fair queue, not yet on Redis (it was down)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="class-dispatcher")

    def start(self) -> None:
        for job in self.store.jobs_to_do():  # what a stopped server left: collected, or sent again
            self.fair.put(job)
        self._thread.start()

    def submit(self, job: Job) -> None:
        self.fair.put(job)
        self._wake.set()

    def run_judge(self) -> RemoteRuns:
        """Students' Runs go to the workers too (remote_runs.py)."""
        return self.runs

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=10)

    def _message(self, job: Job) -> Message:
        key = f"{self.class_id}-{job.submission}-{job.round}"
        return Message(queue_name=QUEUE, actor_name=ACTOR, args=(key, job.problem, job.code), kwargs={}, options={},
                       message_id=key)

    def _window(self) -> int:
        """Messages on Redis at most: two per worker thread (one judged, one ready for it), so the fair
        order is kept up to that many judgings ahead."""
        threads = 0
        for key in self.queue.client.scan_iter(f"{NAMESPACE}:worker:*"):
            value = self.queue.client.get(key)
            threads += int(value) if value and value.isdigit() else 0
        return 2 * max(1, threads)

    def _loop(self) -> None:
        down = False
        while not self._stop.is_set():
            try:
                self._collect()
                self._fill()
                if down:
                    log.warning("the queue at %s is back", masked(self.queue.url))
                down = False
            except DOWN as exc:
                if not down:
                    log.warning("the queue at %s is down (%s): retrying", masked(self.queue.url), exc)
                down = True
                self._stop.wait(1)
            self._wake.wait(POLL_S)
            self._wake.clear()

    def _collect(self) -> None:
        for key, (job, message) in list(self.outstanding.items()):
            if not self.store.current(job):  # rejudged since: this round's result no longer counts
                del self.outstanding[key]
                continue
            try:
                result = self.queue.backend.get_result(message, block=False)
            except ResultMissing:
                continue
            except ResultFailure as exc:
                result = internal(f"the judging failed: {exc}")
            self.store.finish(job.submission, job.round, result if isinstance(result, dict) else
                              internal("the worker returned no result"))
            del self.outstanding[key]

    def _fill(self) -> None:
        window = self._window()
        while len(self.outstanding) < window:
            job = self._retry or self.fair.take(timeout=0)
            if job is None:
                return
            self._retry = job
            message = self._message(job)
            if self.store.current(job) and message.message_id not in self.outstanding:
                if not self._judged_already(job, message):  # (a restarted server's judgings may be)
                    self.queue.broker.enqueue(message)
                    self.store.judging(job)
                    self.outstanding[message.message_id] = (job, message)
            self._retry = None

    def _judged_already(self, job: Job, message: Message) -> bool:
        try:
            result = self.queue.backend.get_result(message, block=False)
        except ResultMissing:
            return False
        except ResultFailure as exc:
            result = internal(f"the judging failed: {exc}")
        self.store.finish(job.submission, job.round, result)
        return True
