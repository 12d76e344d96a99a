"""Driving a class's server through its real entry points: `python -m judge class add-users`,
`python -m judge serve --class`, `python -m judge worker`, over real HTTP on loopback."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from helpers import ROOT, judge_command

SOLUTIONS = ROOT / "solutions"
START_TIMEOUT_S = 120  # a safety net on a busy machine, not an expectation
CE_CODE = "import numpy as np\n\nclass Solution:\n    def oops(self:\n        pass\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def add_users(folder: Path, rows: list[str]) -> dict[str, str]:
    """name -> password, as `class add-users` printed them."""
    csv = folder.parent / f"{folder.name}-users.csv"
    csv.write_text("name,email,role\n" + "\n".join(rows) + "\n")
    done = subprocess.run(judge_command("class", "add-users", str(folder), str(csv)), cwd=ROOT, capture_output=True,
                          text=True, check=True)
    lines = done.stdout.strip().splitlines()[1:]
    return {line.split(",")[0]: line.split(",")[3] for line in lines}


def token(folder: Path, name: str) -> str:
    return subprocess.run(judge_command("class", "token", str(folder), name), cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip()


def solution(slug: str, kind: str, index: int = 0) -> str:
    files = sorted((SOLUTIONS / slug / kind).glob("*.py"))
    return files[index % len(files)].read_text()


class Process:
    """A command of ours in its own process group (so that it and what it started can be ended)."""

    def __init__(self, argv: list[str], log: Path, env: dict | None = None):
        self.log = log
        self.proc = subprocess.Popen(argv, cwd=ROOT, stdout=open(log, "wb"), stderr=subprocess.STDOUT,
                                     start_new_session=True, env={**os.environ, **(env or {})})

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, needle: str, timeout: float = START_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never came: {self.text()[-3000:]}")
            time.sleep(0.1)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def kill(self) -> None:
        """SIGKILL to the process alone, as a machine's failure would end it."""
        self.proc.kill()
        self.proc.wait()


class Server(Process):
    def __init__(self, folder: Path, *extra: str, env: dict | None = None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        super().__init__(judge_command("serve", "--class", str(folder), "--port", str(self.port), *extra),
                         folder.parent / f"{folder.name}-server-{self.port}.log", env)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(self.base + "/signin", timeout=5):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start: {self.text()[-3000:]}") from None
                time.sleep(0.2)


class Response:
    def __init__(self, status: int, headers, body: bytes):
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self):
        return json.loads(self.body)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


class Client:
    """One user's requests: with an API token, or a session cookie (and its CSRF token)."""

    def __init__(self, base: str, bearer: str | None = None, source: str | None = None):
        self.base, self.bearer = base, bearer
        self.source = source  # another loopback address to send from (127.0.0.2, ...): another client
        self.cookie: str | None = None
        self.csrf: str | None = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> Response:
        sent = dict(headers or {})
        if self.bearer:
            sent.setdefault("Authorization", f"Bearer {self.bearer}")
        if self.cookie:
            sent.setdefault("Cookie", self.cookie)
        if self.source:
            return self._from_source(method, path, body, sent)
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=sent)
        try:
            with _opener.open(request, timeout=60) as reply:
                return Response(reply.status, reply.headers, reply.read())
        except urllib.error.HTTPError as exc:
            return Response(exc.code, exc.headers, exc.read())

    def _from_source(self, method: str, path: str, body: bytes | None, headers: dict) -> Response:
        import http.client
        from urllib.parse import urlsplit

        where = urlsplit(self.base)
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60,
                                                source_address=(self.source, 0))
        try:
            connection.request(method, path, body=body, headers=headers)
            reply = connection.getresponse()
            return Response(reply.status, reply.headers, reply.read())
        finally:
            connection.close()

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post_json(self, path: str, data, headers: dict | None = None) -> Response:
        return self.request("POST", path, json.dumps(data).encode(), {"Content-Type": "application/json",
                                                                       **(headers or {})})

    def change(self, path: str, data) -> Response:
        """A change with the session cookie, as the site's own page sends it."""
        return self.post_json(path, data, {"Origin": self.base, "X-CSRF-Token": self.csrf or ""})

    def sign_in(self, login: str, password: str) -> Response:
        reply = self.post_json("/api/signin", {"login": login, "password": password}, {"Origin": self.base})
        if reply.status == 200:
            self.cookie = reply.headers["Set-Cookie"].split(";")[0]
            self.csrf = reply.json()["csrf"]
        return reply

    def submit(self, problem: str, code: str) -> Response:
        if self.bearer:
            return self.post_json("/api/submissions", {"problem": problem, "code": code})
        return self.change("/api/submissions", {"problem": problem, "code": code})

    def wait_done(self, submission: int, timeout: float = 600) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            data = self.get(f"/api/submissions/{submission}").json()
            if data["status"] == "done":
                return data
            if time.monotonic() > deadline:
                raise AssertionError(f"submission {submission} still {data['status']} after {timeout} s")
            time.sleep(0.3)


