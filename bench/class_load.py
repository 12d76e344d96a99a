"""A class's mixed load (issue 27), measured through the real server (`make bench` runs it).

30 simulated users sign nothing by hand: `python -m judge class add-users` makes them, `class
token` gives each an API token, and `python -m judge serve --class` judges on this machine (its
in-process warm workers, one per core; or with --queue, on two `python -m judge worker`
processes and a Redis started here). Each user sends 4 submissions over loopback HTTP: an AC and
a WA on the function problems, a TLE on gqa_decode for one user in three (another AC for the
rest), a CE. Printed: judgings per minute per core (every judging from the first submission to
the last verdict), and latency from submission to stored verdict, p50 and p95, overall and per
verdict, from the store's own times.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USERS = 30
CE_CODE = "import numpy as np\n\nclass Solution:\n    def oops(self:\n        pass\n"


def judge(*args: str) -> list[str]:
    return [sys.executable, "-m", "judge", *args]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def solution(slug: str, kind: str, index: int) -> str:
    files = sorted((ROOT / "solutions" / slug / kind).glob("*.py"))
    return files[index % len(files)].read_text()


def plan(index: int) -> list[tuple[str, str]]:
    first, second, third = [("mha", "gqa", "mqa"), ("gqa", "mqa", "mha"), ("mqa", "mha", "gqa")][index % 3]
    items = [(first, solution(first, "accepted", index)), (second, solution(second, "wrong_answer", 0)),
             ("gqa_decode", solution("gqa_decode", "time_limit_exceeded", 1)) if index % 3 == 0 else
             (third, solution(third, "accepted", index + 1)), (["causal", "masked", "mla"][index % 3], CE_CODE)]
    random.Random(index).shuffle(items)
    return items


def started(argv: list[str], log: Path, ready) -> subprocess.Popen:
    process = subprocess.Popen(argv, cwd=ROOT, stdout=open(log, "wb"), stderr=subprocess.STDOUT,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"could not start {argv[:4]}: {log.read_text()[-1000:]}")
        time.sleep(0.2)
    return process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def reachable(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except OSError:
        return False


def post(url: str, bearer: str, data: dict) -> int:
    request = urllib.request.Request(url, json.dumps(data).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as reply:
        return json.loads(reply.read())["id"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queue", action="store_true", help="judge on two workers over a Redis started here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="class-load-"))
    folder = work / "class"
    processes: list[subprocess.Popen] = []
    try:
        folder.mkdir()
        (folder / "class.toml").write_text("submissions_per_minute = 10\n")
        users = work / "users.csv"
        users.write_text("".join(f"user{i:02d},user{i:02d}@example.org\n" for i in range(USERS)))
        subprocess.run(judge("class", "add-users", str(folder), str(users)), cwd=ROOT, check=True,
                       capture_output=True)
        tokens = [subprocess.run(judge("class", "token", str(folder), f"user{i:02d}"), cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout.strip() for i in range(USERS)]
        extra, cores = [], len(os.sched_getaffinity(0))
        if args.queue:
            redis_port = free_port()
            queue = f"redis://127.0.0.1:{redis_port}/0"
            processes.append(started(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--dir",
                                      str(work), "--appendonly", "yes", "--save", ""], work / "redis.log",
                                     lambda: subprocess.run(["redis-cli", "-p", str(redis_port), "ping"],
                                                            capture_output=True).returncode == 0))
            for i in range(2):
                log = work / f"worker-{i}.log"
                processes.append(started(judge("worker", "--queue", queue, "--threads", "1"), log,
                                         lambda log=log: "judging from" in log.read_text()))
            extra = ["--queue", queue]
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        processes.append(started(judge("serve", "--class", str(folder), "--port", str(port), *extra),
                                 work / "server.log", lambda: reachable(base + "/signin")))
        time.sleep(3)  # the workers warm up (a sandbox each, the tests read) before the class arrives

        def student(index: int) -> None:
            for problem, code in plan(index):
                post(base + "/api/submissions", tokens[index], {"problem": problem, "code": code})

        threads = [threading.Thread(target=student, args=(i,)) for i in range(USERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        db = sqlite3.connect(folder / "class.sqlite")
        deadline = time.monotonic() + 3600
        while db.execute("SELECT COUNT(*) FROM submissions WHERE status != 'done'").fetchone()[0]:
            if time.monotonic() > deadline:
                sys.exit("the load was not judged within an hour")
            time.sleep(0.5)
        rows = db.execute("SELECT verdict, created, judged, user_id FROM submissions").fetchall()
    finally:
        for process in reversed(processes):
            stop(process)
        shutil.rmtree(work, ignore_errors=True)
    span = max(r[2] for r in rows) - min(r[1] for r in rows)
    latencies = sorted(r[2] - r[1] for r in rows)
    judgers = 2 if args.queue else cores
    print(f"\nclass load: {USERS} users x 4 submissions = {len(rows)} judgings "
          f"({'2 workers on a queue' if args.queue else f'{cores} in-process workers'}, {cores} cores)")
    print(f"  throughput {len(rows) / (span / 60) / judgers:.1f} judgings per minute per worker "
          f"({len(rows) / (span / 60):.1f} a minute in all, {span:.1f} s from the first submission to the last "
          "verdict)")
    print(f"  latency p50 {_q(latencies, 0.5):.1f} s, p95 {_q(latencies, 0.95):.1f} s (submission to stored verdict)")
    first = sorted(min(r[2] for r in rows if r[3] == user) - min(r[1] for r in rows) for user in {r[3] for r in rows})
    print(f"  each user's first verdict: p50 {_q(first, 0.5):.1f} s, p95 {_q(first, 0.95):.1f} s after the load began "
          "(users are taken in turn)")
    for verdict in sorted({r[0] for r in rows}):
        mine = sorted(r[2] - r[1] for r in rows if r[0] == verdict)
        print(f"  {verdict:<3} {len(mine):>3}: p50 {_q(mine, 0.5):.1f} s, p95 {_q(mine, 0.95):.1f} s, "
              f"mean {statistics.mean(mine):.1f} s")
    return 0


def _q(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


if __name__ == "__main__":
    sys.exit(main())
