"""A class's Runs on its queue (brief class_runs): with `serve --class DIR --queue-file FILE`, a
student's Run (the sample, an own input, a hint) is judged by a `python -m judge worker` process
over a real Redis, never by the server: a sandbox is seen under the worker and never under the
server; with no worker up the Run is answered one clear line within the wait; a worker killed
mid-Run leaves the Run to another, which answers it."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from class_server import Client, RedisServer, Server, add_users, class_folder, remove, solution, token, worker
from helpers import parent

from classroom.tryout import LABEL
from coach.run import sample_case
from problems import load
from sandbox.sandbox import sandbox_processes

pytestmark = pytest.mark.slow  # Redis, a server and workers started for real: tens of seconds

WAIT_S = 120  # the server's --run-wait where a worker is up: a safety net on a busy 2-core machine
SHORT_WAIT_S = 3  # where none is
SANDBOX = b"attention-judge-"  # what every sandbox's processes carry in their command line (sandbox/sandbox.py)
LOOPS = """
class Solution:
    def grouped_query_attention(self, *args, **kwargs):
        while True:  # a Run that lasts until its time limit: a worker can be killed in the middle of it
            pass
"""
BACKLOG = 4  # submissions queued ahead of a Run, each a TLE judging of seconds
REPORT_KEYS = {"problem", "verdict", "message", "input", "output", "expected", "test"}  # coach/run.py's run_json


@pytest.fixture
def queue_class(tmp_path):
    folder = class_folder("judge-class-runs-")
    folder.mkdir(parents=True)
    (folder / "class.toml").write_text('mode = "class"\nruns_per_minute = 30\n')
    add_users(folder, ["ann,ann@example.org", "teach,teach@example.org,admin"]
              + [f"s{i},s{i}@example.org" for i in range(BACKLOG)])
    redis = RedisServer(tmp_path)
    (tmp_path / "queue-url").write_text(redis.url)
    try:
        yield folder, redis, tmp_path / "queue-url"
    finally:
        redis.stop()
        remove(folder)


def _sandboxes_under(pid: int) -> set[int]:
    """Pids of sandbox processes that descend from `pid`."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if SANDBOX not in (entry / "cmdline").read_bytes():
                continue
        except OSError:
            continue
        up: int | None = int(entry.name)
        while up not in (None, 0, 1):
            if up == pid:
                found.add(int(entry.name))
                break
            up = parent(up)  # type: ignore[arg-type]
    return found


def _runs_of(pid: int) -> set[int]:
    """Pids of the sandbox of a Run that process `pid` judges (its label names the pid: tryout.py)."""
    return sandbox_processes(LABEL.format(pid=pid))


class Watch:
    """Samples, until stopped, how often each given process was judging a Run in its sandbox; and
    how often the server had any sandbox at all below it."""

    def __init__(self, **pids: int):
        self.pids, self.seen = pids, {name: 0 for name in pids}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._look, daemon=True)
        self.thread.start()

    def _look(self) -> None:
        while not self.stop.is_set():
            for name, pid in self.pids.items():
                if _runs_of(pid) or (name == "server" and _sandboxes_under(pid)):
                    self.seen[name] += 1
            time.sleep(0.05)

    def end(self) -> dict[str, int]:
        self.stop.set()
        self.thread.join()
        return self.seen


def _events(client: Client, job: str) -> list[dict]:
    """A page's Run followed as the page follows it: the job's event stream to its end."""
    reply = client.get(f"/api/jobs/{job}/events")
    assert reply.status == 200
    return [json.loads(line[len("data: "):]) for line in reply.text.splitlines() if line.startswith("data: ")]


def test_a_run_with_no_worker_up_is_answered_one_line_within_the_wait(queue_class):
    folder, _redis, queue_file = queue_class
    server = Server(folder, "--queue-file", str(queue_file), "--run-wait", str(SHORT_WAIT_S))
    try:
        ann = Client(server.base, token(folder, "ann"))
        watch = Watch(server=server.proc.pid)
        started = time.monotonic()
        reply = ann.post_json("/api/problems/gqa/run", {"code": solution("gqa", "accepted"), "input": None})
        took = time.monotonic() - started
        line = f"no worker took your Run within {SHORT_WAIT_S} s (the class's workers are busy or down): try again"
        assert (reply.status, reply.json()) == (503, {"error": line})
        assert SHORT_WAIT_S <= took < SHORT_WAIT_S + 30  # the wait, and the poll's step and HTTP on a busy machine
        # The page's Run (the draft on the sample) ends with the same line as its event: the page shows it.
        job = ann.post_json("/api/problems/gqa/run", None).json()["job"]
        assert _events(ann, job) == [{"event": "error", "message": line}]
        assert watch.end() == {"server": 0}  # the server judged nothing itself
        assert ann.get("/api/submissions").json() == []  # a Run is no submission
    finally:
        server.stop()


