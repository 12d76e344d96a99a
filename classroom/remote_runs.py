"""A student's Run on the class's queue: a second Dramatiq actor on a queue of its own (a Run does
not wait behind a backlog of submissions; every worker takes both, a Run first), its report back
through the Results backend the submissions use, read capped and strictly (run_reply.py).

The server waits a bounded time: a worker that takes the Run says so every BEAT_S in Redis while
it judges; a Run no worker took within the wait, or whose worker went silent and no other took
it within the wait again, is answered with one line (503), never a hang. A message older than the
wait is skipped by a worker (Dramatiq's AgeLimit): a Run the server gave up on is not judged."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import dramatiq
import redis
from dramatiq.brokers.redis import RedisBroker
from dramatiq.errors import BrokerConnectionError
from dramatiq.message import Message

from classroom.run_reply import MAX_REPLY_BYTES, RunReplyError, run_reply
from classroom.tryout import RunRefused, judged_run
from problems import Problem, all_problems

log = logging.getLogger("classroom")

RUN_QUEUE = "run"
RUN_ACTOR = "run_code"
RUN_PRIORITY = -10  # Dramatiq takes lower first: a worker's fetched Run goes before its fetched submissions
RUN_CAP_S = 180  # a taken Run's whole judging at most (a sample's run is seconds, on a busy machine more)
BEAT_S = 1.0  # a worker judging a Run says so this often
BEAT_TTL_S = 5  # ... and is taken for gone after this long without a word
POLL_S = 0.1  # the server looks for the reply this often
RESULT_TTL_MS = 10 * 60 * 1000  # a reply nobody collects (the server gave up, or stopped) is gone after this
DOWN = (redis.ConnectionError, redis.TimeoutError, BrokerConnectionError)

# The reply's bytes, or 0 (none yet), or -1 (over the cap: not sent here; the caller deletes it).
READ_CAPPED = """
local value = redis.call('LINDEX', KEYS[1], 0)
if not value then return 0 end
if string.len(value) > tonumber(ARGV[1]) then return -1 end
return value
"""


def _beat_key(namespace: str, key: str) -> str:
    return f"{namespace}:run-beat:{key}"


def register(broker: RedisBroker, client: redis.Redis, namespace: str) -> None:
    """The Run actor on `broker`: the server enqueues to it, a worker runs it."""
    problems: dict[str, Problem] = {}

    def run_code(key: str, slug: str, code: str, given: object, level: int, lang: str = "en") -> dict:
        if not problems:
            problems.update({p.slug: p for p in all_problems()})
        problem = problems.get(slug)
        if problem is None or not isinstance(code, str) or level not in (0, 1, 2):
            return {"refused": {"status": 400, "message": f"this worker cannot run {slug!r}: is its checkout current?"}}
        with _beating(client, _beat_key(namespace, key)):
            try:
                return {"report": judged_run(problem, code, given, level, lang if lang in ("en", "zh") else "en")}
            except RunRefused as exc:
                return {"refused": {"status": exc.status if exc.status in (400, 413) else 400,
                                    "message": str(exc)[:2000]}}
            except Exception as exc:  # the sandbox could not be had, the machine starved it: told, not retried
                log.exception("a Run failed on this worker")
                return {"refused": {"status": 503, "message": f"the worker could not judge your Run: {exc}"[:2000]}}

    dramatiq.actor(actor_name=RUN_ACTOR, queue_name=RUN_QUEUE, broker=broker, store_results=True, max_retries=0,
                   priority=RUN_PRIORITY, result_ttl=RESULT_TTL_MS)(run_code)


@contextmanager
def _beating(client: redis.Redis, key: str) -> Iterator[None]:
    """Says in Redis, every BEAT_S until the block ends, that this worker is judging the Run."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.is_set():
            try:
                client.set(key, 1, ex=BEAT_TTL_S)
            except DOWN:
                pass
            stop.wait(BEAT_S)

    thread = threading.Thread(target=beat, daemon=True, name="run-beat")
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)
        try:
            client.delete(key)
        except DOWN:
            pass


class RemoteRuns:
    """The server's side: a Run enqueued, its reply awaited within the bound and read strictly."""

    def __init__(self, broker: RedisBroker, client: redis.Redis, backend, namespace: str, wait_s: float):
        self.broker, self.client, self.backend = broker, client, backend
        self.namespace, self.wait_s = namespace, wait_s
        self.read = client.register_script(READ_CAPPED)

    def __call__(self, slug: str, code: str, given: object, level: int, lang: str = "en") -> dict:
        key = uuid.uuid4().hex
        message: Message = Message(queue_name=RUN_QUEUE, actor_name=RUN_ACTOR,
                                   args=(key, slug, code, given, level, lang), kwargs={},
                                   options={"max_age": int(self.wait_s * 1000)}, message_id=key)
        reply_key = self.backend.build_message_key(message)
        beat_key = _beat_key(self.namespace, key)
        try:
            self.broker.enqueue(message)
            raw = self._wait(reply_key, beat_key)
        except DOWN:
            raise RunRefused(503, "the class's queue is down: try your Run again in a moment") from None
        finally:
            try:
                self.client.delete(reply_key, beat_key)
            except DOWN:
                pass
        if raw == b"null":  # a worker skipped it: older than the wait when its turn came
            raise RunRefused(503, self._no_worker())
        try:
            reply = run_reply(raw, slug, level)
        except RunReplyError as exc:
            log.warning("a worker's reply to a Run was not read: %s", exc)
            raise RunRefused(502, "the worker's answer to your Run could not be read: try again") from None
        if "refused" in reply:
            raise RunRefused(reply["refused"]["status"], reply["refused"]["message"])
        return reply["report"]

    def _no_worker(self) -> str:
        return f"no worker took your Run within {self.wait_s:g} s (the class's workers are busy or down): try again"

    def _wait(self, reply_key: str, beat_key: str) -> bytes:
        """The reply's bytes, or RunRefused once no worker has judged the Run for the wait (or the cap)."""
        start = time.monotonic()
        heard, taken = start, False  # when a worker last said it judges this Run (the start: none yet)
        while True:
            got = self.read(keys=[reply_key], args=[MAX_REPLY_BYTES])
            if got == -1:
                log.warning("a worker's reply to a Run was over %d bytes: not read", MAX_REPLY_BYTES)
                raise RunRefused(502, "the worker's answer to your Run was too large to read: try again")
            if isinstance(got, bytes):
                return got
            now = time.monotonic()
            if self.client.exists(beat_key):
                heard, taken = now, True
            if now - heard > self.wait_s:
                raise RunRefused(503, self._no_worker() if not taken else
                                 f"the worker judging your Run stopped, and no other took it within {self.wait_s:g} s:"
                                 " try again")
            if now - start > self.wait_s + RUN_CAP_S:
                raise RunRefused(503, f"your Run was not judged within {self.wait_s + RUN_CAP_S:g} s: try again")
            time.sleep(POLL_S)
