"""The web page's API (issues 12 and 26), driven in process with Starlette's TestClient: every
judging it starts is a real `python -m judge` in its own sandbox, on a file in a temporary practice
folder. The server's own start, token and shutdown are driven as a real `python -m judge serve`."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import children, judge_command, slow_decoder

from sandbox.sandbox import sandbox_processes

starlette = pytest.importorskip("starlette", reason="the web extras are not installed (make installs them)")
from starlette.testclient import TestClient  # noqa: E402

from coach import history  # noqa: E402
from coach.editorial import _solutions  # noqa: E402
from serving.answers import finite  # noqa: E402
from web.app import create_app  # noqa: E402
from web.practice import EDITORIAL_WORKERS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HERE = "http://127.0.0.1:8000"
TOKEN = "test-token-0123456789"
ACCEPTED = (ROOT / "solutions" / "gqa" / "accepted" / "grouped_tall_no_bK.py").read_text()
WRONG = (ROOT / "solutions" / "gqa" / "wrong_answer" / "forgot_b_O.py").read_text()
SLOW = slow_decoder()
HEADERS = {"content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                      "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
                                      "form-action 'self'",
           "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer"}


@pytest.fixture
def practice(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))  # this test's own history
    return tmp_path / "practice"


def opened(app) -> TestClient:
    client = TestClient(app, base_url=HERE)
    page = client.get(f"/problem/gqa?token={TOKEN}")
    assert page.status_code == 200 and page.url.query == b""  # the token left the URL
    client.csrf = re.search(r'<meta name="csrf" content="([^"]+)">', page.text).group(1)
    client.changes = {"Origin": HERE, "X-CSRF-Token": client.csrf}
    return client


@pytest.fixture
def client(practice):
    with opened(create_app(TOKEN, practice=practice, workers=2)) as client:
        yield client


def version(client, slug: str, file: str | None = None) -> str:
    """The file's version, the starter created first (by a POST, as the page does)."""
    query = f"?file={file}" if file else ""
    got = client.get(f"/api/problems/{slug}/source{query}")
    if got.status_code == 404:
        got = client.post(f"/api/problems/{slug}/source{query}", headers=client.changes)
    assert got.status_code == 200, got.text
    return got.json()["version"]


def save(client, slug: str, source: str, file: str | None = None):
    query = f"?file={file}" if file else ""
    saved = client.put(f"/api/problems/{slug}/source{query}", content=source,
                       headers={**client.changes, "If-Match": version(client, slug, file)})
    assert saved.status_code == 200, saved.text
    return saved.json()


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
        save(client, slug, source)
    started = client.post(f"/api/problems/{slug}/{action}", headers=client.changes, **kwargs)
    assert started.status_code == 200, started.text
    return events(client, started.json()["job"])


# -- who may ask -----------------------------------------------------------------------------------
def test_the_token_is_checked_before_routing(practice):
    with TestClient(create_app(TOKEN, practice=practice), base_url=HERE) as client:
        answers = [client.request(method, path) for method, path in (
            ("GET", "/"), ("GET", "/problem/gqa"), ("GET", "/api/problems"), ("GET", "/page/page.js"),
            ("GET", "/no/such/route"), ("POST", "/api/problems"), ("DELETE", "/api/jobs/x/cancel"))]
        assert {a.status_code for a in answers} == {403}  # nobody without the token learns which routes exist
        assert len({a.text for a in answers if a.request.url.path.startswith("/api/")}) == 1
        assert client.get("/?token=wrong").status_code == 403
        assert client.get("/api/problems/gqa/statement").json() == {
            "error": "open the URL the server printed (it carries the token)"}