def class_folder(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix)) / "class"


def remove(folder: Path) -> None:
    shutil.rmtree(folder.parent, ignore_errors=True)


class RedisServer:
    """Debian's redis-server on a free port, its data (append-only file) in `folder`: a real one,
    restarted on the same file when asked. Skips the test, saying why, where there is none."""

    def __init__(self, folder: Path, password: str | None = None):
        import pytest

        self.binary = shutil.which("redis-server")
        if self.binary is None:
            pytest.skip("redis-server is not installed (Debian's redis-server; .ci/run installs it)")
        self.folder, self.port, self.password = folder, free_port(), password
        self.url = f"redis://{f':{password}@' if password else ''}127.0.0.1:{self.port}/0"
        self.process: Process | None = None
        self.start()

    def start(self) -> None:
        self.process = Process([self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
                                "--appendonly", "yes", "--save", "",
                                *(["--requirepass", self.password] if self.password else [])],
                               self.folder / f"redis-{time.time():.0f}.log")
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self.ping():
            if self.process.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"redis-server did not start: {self.process.text()[-2000:]}")
            time.sleep(0.1)

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as conn:
                if self.password:
                    conn.sendall(f"AUTH {self.password}\r\n".encode())
                    if not conn.recv(16).startswith(b"+OK"):
                        return False
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def command(self, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True, check=True,
                              env={**os.environ, **({"REDISCLI_AUTH": self.password} if self.password else {})}
                              ).stdout.strip()

    def stop(self) -> None:
        """SIGTERM: Redis writes its append-only file out and exits, as on a planned restart."""
        if self.process is not None:
            self.process.stop(signal.SIGTERM)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


def worker(queue_url: str, log: Path, threads: int = 1) -> Process:
    """A worker reading the queue's URL from JUDGE_QUEUE (not argv, where ps shows a password)."""
    process = Process(judge_command("worker", "--threads", str(threads), "--heartbeat-timeout", "5"), log,
                      env={"JUDGE_QUEUE": queue_url})
    process.wait_for("judging from")
    return process


def check_statistics(problems: list[dict], students: list[dict]) -> None:
    """Tried and Accepted per problem, counted again here from the submissions."""
    for row in problems:
        tried = {s["user"] for s in students if s["problem"] == row["slug"]}
        accepted = {s["user"] for s in students if s["problem"] == row["slug"] and s["verdict"] == "AC"}
        assert (row["tried"], row["accepted"]) == (len(tried), len(accepted)), row["slug"]


def check_scoreboard(board: dict, students: list[dict]) -> None:
    """The ICPC rules, counted again here from the submissions."""
    expected = {}
    for user in {s["user"] for s in students}:
        solved, penalty = 0, 0
        for slug in board["problems"]:
            mine = [s for s in students if s["user"] == user and s["problem"] == slug]
            first_ac = next((i for i, s in enumerate(mine) if s["verdict"] == "AC"), None)
            if first_ac is not None:
                rejected = sum(s["verdict"] not in ("AC", "CE", "JE") for s in mine[:first_ac])
                solved += 1
                penalty += int((mine[first_ac]["created"] - board["start"]) // 60) + 20 * rejected
        expected[user] = (solved, penalty)
    assert {r["user"]: (r["solved"], r["penalty"]) for r in board["rows"]} == expected
    ranks = [(-r["solved"], r["penalty"]) for r in board["rows"]]
    assert ranks == sorted(ranks)