def test_runs_on_the_sample_an_own_input_and_a_hint_are_judged_by_a_worker(queue_class):
    folder, redis, queue_file = queue_class
    server = Server(folder, "--queue-file", str(queue_file), "--run-wait", str(WAIT_S))
    workers = []
    try:
        workers = [worker(redis.url, folder.parent / "worker.log")]
        ann = Client(server.base, token(folder, "ann"))
        watch = Watch(server=server.proc.pid, worker=workers[0].proc.pid)
        accepted = solution("gqa", "accepted")

        sample = ann.post_json("/api/problems/gqa/run", {"code": accepted, "input": None})
        assert sample.status == 200, sample.text
        report = sample.json()
        assert set(report) == REPORT_KEYS
        assert (report["problem"], report["verdict"], report["input"]) == ("gqa", "AC", "sample")
        assert np.allclose(report["output"], report["expected"], rtol=1e-9, atol=1e-12)
        assert report["test"]["verdict"] == "AC"
        stored = ann.get("/api/problems/gqa/sample").json()["input"]
        assert report["test"]["name"] == sample_case(load("gqa")).name

        own = ann.post_json("/api/problems/gqa/run", {"code": accepted, "input": stored})
        assert own.status == 200, own.text
        assert (own.json()["verdict"], own.json()["input"]) == ("AC", "your input")
        assert np.allclose(own.json()["expected"], report["expected"], rtol=1e-9, atol=1e-12)  # the reference's

        bad = {k: v for k, v in stored.items() if k != "X"}  # checked against problem.toml on the worker
        refused = ann.post_json("/api/problems/gqa/run", {"code": accepted, "input": bad})
        assert (refused.status, refused.json()) == (400, {"error": "your input: input: missing argument 'X'"})

        wrong = solution("gqa", "wrong_answer")
        hinted = ann.post_json("/api/problems/gqa/run", {"code": wrong, "input": None, "hint": 2})
        assert hinted.status == 200, hinted.text
        hint = hinted.json()["hint"]
        assert (hinted.json()["verdict"], hint["level"], hint["kind"]) == ("WA", 2, "step")
        assert hint["matches"] == ["wrong_answer/causal_mask.py"], hint
        assert hint["bugs"] == [wrong.splitlines()[0].removeprefix("# WRONG: ").rstrip(".")]

        job = ann.post_json("/api/problems/gqa/run", None).json()["job"]  # the page's Run: the starter's draft
        events = _events(ann, job)
        assert [e["event"] for e in events] == ["done"] and events[0]["report"]["input"] == "sample"

        seen = watch.end()
        assert seen["server"] == 0 and seen["worker"] > 0, seen  # the worker's sandbox ran them, not the server's
        assert ann.get("/api/submissions").json() == []
    finally:
        for process in workers:
            process.stop()
        server.stop()


