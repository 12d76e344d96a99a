"""Driving a class's server through its real entry points: `python -m judge class add-users`,
`python -m judge serve --class`, `python -m judge worker`, over real HTTP on loopback."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"
START_TIMEOUT_S = 120  # a safety net on a busy machine, not an expectation
CE_CODE = "import numpy as np\n\nclass Solution:\n    def oops(self:\n        pass\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def judge_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "judge", *args]


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

    def __init__(self, base: str, bearer: str | None = None):
        self.base, self.bearer = base, bearer
        self.cookie: str | None = None
        self.csrf: str | None = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> Response:
        sent = dict(headers or {})
        if self.bearer:
            sent.setdefault("Authorization", f"Bearer {self.bearer}")
        if self.cookie:
            sent.setdefault("Cookie", self.cookie)
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=sent)
        try:
            with _opener.open(request, timeout=60) as reply:
                return Response(reply.status, reply.headers, reply.read())
        except urllib.error.HTTPError as exc:
            return Response(exc.code, exc.headers, exc.read())

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
