"""A class judged on many machines (issue 27): a real Redis (Debian's redis-server, append-only),
the server started with --queue-file, two `python -m judge worker` processes, 30 simulated users x 4
submissions over loopback. One worker is SIGKILLed mid-judging, Redis is restarted mid-run: every
submission still gets its right verdict, once; statistics and scoreboard are what the stored
submissions imply; a submission whose judging keeps failing ends as JE after 3 tries."""

from __future__ import annotations

import datetime as dt
import os
import random
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest
from class_server import (
    CE_CODE,
    Client,
    RedisServer,
    Server,
    add_users,
    check_scoreboard,
    check_statistics,
    class_folder,
    remove,
    solution,
    token,
    worker,
)
from helpers import ROOT, judge_command, parent, program

from sandbox.sandbox import sandbox_processes

pytestmark = pytest.mark.slow  # thirty users, two workers, Redis restarted: minutes

USERS = 30
RUN_TIMEOUT_S = 1800  # a safety net on a busy 2-core machine, not an expectation


def _plan(index: int) -> list[tuple[str, str, str]]:
    """A user's four submissions (problem, code, expected verdict), on four problems, in an order of
    their own: an AC and a WA on the function problems, a TLE on gqa_decode for one user in three
    (another AC for the rest), a CE."""
    first, second, third = [("mha", "gqa", "mqa"), ("gqa", "mqa", "mha"), ("mqa", "mha", "gqa")][index % 3]
    plan = [(first, solution(first, "accepted", index), "AC"),
            (second, solution(second, "wrong_answer", 0), "WA"),  # causal_mask.py: wrong on the first test
            ("gqa_decode", solution("gqa_decode", "time_limit_exceeded", 1), "TLE") if index % 3 == 0 else
            (third, solution(third, "accepted", index + 1), "AC"),
            (["causal", "masked", "mla"][index % 3], CE_CODE, "CE")]
    random.Random(index).shuffle(plan)
    return plan