def test_a_worker_killed_mid_run_leaves_it_to_another_which_answers(queue_class):
    folder, redis, queue_file = queue_class
    server = Server(folder, "--queue-file", str(queue_file), "--run-wait", str(WAIT_S))
    workers = []
    try:
        workers = [worker(redis.url, folder.parent / f"worker-{i}.log") for i in range(2)]
        ann = Client(server.base, token(folder, "ann"))
        replies = []
        asked = threading.Thread(target=lambda: replies.append(ann.post_json(
            "/api/problems/gqa/run", {"code": LOOPS, "input": None})))
        asked.start()
        deadline = time.monotonic() + WAIT_S
        while not any(_runs_of(w.proc.pid) for w in workers):
            assert time.monotonic() < deadline and asked.is_alive(), "no worker took the Run (a safety net)"
            time.sleep(0.02)
        first = next(w for w in workers if _runs_of(w.proc.pid))
        other = next(w for w in workers if w is not first)
        first.kill()  # mid-Run: SIGKILL, as a machine fails
        killed = time.monotonic()
        watch = Watch(other=other.proc.pid, server=server.proc.pid)
        asked.join(timeout=WAIT_S + 60)
        seen = watch.end()
        assert not asked.is_alive()
        assert replies[0].status == 200, replies[0].text
        assert (replies[0].json()["verdict"], replies[0].json()["input"]) == ("TLE", "sample")
        assert time.monotonic() - killed >= 5  # the killed worker's heartbeat timeout passed first
        assert seen["other"] > 0 and seen["server"] == 0, seen  # the other worker judged it again
    finally:
        for process in workers:
            process.stop()
        server.stop()


def test_a_run_does_not_wait_behind_a_backlog_of_submissions(queue_class):
    """One worker thread, four slow submissions queued first: the Run, on its own queue and taken
    first, is answered while most of them still wait (at most the one being judged goes before it).
    The worker starts only once the backlog and the Run wait, so how fast a busy machine takes the
    submissions in does not decide what is queued first."""
    folder, redis, queue_file = queue_class
    server = Server(folder, "--queue-file", str(queue_file), "--run-wait", str(WAIT_S))
    workers = []
    try:
        teach = Client(server.base, token(folder, "teach"))
        slow = solution("gqa_decode", "time_limit_exceeded")
        ids = [Client(server.base, token(folder, f"s{i}")).submit("gqa_decode", slow).json()["id"]
               for i in range(BACKLOG)]
        ann = Client(server.base, token(folder, "ann"))
        answer: dict = {}
        run = threading.Thread(target=lambda: answer.update(reply=ann.post_json(
            "/api/problems/gqa/run", {"code": solution("gqa", "accepted"), "input": None})))
        run.start()
        time.sleep(1)  # the Run on its queue, waiting as the backlog does
        workers = [worker(redis.url, folder.parent / "worker.log")]
        run.join(WAIT_S + 60)
        reply = answer["reply"]
        assert (reply.status, reply.json()["verdict"]) == (200, "AC")
        done = [s for s in teach.get("/api/submissions?status=done").json() if s["id"] in ids]
        assert len(done) <= 1, done
        for submission in ids:  # and the backlog is judged after it, nothing lost
            assert teach.wait_done(submission)["verdict"] == "TLE"
    finally:
        for process in workers:
            process.stop()
        server.stop()



def test_a_forged_or_oversized_reply_in_redis_is_not_shown(queue_class, monkeypatch):
    """Whoever can write to Redis can put a reply under a Run's key before a worker does: one of
    the wrong shape is refused whole (502), one over the cap is deleted unread (502)."""
    import uuid

    from dramatiq.message import Message

    from classroom import remote_runs
    from classroom.remote import NAMESPACE, connect
    from classroom.run_reply import MAX_REPLY_BYTES
    from classroom.tryout import RunRefused

    _folder, redis, _queue_file = queue_class
    queue = connect(redis.url)
    runs = remote_runs.RemoteRuns(queue.broker, queue.client, queue.backend, NAMESPACE, 5)
    forged_report = json.dumps({"report": {"problem": "gqa", "verdict": "AC", "message": "<b>trust me</b>"}})
    for forged, line in ((forged_report, "the worker's answer to your Run could not be read: try again"),
                         (b" " * (MAX_REPLY_BYTES + 1),
                          "the worker's answer to your Run was too large to read: try again")):
        fixed = uuid.uuid4()
        monkeypatch.setattr(remote_runs.uuid, "uuid4", lambda fixed=fixed: fixed)
        key = queue.backend.build_message_key(Message(queue_name=remote_runs.RUN_QUEUE,
                                                      actor_name=remote_runs.RUN_ACTOR, args=(), kwargs={},
                                                      options={}, message_id=fixed.hex))
        queue.client.lpush(key, forged)
        with pytest.raises(RunRefused) as caught:
            runs("gqa", "print(1)", None, 0)
        assert (caught.value.status, str(caught.value)) == (502, line)
        assert queue.client.exists(key) == 0  # collected (or deleted unread), not left for another
