"""The web page's API (issue 12), driven in process with Starlette's TestClient: every judging it
starts is a real `python -m judge` in its own sandbox, on a file in a temporary practice folder."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from helpers import judge_command
from sandbox.sandbox import sandbox_processes

starlette = pytest.importorskip("starlette", reason="the web extras are not installed (make installs them)")
from starlette.testclient import TestClient  # noqa: E402

from web.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HERE = "http://127.0.0.1:8000"
TOKEN = "test-token"
ACCEPTED = (ROOT / "solutions" / "gqa" / "accepted" / "grouped_tall_no_bK.py").read_text()
WRONG = (ROOT / "solutions" / "gqa" / "wrong_answer" / "forgot_b_O.py").read_text()
# Right on every test, and 0.9 s of CPU in each construction: a judging of ~20 s of CPU, which no
# machine finishes before the test cancels it.
SLOW = re.sub(r"(    def __init__\(self.*\n)", r"\1        import time\n        end = time.process_time() + 0.9\n"
              r"        while time.process_time() < end:\n            pass\n",
              (ROOT / "solutions" / "gqa_decode" / "accepted" / "doubling_arrays.py").read_text(), count=1)


@pytest.fixture
def practice(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))  # this test's own history
    return tmp_path / "practice"


@pytest.fixture
def client(practice):
    with TestClient(create_app(TOKEN, practice=practice, workers=2), base_url=HERE) as client:
        page = client.get(f"/problem/gqa?token={TOKEN}")
        assert page.status_code == 200
        client.csrf = re.search(r'<meta name="csrf" content="([^"]+)">', page.text).group(1)
        client.changes = {"Origin": HERE, "X-CSRF-Token": client.csrf}
        yield client


def events(client, job: str) -> list[dict]:
    """A judging's server-sent events, in order, until it ends."""
    seen = []
    with client.stream("GET", f"/api/jobs/{job}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
    return seen


def judged(client, slug: str, action: str, source: str | None = None, **kwargs) -> list[dict]:
    if source is not None:
        saved = client.put(f"/api/problems/{slug}/source", content=source, headers=client.changes)
        assert saved.status_code == 200, saved.text
    started = client.post(f"/api/problems/{slug}/{action}", headers=client.changes, **kwargs)
    assert started.status_code == 200, started.text
    return events(client, started.json()["job"])


def test_every_request_needs_the_token(practice):
    with TestClient(create_app(TOKEN, practice=practice), base_url=HERE) as client:
        for path in ("/", "/problem/gqa", "/api/problems", "/api/problems/gqa/statement", "/static/app.js"):
            refused = client.get(path)
            assert refused.status_code == 403 and "token" in refused.json()["error"], path
        assert client.get("/?token=wrong").status_code == 403
        first = client.get(f"/?token={TOKEN}")
        assert first.status_code == 200 and "judge_token=" in first.headers["set-cookie"]
        assert "HttpOnly" in first.headers["set-cookie"] and "SameSite=strict" in first.headers["set-cookie"]
        assert client.get("/api/problems").status_code == 200  # the cookie from now on
        assert client.get("/static/vendor/katex/katex.min.js").status_code == 200


def test_the_list_shows_every_problem_with_the_users_standing(client):
    listed = {p["slug"]: p for p in client.get("/api/problems").json()}
    assert {"gqa", "mha", "mqa", "gqa_decode"} <= set(listed)
    assert listed["gqa"]["id"] == "P4497" and listed["gqa"]["titles"]["zh"] == "分组查询注意力"
    assert (listed["gqa"]["status"], listed["gqa"]["attempts"], listed["gqa"]["accepted"]) == ("new", 0, 0)
    judged(client, "gqa", "submit", WRONG)
    judged(client, "gqa", "submit", ACCEPTED)
    mine = next(p for p in client.get("/api/problems").json() if p["slug"] == "gqa")
    assert (mine["status"], mine["attempts"], mine["accepted"], mine["last_verdict"]) == ("solved", 2, 1, "AC")
    page = client.get("/").text
    assert '<a href="/problem/gqa">Grouped Query Attention</a>' in page and "分组查询注意力" in page


def test_the_statement_in_both_languages_with_math_left_for_katex(client):
    english = client.get("/api/problems/gqa/statement?lang=en").json()["html"]
    chinese = client.get("/api/problems/gqa/statement?lang=zh").json()["html"]
    assert "<h1>Grouped Query Attention (P4497)" in english
    assert '<span class="math inline">h_q</span>' in english and '<div class="math block">' in english
    assert "分组查询注意力" in chinese and '<span class="math inline">' in chinese
    assert client.get("/api/problems/gqa/statement?lang=fr").status_code == 400
    assert client.get("/api/problems/nope/statement").status_code == 404


def test_the_editor_opens_the_starter_and_saves_to_practice(client, practice):
    opened = client.get("/api/problems/gqa/source").json()
    assert opened["file"] == "gqa.py" and "def grouped_query_attention(self, X," in opened["source"]
    assert (practice / "gqa.py").read_text() == opened["source"]  # the terminal sees the same file
    client.put("/api/problems/gqa/source", content=ACCEPTED, headers=client.changes)
    assert (practice / "gqa.py").read_text() == ACCEPTED
    assert client.get("/api/problems/gqa/source").json()["source"] == ACCEPTED


@pytest.mark.parametrize("headers, message", [
    ({}, "Origin None"),
    ({"Origin": "http://evil.example"}, "Origin 'http://evil.example'"),
    ({"Origin": HERE}, "CSRF header is missing or wrong"),
    ({"Origin": HERE, "X-CSRF-Token": "guess"}, "CSRF header is missing or wrong"),
])
def test_changes_from_another_site_are_refused(client, practice, headers, message):
    for method, path in (("PUT", "/api/problems/gqa/source"), ("POST", "/api/problems/gqa/submit"),
                         ("POST", "/api/problems/gqa/run")):
        refused = client.request(method, path, content="x = 1", headers=headers)
        assert refused.status_code == 403 and message in refused.json()["error"], (method, path)
    assert not (practice / "gqa.py").exists()


def test_an_oversized_source_is_refused(client, practice):
    refused = client.put("/api/problems/gqa/source", content=b"#" * ((1 << 20) + 1), headers=client.changes)
    assert refused.status_code == 413 and "over the judge's limit of 1048576" in refused.json()["error"]
    assert not (practice / "gqa.py").exists()


@pytest.mark.parametrize("name", ["../escape.py", "..%2Fescape.py", "/etc/passwd", "sub/x.py", ".hidden.py",
                                  "x.txt", "%2E%2E%2Fx.py"])
def test_no_file_name_leaves_practice(client, practice, name):
    refused = client.put(f"/api/problems/gqa/source?file={name}", content="x = 1", headers=client.changes)
    assert refused.status_code == 400, name
    assert client.get(f"/api/problems/gqa/source?file={name}").status_code == 400
    assert not (practice.parent / "escape.py").exists() and not (practice.parent / "x.py").exists()


def test_submit_streams_each_test_then_the_report(client):
    seen = judged(client, "gqa", "submit", ACCEPTED)
    tests, final = seen[:-1], seen[-1]
    assert final["event"] == "done" and final["report"]["verdict"] == "AC"
    total = final["report"]["total"]
    assert [t["index"] for t in tests] == list(range(1, total + 1))
    assert all(t["event"] == "test" and t["verdict"] == "AC" and t["time_ms"] > 0 for t in tests)
    history = client.get("/api/problems/gqa/history").json()
    assert [(h["kind"], h["verdict"], h["passed"]) for h in history] == [("submit", "AC", total)]


def test_a_wrong_submission_shows_its_first_failure(client):
    seen = judged(client, "gqa", "submit", WRONG)
    report, tests = seen[-1]["report"], seen[:-1]
    failing = tests[-1]["name"]
    assert [t["verdict"] for t in tests] == ["AC"] * (len(tests) - 1) + ["WA"]  # judging stops there
    assert (report["verdict"], report["passed"]) == ("WA", len(tests) - 1)
    assert f"First failure: {failing}" in report["text"] and "  problem:  " in report["text"]


def test_a_hint_names_the_statement_step(client):
    report = judged(client, "gqa", "hint?level=2", WRONG)[-1]["report"]
    assert report["verdict"] == "WA" and "Hint (level 2)" in report["text"]


def test_run_on_the_sample_and_on_an_own_input(client):
    sample = judged(client, "gqa", "run", ACCEPTED)[-1]["report"]
    assert (sample["verdict"], sample["input"]) == ("AC", "sample")
    assert sum(sample["output"], []) == pytest.approx(sum(sample["expected"], []), rel=1e-9)
    given = client.get("/api/problems/gqa/sample").json()["input"]
    own = judged(client, "gqa", "run", content=json.dumps({"input": given}))[-1]["report"]
    assert own["verdict"] == "AC" and own["input"].endswith(".json")
    given["h_k"] = 3  # does not divide h_q: the validator's message comes back as the error
    refused = judged(client, "gqa", "run", content=json.dumps({"input": given}))[-1]
    assert refused["event"] == "error" and refused["message"].startswith("your input: ")
    assert "h_k" in refused["message"]


def test_an_own_input_nested_too_deep_is_refused_before_parsing(client):
    deep = b'{"input": {"X": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    client.put("/api/problems/gqa/source", content=ACCEPTED, headers=client.changes)
    refused = client.post("/api/problems/gqa/run", headers=client.changes, content=deep)
    assert (refused.status_code, refused.json()) == (
        400, {"error": "the input: arrays and objects nested 100002 deep, over the limit of 32"})


def test_a_long_judging_can_be_cancelled_and_leaves_nothing_running(client, practice):
    client.put("/api/problems/gqa_decode/source", content=SLOW, headers=client.changes)
    job = client.post("/api/problems/gqa_decode/submit", headers=client.changes).json()["job"]
    deadline = time.monotonic() + 120
    while not sandbox_processes(practice / "gqa_decode.py") and time.monotonic() < deadline:
        time.sleep(0.05)
    cancelled = client.post(f"/api/jobs/{job}/cancel", headers=client.changes)
    assert cancelled.status_code == 200
    assert events(client, job)[-1]["event"] == "cancelled"
    deadline = time.monotonic() + 30  # a judge past the grace is killed: its sandbox goes with it, a moment later
    while sandbox_processes(practice / "gqa_decode.py") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not sandbox_processes(practice / "gqa_decode.py")


def test_the_editorial_is_gated_until_an_ac(client):
    closed = client.get("/api/problems/gqa/editorial").json()
    assert not closed["open"] and "not solved yet" in closed["text"]
    forced = client.get("/api/problems/gqa/editorial?force=1").json()
    assert forced["open"] and "==== solutions/gqa/accepted/" in forced["text"]


def test_serve_on_a_busy_port_is_one_line():
    import socket
    import subprocess

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(judge_command("serve", "--port", str(port)), cwd=ROOT,
                              capture_output=True, text=True, timeout=600)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (f"error: cannot serve on 127.0.0.1:{port}: Address already in use "
                           "(choose another with --port)\n")