def test_the_token_sets_the_cookie_then_leaves_the_url(practice):
    with TestClient(create_app(TOKEN, practice=practice), base_url=HERE, follow_redirects=False) as client:
        first = client.get(f"/problem/gqa?token={TOKEN}&file=mine.py")
        assert first.status_code == 303 and first.headers["location"] == "/problem/gqa?file=mine.py"
        cookie = first.headers["set-cookie"]
        assert cookie.startswith("judge_session=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert client.get("/api/problems").status_code == 200  # the cookie from now on
        assert client.get("/vendor/katex/katex.min.js").status_code == 200


@pytest.mark.parametrize("where", ["query", "cookie", "csrf"])
def test_a_non_ascii_token_cookie_or_csrf_header_is_a_403(practice, where):
    with TestClient(create_app(TOKEN, practice=practice), base_url=HERE, raise_server_exceptions=True) as client:
        if where == "query":
            refused = client.get("/api/problems?token=%C3%A9t%C3%A9")
        elif where == "cookie":
            refused = client.get("/api/problems", headers={"Cookie": "judge_session=\xe9t\xe9".encode("latin-1")})
        else:
            client.get(f"/?token={TOKEN}")
            refused = client.put("/api/problems/gqa/source", content="x = 1", headers={
                "Origin": HERE, "X-CSRF-Token": "\xe9t\xe9".encode("latin-1"), "If-Match": "absent"})
        assert refused.status_code == 403, refused.text


@pytest.mark.parametrize("host, status", [
    ("127.0.0.1:8000", 200), ("localhost:8000", 200), ("[::1]:8000", 200),
    ("evil.example:8000", 421), ("127.0.0.1:9000", 421), ("127.0.0.1", 421), ("localhost.evil.example:8000", 421)])
def test_only_this_servers_names_are_answered(client, host, status):
    answer = client.get("/api/problems", headers={"Host": host})
    assert answer.status_code == status, answer.text


def test_the_host_given_is_answered_too(practice):
    with opened(create_app(TOKEN, practice=practice, host="192.0.2.7", port=8000)) as client:
        assert client.get("/api/ping", headers={"Host": "192.0.2.7:8000"}).status_code == 200
        assert client.get("/api/ping", headers={"Host": "192.0.2.8:8000"}).status_code == 421


def test_every_answer_carries_the_security_headers(client):
    for path in ("/", "/problem/gqa", "/api/problems", "/problem/nope", "/api/nope", "/page/page.js"):
        answer = client.get(path)
        assert {k: answer.headers.get(k) for k in HEADERS} == HEADERS, path
    page = client.get("/problem/gqa")
    assert page.headers["cache-control"] == "no-store" and client.csrf in page.text  # the page holds the CSRF token
    assert client.get("/api/problems/gqa/source").headers["cache-control"] == "no-store"


def test_errors_are_pages_for_pages_and_json_for_the_api(client):
    page = client.get("/problem/nope")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "no problem &#x27;nope&#x27;" in page.text
    assert client.get("/no/such/page").headers["content-type"].startswith("text/html")
    api = client.get("/api/problems/nope/statement")
    assert (api.status_code, api.json()) == (404, {"error": "no problem 'nope'"})
    assert client.get("/api/problems/gqa/statement?lang=fr").json() == {"error": "lang='fr': en or zh"}


def test_the_cookie_is_not_the_token_and_grants_nothing_after_a_restart(practice):
    """Browsers send 127.0.0.1's cookies to every port: the cookie holds a secret of this server
    process, never the token, and the CSRF token is not derived from anything the cookie carries."""
    with opened(create_app(TOKEN, practice=practice)) as first:
        cookie = first.cookies["judge_session"]
        assert TOKEN not in cookie and cookie not in (first.csrf, TOKEN) and len(cookie) >= 32
        assert first.get("/api/problems").status_code == 200
    second_app = create_app(TOKEN, practice=practice)  # the same token, after a restart
    with TestClient(second_app, base_url=HERE) as stale:
        stale.cookies.set("judge_session", cookie)
        refused = stale.get("/api/problems")
        assert refused.status_code == 403 and refused.json() == {
            "error": "open the URL the server printed (it carries the token)"}
        assert stale.post("/api/problems/gqa/source", headers={"Origin": HERE, "X-CSRF-Token": first.csrf}
                          ).status_code == 403
    with opened(second_app) as second:
        assert second.cookies["judge_session"] != cookie and second.csrf != first.csrf
        assert second.post("/api/problems/gqa/source", headers={"Origin": HERE, "X-CSRF-Token": first.csrf}
                           ).status_code == 403  # the old page's CSRF value is no use either
        assert not (practice / "gqa.py").exists()


@pytest.mark.parametrize("headers, message", [
    ({}, "Origin None"),
    ({"Origin": "http://evil.example"}, "Origin 'http://evil.example'"),
    ({"Origin": HERE}, "CSRF token is missing or wrong"),
    ({"Origin": HERE, "X-CSRF-Token": "guess"}, "CSRF token is missing or wrong"),
])
def test_changes_from_another_site_are_refused(client, practice, headers, message):
    for method, path in (("PUT", "/api/problems/gqa/source"), ("POST", "/api/problems/gqa/source"),
                         ("POST", "/api/problems/gqa/submit"), ("POST", "/api/problems/gqa/run")):
        refused = client.request(method, path, content="x = 1", headers={**headers, "If-Match": "absent"})
        assert refused.status_code == 403 and message in refused.json()["error"], (method, path)
    assert not (practice / "gqa.py").exists()


# -- the file: created by a POST, saved with the version it was based on ---------------------------------
def test_a_get_creates_nothing(client, practice):
    for name in ("NEW.py", "gqa.py"):
        absent = client.get(f"/api/problems/gqa/source?file={name}")
        assert (absent.status_code, absent.json()["version"]) == (404, "absent")
    assert not practice.exists() or not list(practice.iterdir())
    made = client.post("/api/problems/gqa/source?file=NEW.py", headers=client.changes).json()
    assert made["created"] and "def grouped_query_attention(self, X," in made["source"]
    assert (practice / "NEW.py").read_text() == made["source"]  # the terminal sees the same file
    again = client.post("/api/problems/gqa/source?file=NEW.py", headers=client.changes).json()
    assert not again["created"] and again["version"] == made["version"]  # a starter never overwrites


def test_a_save_names_the_version_it_was_based_on(client, practice):
    base = version(client, "gqa")
    put = lambda text, based_on: client.put("/api/problems/gqa/source", content=text,  # noqa: E731
                                            headers={**client.changes, **({"If-Match": based_on} if based_on else {})})
    assert put("x = 0\n", None).status_code == 428
    tab_a = put("a = 1\n", f'"{base}"')  # tab A saves
    assert tab_a.status_code == 200 and tab_a.json()["version"] == tab_a.headers["etag"].strip('"')
    tab_b = put("b = 1\n", base)  # tab B, still on the old version, types one character
    assert tab_b.status_code == 409 and "changed on disk" in tab_b.json()["error"]
    assert (tab_b.json()["source"], tab_b.json()["version"]) == ("a = 1\n", tab_a.json()["version"])
    assert (practice / "gqa.py").read_text() == "a = 1\n"  # never a silent overwrite
    (practice / "gqa.py").write_text("from the terminal\n")  # an editor in a terminal
    assert put("a = 2\n", tab_a.json()["version"]).status_code == 409
    fresh = client.get("/api/problems/gqa/source").json()
    assert fresh["source"] == "from the terminal\n"
    overwritten = put("overwritten on purpose\n", fresh["version"])  # "overwrite" names what it replaces
    assert overwritten.status_code == 200
    (practice / "gqa.py").unlink()
    gone = put("x\n", overwritten.json()["version"])
    assert gone.status_code == 409 and (gone.json()["version"], gone.json()["source"]) == ("absent", None)


def test_an_oversized_source_is_refused_before_it_is_read(client, practice):
    base = version(client, "gqa")
    refused = client.put("/api/problems/gqa/source", content=b"#" * ((1 << 20) + 1),
                         headers={**client.changes, "If-Match": base})
    assert refused.status_code == 413 and refused.json()["error"] == (
        "the source is 1048577 bytes, over the limit of 1048576")

    def chunks(count: int = 40):  # no Content-Length: counted while it comes
        for _ in range(count):
            yield b"#" * 65536

    chunked = client.put("/api/problems/gqa/source", content=chunks(), headers={**client.changes, "If-Match": base})
    assert chunked.status_code == 413 and chunked.json()["error"] == "the source is over the limit of 1048576 bytes"
    big_input = client.post("/api/problems/gqa/run", content=chunks(140), headers=client.changes)
    assert (big_input.status_code, big_input.json()) == (413, {"error": "the input is over the limit of 8388608 bytes"})
    assert client.get("/api/problems/gqa/source").json()["version"] == base


@pytest.mark.parametrize("name", ["../escape.py", "..%2Fescape.py", "/etc/passwd", "sub/x.py", ".hidden.py",
                                  "x.txt", "%2E%2E%2Fx.py"])
def test_no_file_name_leaves_practice(client, practice, name):
    refused = client.put(f"/api/problems/gqa/source?file={name}", content="x = 1",
                         headers={**client.changes, "If-Match": "absent"})
    assert refused.status_code == 400, name
    assert client.get(f"/api/problems/gqa/source?file={name}").status_code == 400
    assert client.post(f"/api/problems/gqa/source?file={name}", headers=client.changes).status_code == 400
    assert not (practice.parent / "escape.py").exists() and not (practice.parent / "x.py").exists()


# -- judgings --------------------------------------------------------------------------------------
def test_the_list_shows_every_problem_with_the_users_standing(client):
    listed = {p["slug"]: p for p in client.get("/api/problems").json()}
    assert {"gqa", "mha", "mqa", "gqa_decode"} <= set(listed)
    assert listed["gqa"]["id"] == "P4497" and listed["gqa"]["titles"]["zh"] == "分组查询注意力"
    assert (listed["gqa"]["status"], listed["gqa"]["attempts"], listed["gqa"]["accepted"]) == ("new", 0, 0)
    judged(client, "gqa", "submit", WRONG)
    judged(client, "gqa", "hint", WRONG)  # a hint is no attempt
    judged(client, "gqa", "submit", ACCEPTED)
    mine = next(p for p in client.get("/api/problems").json() if p["slug"] == "gqa")
    assert (mine["status"], mine["attempts"], mine["accepted"], mine["last_verdict"]) == ("solved", 2, 1, "AC")
    assert mine["best_ms"] > 0
    page = client.get("/").text
    assert '<a href="/problem/gqa">Grouped Query Attention</a>' in page and "分组查询注意力" in page


def test_the_statement_in_both_languages_with_math_left_for_katex(client):
    english = client.get("/api/problems/gqa/statement?lang=en").json()["html"]
    chinese = client.get("/api/problems/gqa/statement?lang=zh").json()["html"]
    assert "<h1>Grouped Query Attention (P4497)" in english
    assert '<span class="math inline">h_q</span>' in english and '<div class="math block">' in english
    assert "分组查询注意力" in chinese and '<span class="math inline">' in chinese
    assert client.get("/api/problems/nope/statement").status_code == 404


def test_no_statement_shows_the_generated_blocks_markers(client):
    for problem in client.get("/api/problems").json():
        for lang in ("en", "zh"):
            html = client.get(f"/api/problems/{problem['slug']}/statement?lang={lang}").json()["html"]
            assert "generated:" not in html and "&lt;!--" not in html, (problem["slug"], lang)
            assert "<table>" in html  # the block itself stays


def test_submit_streams_each_test_then_the_report(client):
    seen = judged(client, "gqa", "submit", ACCEPTED)
    tests, final = seen[:-1], seen[-1]
    assert final["event"] == "done" and final["report"]["verdict"] == "AC"
    total = final["report"]["total"]
    assert [t["index"] for t in tests] == list(range(1, total + 1))
    assert all(t["event"] == "test" and t["verdict"] == "AC" and t["time_ms"] > 0 for t in tests)
    assert all(t["sizes"]["d_k"] >= 1 and t["note"] and t["output"] == "" for t in tests)
    history = client.get("/api/problems/gqa/history").json()
    assert [(h["kind"], h["verdict"], h["passed"], h["full"]) for h in history] == [("submit", "AC", total, True)]


def test_a_wrong_submission_shows_its_first_mismatch(client):
    seen = judged(client, "gqa", "submit", WRONG)
    report, tests = seen[-1]["report"], seen[:-1]
    failing = tests[-1]
    assert [t["verdict"] for t in tests] == ["AC"] * (len(tests) - 1) + ["WA"]  # judging stops there
    assert (report["verdict"], report["passed"], report["first_failure"]) == ("WA", len(tests) - 1, failing["name"])
    mismatch = failing["mismatch"]
    assert mismatch["position"].startswith("row ") and mismatch["got"] != mismatch["expected"]
    assert mismatch["error"] > mismatch["allowed"] and failing["note"] and failing["sizes"]["T"] >= 1


@pytest.mark.slow  # every bundled wrong file judged (test_window keeps a hint in the fast tier)
def test_a_hint_names_the_statement_step_and_says_plainly_what_it_cannot_explain(client):
    report = judged(client, "gqa", "hint?level=2", WRONG)[-1]["report"]
    assert report["verdict"] == "WA" and report["hint"]["kind"] == "step" and report["hint"]["level"] == 2
    assert report["hint"]["step"].startswith("step ") and report["hint"]["bugs"]
    accepted = judged(client, "gqa", "hint", ACCEPTED)[-1]["report"]
    assert accepted["hint"]["kind"] == "not_wa" and accepted["hint"]["text"].startswith("hints explain wrong answers")
    kinds = [h["kind"] for h in client.get("/api/problems/gqa/history").json()]
    assert kinds == ["hint", "hint"]


@pytest.mark.slow  # two hints, each judging every bundled wrong file of causal
def test_the_page_s_hint_on_a_nan_explains_it_and_names_no_step(client):
    """Issue 33 on the page: the right causal mask with a softmax that keeps its max gives NaN on
    002-edge; neither level blames the mask step, as the bundled strict mask's NaN once made it."""
    from test_practice import CAUSAL_NO_MAX

    for level in (1, 2):
        hint = judged(client, "causal", f"hint?level={level}", CAUSAL_NO_MAX)[-1]["report"]["hint"]
        assert (hint["level"], hint["kind"], hint["step"], hint["matches"]) == (level, "nonfinite", None, None)
        assert hint["nonfinite"]["position"] == "row 0, column 0"
        assert hint["text"].startswith("your output holds NaN: 1 of its 1 elements is not finite, the first at row 0")


PRINTS = ACCEPTED.replace("        X = np.asarray(X, dtype=np.float64)\n",
                          "        X = np.asarray(X, dtype=np.float64)\n        print('debug', X.shape, '<i>')\n"
                          "        if X.shape[0] == 2:\n            raise ValueError('oops')\n", 1)


def test_run_shows_the_console_and_the_traceback(client):
    assert PRINTS != ACCEPTED
    report = judged(client, "gqa", "run", PRINTS)[-1]["report"]
    assert report["verdict"] == "RE" and report["test"]["output"] == "debug (2, 4) <i>\n"
    assert "raise ValueError('oops')" in report["test"]["traceback"] and report["message"] == "ValueError: oops"
    printed = judged(client, "gqa", "submit", PRINTS.replace("X.shape[0] == 2", "False"))[-1]["report"]
    assert printed["verdict"] == "AC" and all(t["output"].startswith("debug (") for t in printed["tests"])


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


def test_an_own_input_with_no_single_right_answer_is_refused_as_the_command_says(client):
    reference = (ROOT / "problems" / "sampling" / "reference.py").read_text()
    tied = {"logits": [[0, 0]], "temperature": 1.0, "top_k": 0, "top_p": 1.0, "u": [0.5]}  # u on the CDF's step
    refused = judged(client, "sampling", "run", reference, content=json.dumps({"input": tied}))[-1]
    assert refused["event"] == "error" and refused["message"] == (
        "your input: refused: sampling has no single right answer on this input: it comes too close to a boundary "
        "where rounding decides (the statement's section \"Checking\" says how close an input may come)")


def test_an_own_input_nested_too_deep_is_refused_before_parsing(client):
    deep = b'{"input": {"X": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    save(client, "gqa", ACCEPTED)
    refused = client.post("/api/problems/gqa/run", headers=client.changes, content=deep)
    assert (refused.status_code, refused.json()) == (
        400, {"error": "the input: arrays and objects nested 100002 deep, over the limit of 32"})


def started(client, slug: str, action: str = "submit", file: str | None = None, **kwargs):
    query = f"?file={file}" if file else ""
    return client.post(f"/api/problems/{slug}/{action}{query}", headers=client.changes, **kwargs)


def wait_running(client, job: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while client.get(f"/api/jobs/{job}").json()["state"] == "queued":
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_long_judging_can_be_cancelled_and_leaves_nothing_running(client, practice):
    save(client, "gqa_decode", SLOW)
    job = started(client, "gqa_decode").json()["job"]
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


def test_a_reloaded_page_finds_the_judging_of_its_file(client):
    save(client, "gqa_decode", SLOW)
    assert client.get("/api/problems/gqa_decode/active").json() == {"job": None}
    job = started(client, "gqa_decode").json()["job"]
    active = client.get("/api/problems/gqa_decode/active").json()
    assert (active["job"], active["kind"], active["file"]) == (job, "submit", "gqa_decode.py")
    assert client.get("/api/problems/gqa_decode/active?file=other.py").json() == {"job": None}
    client.post(f"/api/jobs/{job}/cancel", headers=client.changes)
    assert events(client, job)[-1]["event"] == "cancelled"
    assert client.get("/api/problems/gqa_decode/active").json() == {"job": None}


def test_the_queue_is_bounded_in_all_and_per_file(practice):
    with opened(create_app(TOKEN, practice=practice, workers=1, max_queued=2)) as client:
        for name in ("a.py", "b.py", "c.py", "d.py"):
            save(client, "gqa_decode", SLOW, name)
        first = started(client, "gqa_decode", file="a.py").json()["job"]
        wait_running(client, first)
        queued = [started(client, "gqa_decode", file=name) for name in ("b.py", "c.py")]
        assert [q.status_code for q in queued] == [200, 200]
        same_file = started(client, "gqa_decode", file="b.py")
        assert same_file.status_code == 429 and "a judging of b.py is already waiting" in same_file.json()["error"]
        full = started(client, "gqa_decode", file="d.py")
        assert full.status_code == 429 and full.json()["error"] == (
            "2 judgings are waiting for the 1 workers already: try again when one has finished")
        assert client.get("/api/ping").json() | {} == {"ok": True, "running": 1, "queued": 2, "workers": 1,
                                                          "max_queued": 2}
        own = {"input": client.get("/api/problems/gqa_decode/sample").json()["input"]}
        inputs = set(Path(tempfile.gettempdir()).glob("your-input-*.json"))
        refused_run = started(client, "gqa_decode", "run", file="d.py", content=json.dumps(own))
        assert refused_run.status_code == 429
        assert set(Path(tempfile.gettempdir()).glob("your-input-*.json")) <= inputs  # its input file went with it
        for job in [first] + [q.json()["job"] for q in queued]:
            client.post(f"/api/jobs/{job}/cancel", headers=client.changes)
        assert started(client, "gqa_decode", file="d.py").status_code == 200  # room again
        client.post(f"/api/jobs/{client.get('/api/problems/gqa_decode/active?file=d.py').json()['job']}/cancel",
                    headers=client.changes)


def test_a_run_cancelled_while_queued_leaves_no_input_file(practice):
    with opened(create_app(TOKEN, practice=practice, workers=1)) as client:
        save(client, "gqa_decode", SLOW)
        save(client, "gqa_decode", SLOW, "other.py")
        blocker = started(client, "gqa_decode").json()["job"]
        wait_running(client, blocker)
        own = {"input": client.get("/api/problems/gqa_decode/sample").json()["input"]}
        queued = started(client, "gqa_decode", "run", file="other.py", content=json.dumps(own)).json()["job"]
        temporary = client.app.state.jobs.jobs[queued].cleanup[0]
        assert temporary.exists() and client.get(f"/api/jobs/{queued}").json()["state"] == "queued"
        client.post(f"/api/jobs/{queued}/cancel", headers=client.changes)
        assert not temporary.exists()
        client.post(f"/api/jobs/{blocker}/cancel", headers=client.changes)


def test_the_history_shows_each_judgings_code_and_its_diff(client):
    judged(client, "gqa", "submit", WRONG)
    save(client, "gqa", WRONG.replace("import numpy as np", "import numpy as np  # changed since"))
    (row,) = client.get("/api/problems/gqa/history").json()
    shown = client.get(f"/api/problems/gqa/history/{row['id']}").json()
    assert shown["source"] == WRONG and shown["same"] is False
    assert "-import numpy as np" in shown["diff"] and "+import numpy as np  # changed since" in shown["diff"]
    assert shown["diff"][0] == f"--- judged {row['time']}" and shown["diff"][1] == "+++ practice/gqa.py now"
    assert client.get("/api/problems/gqa/history/999").status_code == 404


def test_the_editorial_is_gated_read_in_a_bounded_pool_and_spawns_nothing(client):
    closed = client.get("/api/problems/gqa/editorial").json()
    assert not closed["open"] and "not solved yet" in closed["message"] and closed["solutions"] == []
    def started() -> int:
        return len(children(os.getpid()))

    before, read = started(), _solutions.cache_info()
    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda _: client.get("/api/problems/gqa/editorial?force=1"), range(12)))
        assert started() <= before  # 12 at once: no process started for any
    # read once per pool thread at most (both may miss at the same moment), then cached
    assert _solutions.cache_info().misses - read.misses <= EDITORIAL_WORKERS
    forced = answers[0].json()
    assert all(a.json() == forced for a in answers) and forced["open"]
    names = [s["name"] for s in forced["solutions"]]
    assert "repeat_kv_batched.py" in names and len(names) == 5
    one = forced["solutions"][names.index("repeat_kv_batched.py")]
    assert one["description"].startswith("K/V heads expanded to h_q heads with np.repeat")
    assert one["source"].startswith("# Accepted:")
    assert (one["time"], one["memory"]) == ("O(T·d_model² + h_q·T²·d_k)", "O(h_q·T² + T·d_model)")
    assert one["prose"]["en"].startswith("K and V are reshaped to (h_k, T, d_k) stacks")
    assert one["prose"]["zh"].startswith("先把 K、V 变形成 (h_k, T, d_k) 的堆叠")
    assert names[0] == "loop_heads_column_slices.py"  # editorial.toml's order: the simplest first
    assert forced["idea"]["en"].startswith("The $h_q$ query heads fall into $h_k$ consecutive groups")
    assert closed["idea"] == {}  # nothing of it before an AC