def test_thirty_users_on_two_workers_through_a_worker_kill_and_a_redis_restart(tmp_path):
    folder = class_folder("judge-class-queue-")
    folder.mkdir(parents=True)
    start = dt.datetime.fromtimestamp(time.time() - 600, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    (folder / "class.toml").write_text(f'mode = "contest"\nstart = {start}\nsubmissions_per_minute = 10\n')
    names = [f"user{i:02d}" for i in range(USERS)]
    add_users(folder, [f"{n},{n}@example.org" for n in names] + ["teach,teach@example.org,admin"])
    redis = RedisServer(tmp_path)
    (tmp_path / "queue-url").write_text(redis.url)
    server = Server(folder, "--queue-file", str(tmp_path / "queue-url"))
    workers = []
    try:
        teach = Client(server.base, token(folder, "teach"))
        # Before any worker is up: a submission whose judging already failed 3 times (as if it
        # had killed three workers) ends as JE instead of being judged again.
        poison = teach.submit("gqa", solution("gqa", "accepted")).json()["id"]
        class_id = sqlite3.connect(folder / "class.sqlite").execute(
            "SELECT value FROM meta WHERE key = 'class_id'").fetchone()[0]
        redis.command("SET", f"attention_judge:tries:{class_id}-{poison}-0", "3")
        workers = [worker(redis.url, tmp_path / f"worker-{i}.log") for i in range(2)]

        clients = [Client(server.base, token(folder, n)) for n in names]
        expected: dict[int, str] = {}
        lock = threading.Lock()
        failures: list[str] = []

        def student(index: int) -> None:
            try:
                for problem, code, verdict in _plan(index):
                    reply = clients[index].submit(problem, code)
                    if reply.status != 201:
                        failures.append(f"{names[index]} {problem}: {reply.status} {reply.text}")
                        continue
                    with lock:
                        expected[reply.json()["id"]] = verdict
            except Exception as exc:  # told below, with the others
                failures.append(f"{names[index]}: {exc!r}")

        threads = [threading.Thread(target=student, args=(i,)) for i in range(USERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == [] and len(expected) == USERS * 4

        def done() -> list[dict]:
            return [s for s in teach.get("/api/submissions?status=done").json() if s["user"] != "teach"]

        _wait_until(lambda: len(done()) >= 20 and _judging(workers[0].proc.pid))
        workers[0].kill()  # mid-judging: SIGKILL, as a machine fails
        killed_at = len(done())
        _wait_until(lambda: len(done()) >= killed_at + 20)
        redis.restart()
        _wait_until(lambda: len(done()) == USERS * 4)

        stored = sorted(teach.get("/api/submissions").json(), key=lambda s: (s["created"], s["id"]))
        students = [s for s in stored if s["user"] != "teach"]
        assert sorted(s["id"] for s in students) == sorted(expected)  # none lost, none twice
        assert {s["id"]: s["verdict"] for s in students} == expected
        assert all(s["status"] == "done" and s["round"] == 0 for s in students)
        assert any(s["attempts"] == 2 for s in students)  # the killed worker's judging, done again
        rows = sqlite3.connect(folder / "class.sqlite").execute("SELECT COUNT(*) FROM submissions").fetchone()[0]
        assert rows == USERS * 4 + 1
        jammed = teach.get(f"/api/submissions/{poison}").json()
        assert (jammed["verdict"], jammed["message"]) == ("JE", "judging failed 3 times")
        check_statistics(teach.get("/api/problems").json(), students)
        check_scoreboard(teach.get("/api/scoreboard").json(), students)
    finally:
        for process in workers:
            process.stop()
        server.stop()
        redis.stop()
        remove(folder)


def _judging(pid: int) -> bool:
    """Whether the worker's sandbox has a session process up: a submission is being judged."""
    processes = sandbox_processes(f"class-worker-{pid}-0")
    parents = {process: parent(process) for process in processes}
    return any(up in processes and b"bwrap" not in program(up) and b"bwrap" not in program(child)
               for child, up in parents.items())


def _wait_until(condition, timeout: float = RUN_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out (a safety net)"
        time.sleep(0.5)


def test_the_queues_password_is_never_printed_nor_in_argv_and_an_outage_is_two_lines(tmp_path):
    """Redis with a password: the server reads the URL from --queue-file, the worker from
    JUDGE_QUEUE; every line either prints shows the URL masked, no process's argv holds it, and
    Redis down for a while is one line when it goes and one when it is back, in each."""
    password = "pw-" + os.urandom(8).hex()
    redis = RedisServer(tmp_path, password=password)
    folder = class_folder("judge-class-secret-")
    folder.mkdir(parents=True)
    add_users(folder, ["ann,ann@example.org", "teach,teach@example.org,admin"])
    queue_file = tmp_path / "queue-url"
    queue_file.write_text(redis.url + "\n")
    queue_file.chmod(0o600)
    server = Server(folder, "--queue-file", str(queue_file))
    shown = f"redis://***@127.0.0.1:{redis.port}/0"
    workers = []
    try:
        workers = [worker(redis.url, tmp_path / "worker.log")]
        ann = Client(server.base, token(folder, "ann"))
        assert ann.wait_done(ann.submit("mha", solution("mha", "accepted")).json()["id"])["verdict"] == "AC"
        assert f"(queue {shown})" in server.text() and f"judging from {shown} with 1 thread(s)" in workers[0].text()
        redis.stop()
        time.sleep(12)  # Dramatiq's consumer would have said so four times, every 3 s
        redis.start()
        for process in (server, workers[0]):
            process.wait_for(f"the queue at {shown} is back", timeout=120)
        assert ann.wait_done(ann.submit("mqa", CE_CODE).json()["id"])["verdict"] == "CE"  # judged again
        for process in (server, workers[0]):
            text = process.text()
            assert password not in text
            assert password.encode() not in Path(f"/proc/{process.proc.pid}/cmdline").read_bytes()
            warnings = [line for line in text.splitlines() if "WARNING" in line or "CRITICAL" in line]
            assert len(warnings) == 2, warnings
            assert f"the queue at {shown} is down (" in warnings[0]
            assert warnings[1].endswith(f"the queue at {shown} is back")
    finally:
        for process in workers:
            process.stop()
        server.stop()
        redis.stop()
        remove(folder)


def test_a_queue_url_with_a_password_on_the_command_line_is_warned_about_and_masked():
    url = "redis://:hunter2-secret@127.0.0.1:1/0"  # nothing listens on port 1
    done = subprocess.run(judge_command("worker", "--queue", url), cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "hunter2" not in done.stdout + done.stderr
    assert done.stderr.splitlines()[0] == ("warning: --queue puts Redis's password where other users of this machine "
                                           "see it (ps): prefer --queue-file FILE or the JUDGE_QUEUE environment "
                                           "variable")
    assert done.stderr.splitlines()[-1].startswith("error: cannot reach the queue at redis://***@127.0.0.1:1/0: ")