def test_infinities_reach_the_browser_as_strings():
    assert json.dumps(finite({"max_rel_err": float("inf"), "x": [float("nan"), 1.5]})) == (
        '{"max_rel_err": "inf", "x": ["nan", 1.5]}')


# -- the server itself: python -m judge serve ------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(tmp_path: Path, *args: str, env: dict | None = None, host: str = "127.0.0.1") -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(
        judge_command("serve", "--port", str(port), "--host", host, "--practice", tmp_path / "practice", *args),
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "JUDGE_HOME": str(tmp_path / "home"), **(env or {})})
    url = process.stdout.readline().strip()
    deadline = time.monotonic() + 60
    while True:  # answering: its signal handlers are in place
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, url
        except OSError:
            assert time.monotonic() < deadline and process.poll() is None, process.stderr.read()
            time.sleep(0.05)


def session_of(base: str) -> tuple[str, str]:
    """The cookie and the CSRF token a browser gets by opening the URL the server printed."""
    import urllib.error
    import urllib.request

    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        urllib.request.build_opener(Keep).open(f"{base}/problem/gqa?token={TOKEN}", timeout=60)
        raise AssertionError("the token in the URL was not answered with a redirect")
    except urllib.error.HTTPError as exc:
        assert exc.code == 303
        cookie = exc.headers["Set-Cookie"].split(";")[0]
    page = urllib.request.urlopen(urllib.request.Request(f"{base}/problem/gqa", headers={"Cookie": cookie}),
                                  timeout=60).read().decode()
    return cookie, re.search(r'<meta name="csrf" content="([^"]+)">', page).group(1)


def stop(process: subprocess.Popen, sent: int = signal.SIGINT) -> tuple[int, str]:
    process.send_signal(sent)
    return process.wait(timeout=30), process.stderr.read()


def test_the_token_is_kept_across_restarts_and_rotated_on_request(tmp_path):
    first, url = serve(tmp_path)
    stop(first)
    kept = tmp_path / "home" / "web-token"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and url.endswith(f"?token={kept.read_text().strip()}")
    again, url_again = serve(tmp_path)
    stop(again)
    assert url_again.split("?")[1] == url.split("?")[1]  # the printed URL is the same after a restart
    rotated, url_rotated = serve(tmp_path, "--new-token")
    stop(rotated)
    assert url_rotated.split("?")[1] != url.split("?")[1] and url_rotated.endswith(kept.read_text().strip())


@pytest.mark.slow  # five servers started
def test_a_token_from_a_file_or_the_environment_and_never_a_short_one(tmp_path):
    given = tmp_path / "token"
    given.write_text("from-a-file-0123456789\n")
    from_file, url = serve(tmp_path, "--token-file", str(given))
    stop(from_file)
    assert url.endswith("?token=from-a-file-0123456789")
    from_env, url = serve(tmp_path, env={"JUDGE_TOKEN": "from-the-environment-01"})
    stop(from_env)
    assert url.endswith("?token=from-the-environment-01")
    on_the_command_line, url = serve(tmp_path, "--token", "on-the-command-line-01")
    code, stderr = stop(on_the_command_line)
    assert url.endswith("?token=on-the-command-line-01") and code == 0
    assert stderr == ("warning: --token is visible to other users of this machine (ps): prefer --token-file or the "
                      "JUDGE_TOKEN environment variable\n")
    absent = tmp_path / "absent"
    for args, env, said in (
            (["--token", "short"], {}, "--token: a token needs at least 16 characters (it is 5)"),
            ([], {"JUDGE_TOKEN": "short"}, "JUDGE_TOKEN: a token needs at least 16 characters (it is 5)"),
            (["--token", "with space 0123456789"], {}, "--token: a token is printable ASCII without spaces"),
            (["--token-file", str(absent)], {}, f"{absent}: cannot be read as a token (No such file or directory)")):
        refused = subprocess.run(judge_command("serve", "--port", str(free_port()), *args),
                                 cwd=ROOT, capture_output=True, text=True, timeout=120,
                                 env={**os.environ, "JUDGE_HOME": str(tmp_path / "home"), **env})
        assert (refused.returncode, refused.stdout, refused.stderr) == (2, "", f"error: {said}\n")


def test_a_bind_beyond_this_machine_says_it_is_plain_http(tmp_path):
    process, url = serve(tmp_path, host="0.0.0.0")
    code, stderr = stop(process)
    assert url.startswith("http://0.0.0.0:") and code == 0
    assert "the traffic is plain HTTP" in stderr and "ssh -L " in stderr


@pytest.mark.parametrize("sent", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)],
                         ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_while_a_page_follows_a_judging_stops_everything_at_once(tmp_path, monkeypatch, sent):
    process, url = serve(tmp_path, env={"JUDGE_TOKEN": TOKEN})
    base = url.split("/?")[0]
    practice = tmp_path / "practice"
    import urllib.request

    cookie, csrf = "", ""

    def ask(method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        request = urllib.request.Request(base + path, data=body, method=method,
                                         headers={"Cookie": cookie, **(headers or {})})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read()) if "json" in answer.headers["content-type"] else answer.read()

    cookie, csrf = session_of(base)
    changes = {"Origin": base, "X-CSRF-Token": csrf}
    jobs = []
    for name in ("a.py", "b.py", "c.py"):
        made = ask("POST", f"/api/problems/gqa_decode/source?file={name}", headers=changes)
        ask("PUT", f"/api/problems/gqa_decode/source?file={name}", SLOW.encode(),
            {**changes, "If-Match": made["version"]})
        jobs.append(ask("POST", f"/api/problems/gqa_decode/submit?file={name}", headers=changes)["job"])
    seen: list[str] = []

    def follow() -> None:
        request = urllib.request.Request(f"{base}/api/jobs/{jobs[0]}/events", headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=120) as stream:
            seen.extend(line.decode().strip() for line in stream)

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    deadline = time.monotonic() + 60
    while not any(line == "event: test" for line in seen):  # the page has seen a test: the judging runs
        assert time.monotonic() < deadline + 120
        time.sleep(0.05)
    code, stderr = stop(process, sent)
    follower.join(60)
    assert (code, stderr) == (0, "")
    # The server did not wait for the judgings (~20 s of CPU each): the page's stream was ended by
    # the server, no judging finished (none is in the history), nothing is left running.
    assert not follower.is_alive() and seen[-2:] == ['data: {"event": "closing"}', ""]
    monkeypatch.setenv("JUDGE_HOME", str(tmp_path / "home"))
    assert history.judgings() == []
    assert not any(sandbox_processes(practice / name) for name in ("a.py", "b.py", "c.py"))


def test_serve_on_a_busy_port_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(judge_command("serve", "--port", str(port)), cwd=ROOT, capture_output=True, text=True,
                              timeout=600, env={**os.environ, "JUDGE_HOME": str(tmp_path)})
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (f"error: cannot serve on 127.0.0.1:{port}: Address already in use "
                           "(choose another with --port)\n")


def test_a_stored_tests_input_is_given_by_name_for_use_as_ones_own(client):
    stored = json.loads((ROOT / "problems" / "gqa" / "tests" / "002-edge.json").read_text())["input"]
    given = client.get("/api/problems/gqa/sample?test=002-edge").json()
    assert given["input"] == stored and list(stored) == [a["name"] for a in given["args"]]
    missing = client.get("/api/problems/gqa/sample?test=../../etc/passwd")
    assert (missing.status_code, missing.json()) == (404, {"error": "gqa has no stored test '../../etc/passwd'"})


def test_the_sample_names_each_argument_with_its_shape_and_kind_for_the_own_input(client):
    gqa = client.get("/api/problems/gqa/sample").json()["args"]
    assert gqa[:4] == [{"name": "X", "shape": ["T", "d_model"], "kind": "float_array"},
                       {"name": "W_Q", "shape": ["d_model", "d_model"], "kind": "float_array"},
                       {"name": "b_Q", "shape": ["d_model"], "kind": "float_array"},
                       {"name": "W_K", "shape": ["d_model", "h_k * d_k"], "kind": "float_array"}]
    assert {"name": "h_q", "shape": [], "kind": "int"} in gqa
    rope = client.get("/api/problems/rope/sample").json()["args"]
    assert rope == [{"name": "q", "shape": ["num_heads", "T", "d"], "kind": "float_array"},
                    {"name": "k", "shape": ["num_heads", "T", "d"], "kind": "float_array"},
                    {"name": "positions", "shape": ["T"], "kind": "int_array"},
                    {"name": "base", "shape": [], "kind": "float"}]
    masked = {a["name"]: a["kind"] for a in client.get("/api/problems/masked/sample").json()["args"]}
    assert masked["mask"] == "int_array"  # a 0/1 mask: whole numbers
