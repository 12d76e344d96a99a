"""The class's server on one machine (issue 27), through its real entry points: accounts made by
`python -m judge class add-users`, the server started by `python -m judge serve --class` on a free
port with its in-process warm workers, every request real HTTP on loopback."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import time

import numpy as np
import pytest
from class_server import (
    CE_CODE,
    Client,
    Server,
    add_users,
    check_scoreboard,
    check_statistics,
    class_folder,
    remove,
    solution,
    token,
)
from helpers import ROOT, holds, judge_command

from grading.session import Options, given, judge_file
from problems import load
from sandbox.sandbox import Sandbox, run_label, sandbox_processes
from sandbox.view import checkout_root

USERS = ["alice,alice@example.org", "bob,bob@example.org", "carol,carol@example.org", "dave,dave@example.org",
         "erin,erin@example.org", "fred,fred@example.org", "teach,teach@example.org,admin", "gina,gina@example.org",
         "hank,hank@example.org"]


def _stamp(seconds_from_now: float) -> str:
    return dt.datetime.fromtimestamp(time.time() + seconds_from_now, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture(scope="module")
def klass():
    folder = class_folder("judge-class-")
    folder.mkdir(parents=True)
    (folder / "class.toml").write_text(f'title = "Test contest"\nmode = "contest"\nstart = {_stamp(-600)}\n'
                                       f"end = {_stamp(7200)}\nsubmissions_per_minute = 5\n")
    passwords = add_users(folder, USERS)
    server = Server(folder)
    try:
        yield folder, server, passwords
    finally:
        server.stop()
        remove(folder)


def _as(klass, name: str) -> Client:
    folder, server, _ = klass
    return Client(server.base, bearer=token(folder, name))


def test_add_users_prints_each_password_once_and_refuses_a_bad_line(tmp_path):
    folder = tmp_path / "class"
    first = add_users(folder, ["ann,ann@example.org", "root,root@example.org,admin"])
    assert sorted(first) == ["ann", "root"] and all(len(p) >= 12 for p in first.values())
    again = add_users(folder, ["ann,ann@example.org"])
    assert again == {"ann": "(exists: unchanged)"}
    bad = tmp_path / "bad.csv"
    bad.write_text("name,email\ncarl,carl@example.org,teacher\n")
    done = subprocess.run(judge_command("class", "add-users", str(folder), str(bad)), cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 2
    assert done.stderr == f"error: {bad} line 2: role 'teacher': student or admin\n"


def test_sign_in_gives_a_strict_http_only_cookie_and_changes_need_origin_and_csrf(klass):
    _, server, passwords = klass
    anonymous = Client(server.base)
    assert anonymous.get("/api/problems").status == 401
    assert anonymous.get("/").status == 303  # to the sign-in page
    page = anonymous.request("POST", "/signin", b"login=alice&password=wrong",
                             {"Content-Type": "application/x-www-form-urlencoded", "Origin": server.base})
    assert page.status == 401 and "wrong name or password" in page.text
    form = f"login=alice&password={passwords['alice']}".encode()
    signed = anonymous.request("POST", "/signin", form, {"Content-Type": "application/x-www-form-urlencoded",
                                                          "Origin": server.base})
    assert signed.status == 303
    cookie = signed.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    alice = Client(server.base)
    assert alice.sign_in("alice", passwords["alice"]).status == 200
    code = {"problem": "gqa", "code": CE_CODE}
    assert alice.post_json("/api/submissions", code, {"Origin": server.base}).status == 403  # no CSRF token
    assert alice.post_json("/api/submissions", code, {"Origin": "http://evil.example",
                                                      "X-CSRF-Token": alice.csrf}).status == 403
    made = alice.change("/api/submissions", code)
    assert made.status == 201
    assert alice.wait_done(made.json()["id"])["verdict"] == "CE"


def test_every_verdict_comes_back_through_the_api(klass):
    alice = _as(klass, "alice")
    cases = [("mha", solution("mha", "accepted"), "AC"), ("mqa", solution("mqa", "wrong_answer"), "WA"),
             ("causal", CE_CODE, "CE"), ("masked", solution("masked", "time_limit_exceeded"), "TLE")]
    ids = []
    for problem, code, _ in cases:
        made = alice.submit(problem, code)
        assert made.status == 201, made.text
        ids.append(made.json()["id"])
    results = [alice.wait_done(i) for i in ids]
    assert [r["verdict"] for r in results] == [v for *_, v in cases]
    accepted = results[0]
    assert accepted["status"] == "done" and accepted["problem"] == "mha" and accepted["user"] == "alice"
    assert [t["verdict"] for t in accepted["tests"]] == ["AC"] * len(load("mha").test_files())
    assert not [t for t in accepted["tests"] if {"output", "output_size", "traceback"} & set(t)]  # quiet: nothing kept
    assert results[1]["tests"][-1]["verdict"] == "WA" and results[1]["tests"][-1]["message"]  # the sample's
    assert results[2]["tests"] == [] and results[2]["message"]
    assert results[3]["tests"][-1]["verdict"] == "TLE"


@pytest.mark.slow
def test_errors_are_json_with_the_right_status(klass):
    folder, server, _ = klass
    dave = _as(klass, "dave")
    assert Client(server.base, bearer="cj_not-a-token").get("/api/problems").status == 401
    unknown = dave.submit("nosuch", "x = 1\n")
    assert (unknown.status, unknown.json()) == (404, {"error": "no problem 'nosuch' in this class"})
    huge = dave.submit("gqa", "#" * (1 << 20) + "\n")
    assert huge.status == 413 and "over the judge's limit" in huge.json()["error"]
    assert dave.request("POST", "/api/submissions", b"{not json", {"Content-Type": "application/json"}).status == 400
    first = dave.submit("gqa", solution("gqa", "time_limit_exceeded"))
    second = dave.submit("gqa", solution("gqa", "accepted"))
    assert first.status == 201
    assert (second.status, second.json()) == (429, {"error": "your last submission of gqa is still being judged: "
                                                             "wait for its verdict"})
    assert dave.get("/api/submissions/999999").status == 404
    assert dave.post_json("/api/problems/gqa/rejudge", {}).status == 403  # a student
    erin = _as(klass, "erin")
    made = [erin.submit(slug, CE_CODE).status for slug in ["causal", "gqa", "masked", "mha", "mqa", "mla"]]
    assert made == [201] * 5 + [429]
    dave.wait_done(first.json()["id"])


@pytest.mark.slow
def test_a_student_sees_only_their_own_submissions(klass):
    _, server, passwords = klass
    carol, bob = _as(klass, "carol"), _as(klass, "bob")
    secret = "# carol's secret approach\n" + solution("gqa", "accepted")
    mine = carol.submit("gqa", secret).json()["id"]
    carol.wait_done(mine)
    assert bob.get(f"/api/submissions/{mine}").status == 404
    assert all(s["user"] == "bob" for s in bob.get("/api/submissions").json())
    assert all(s["user"] == "bob" for s in bob.get("/api/submissions?user=carol").json())
    browser = Client(server.base)
    browser.sign_in("bob", passwords["bob"])
    page = browser.get(f"/submissions/{mine}")
    assert page.status == 404 and "secret approach" not in page.text
    assert "secret approach" not in browser.get("/submissions").text
    teach = _as(klass, "teach")
    seen = teach.get(f"/api/submissions/{mine}").json()
    assert seen["code"] == secret and seen["user"] == "carol"
    assert {s["user"] for s in teach.get("/api/submissions?user=carol").json()} == {"carol"}


@pytest.mark.slow
def test_an_admin_rejudges_one_submission_or_a_whole_problem(klass):
    fred, teach = _as(klass, "fred"), _as(klass, "teach")
    made = fred.submit("mla", solution("mla", "accepted")).json()["id"]
    assert fred.wait_done(made)["verdict"] == "AC"
    again = teach.post_json(f"/api/submissions/{made}/rejudge", {})
    assert again.json() == {"rejudged": [made]}
    done = teach.wait_done(made)
    assert (done["verdict"], done["round"]) == ("AC", 1)
    every = teach.post_json("/api/problems/mla/rejudge", {}).json()["rejudged"]
    assert made in every
    assert [teach.wait_done(i)["round"] >= 1 for i in every] == [True] * len(every)


def test_statistics_and_scoreboard_are_what_the_stored_submissions_imply(klass):
    teach = _as(klass, "teach")
    deadline = time.monotonic() + 600
    while any(s["status"] != "done" for s in teach.get("/api/submissions").json()):
        assert time.monotonic() < deadline
        time.sleep(0.5)
    stored = sorted(teach.get("/api/submissions").json(), key=lambda s: (s["created"], s["id"]))
    students = [s for s in stored if s["user"] != "teach"]
    check_statistics(teach.get("/api/problems").json(), students)
    check_scoreboard(teach.get("/api/scoreboard").json(), students)


def test_students_equal_on_solved_penalty_and_last_ac_share_a_rank():
    """Two students with nothing solved were ranked 1 and 2 by their names; a tie shares its rank."""
    from classroom.standings import scoreboard

    def row(user: str, minute: int, verdict: str) -> dict:
        return {"user_id": hash(user), "user_name": user, "problem": "gqa", "created": 60.0 * minute,
                "status": "done", "verdict": verdict}

    rows = [row("zed", 5, "AC"), row("amy", 1, "WA"), row("bob", 2, "WA"), row("cat", 5, "AC"), row("dan", 9, "AC")]
    board = scoreboard(rows, ["gqa"], 0.0, None, None)
    assert [(r["rank"], r["user"], r["solved"], r["penalty"]) for r in board] == [
        (1, "cat", 1, 5), (1, "zed", 1, 5), (3, "dan", 1, 9), (4, "amy", 0, 0), (4, "bob", 0, 0)]


def test_pages_escape_what_users_wrote_and_run_no_inline_script(klass):
    _, server, passwords = klass
    bob = Client(server.base)
    bob.sign_in("bob", passwords["bob"])
    code = "# </pre><script>alert('x')</script>\n" + CE_CODE
    made = bob.change("/api/submissions", {"problem": "mqa", "code": code}).json()["id"]
    bob.wait_done(made)
    for path in ["/", "/problems/gqa", "/submissions", f"/submissions/{made}", "/scoreboard", "/account"]:
        page = bob.get(path)
        assert page.status == 200, path
        assert "default-src 'self'; script-src 'self'" in page.headers["Content-Security-Policy"]
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page.text) == [], path  # every script from a file
    shown = bob.get(f"/submissions/{made}").text
    assert "<script>alert" not in shown and "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in shown
    form = (f"csrf={bob.csrf}&code=" + "x%20%3D%201%0A").encode()
    sent = bob.request("POST", "/problems/mha/submit", form, {"Content-Type": "application/x-www-form-urlencoded",
                                                              "Origin": server.base})
    assert sent.status == 303 and re.fullmatch(r"/submissions/\d+", sent.headers["Location"])


def test_a_warm_sandbox_keeps_no_byte_of_a_submission_between_judgings(tmp_path):
    """The fork server that stays up between submissions never holds one (as root, the test reads
    its memory): only the session process that judged it did, and that one has exited."""
    if os.geteuid() != 0:
        pytest.skip("reading another process's memory needs root")
    marker = "warm_sandbox_marker_" + os.urandom(8).hex()
    path = tmp_path / "submission.py"
    path.write_text(f"# {marker}\n" + solution("gqa", "accepted"))
    problem = load("gqa")
    name = f"warm-test-{marker}"
    sandbox = Sandbox(label=run_label(name), secrets=[checkout_root(), tmp_path], warm=True)
    during = []  # the control: while it is judged, its session process does hold it

    def look(report, result) -> None:
        if not during:
            during.append(any(holds(pid, marker) for pid in sandbox_processes(name)))

    try:
        sandbox.start()
        tests = problem.test_files()[:3]
        judged = judge_file(path, problem, Options(given(tests), sandbox=sandbox, keep_sandbox=True, on_test=look))
        assert judged.verdict.name == "AC" and during == [True]
        assert sandbox.alive
        left = sandbox_processes(name)
        assert left and not any(holds(pid, marker) for pid in left)
        again = judge_file(path, problem, Options(given(tests), sandbox=sandbox, keep_sandbox=True))
        assert again.verdict.name == "AC" and sandbox_processes(name) == left  # the same fork server, warm
    finally:
        sandbox.close()
    assert sandbox_processes(name) == set()


def test_the_fair_queue_takes_users_in_turn():
    from classroom.fair import FairQueue
    from classroom.store import Job

    queue = FairQueue()
    for user, count in ((1, 5), (2, 1), (3, 2)):
        for n in range(count):
            queue.put(Job(submission=user * 10 + n, round=0, user=user, problem="gqa", code=""))
    taken = [queue.take(timeout=0) for _ in range(8)]
    assert [job.submission for job in taken if job] == [10, 20, 30, 11, 31, 12, 13, 14]
    assert queue.take(timeout=0) is None


def test_a_warm_worker_replaces_a_sandbox_that_died_between_judgings():
    from classroom.judging import WarmJudge

    problem = load("mha")
    judge = WarmJudge({"mha": problem}, f"lost-{os.getpid()}")
    try:
        code = solution("mha", "accepted")
        assert judge.judge("mha", code)["verdict"] == "AC"
        first = sandbox_processes(f"class-worker-lost-{os.getpid()}")
        for pid in first:  # as if the machine's OOM killer took the fork server
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        again = judge.judge("mha", code)
        assert (again["verdict"], again["message"]) == ("AC", "")
        second = sandbox_processes(f"class-worker-lost-{os.getpid()}")
        assert second and not second & first
    finally:
        judge.close()


@pytest.mark.parametrize(("value", "verdict", "limit_verdict", "shown"), [
    (1000.4, "TLE", "TLE", "1000.4 ms"),  # was "1000 ms" beside "used 1000.4 ms ..., over the limit of 1000 ms"
    (1000.0004, "TLE", "TLE", ">1000 ms"),
    (1500.2, "TLE", "TLE", "1500 ms"),
    (999.6, "AC", "TLE", "1000 ms"),  # within the limit: rounded as usual
    (256.04, "MLE", "MLE", "256.04 MiB"),
    (3.25, "MLE", "MLE", "3.2 MiB"),  # a refused allocation: the peak is under the limit, and said so
    (None, "TLE", "TLE", ""),
])
def test_the_pages_never_round_a_figure_onto_its_limit(value, verdict, limit_verdict, shown):
    from classroom.app import figure

    assert figure({"causal": load("causal")}, value, verdict, "causal", limit_verdict) == shown


def test_a_students_draft_starts_as_the_starter_and_is_saved_by_version(klass):
    """The problem page's code is kept per student and problem; a save names the version it was
    based on, so a second tab's older text never overwrites the newer one (409 with what is kept)."""
    erin, fred = _as(klass, "erin"), _as(klass, "fred")
    opened = erin.get("/api/problems/gqa/source")  # the page's first open: the starter, no 404 then a POST
    assert (opened.status, opened.json()["version"]) == (200, "absent")
    assert "class Solution:" in opened.json()["source"]
    first = erin.get("/api/problems/gqa/draft").json()
    assert first["version"] == "absent" and "class Solution:" in first["code"] and "def " in first["code"]
    put = lambda client, code, version: client.request(  # noqa: E731
        "PUT", "/api/problems/gqa/draft", code.encode(), {"If-Match": f'"{version}"'})
    assert put(erin, "x = 1\n", "").status == 428
    saved = put(erin, "x = 1\n", "absent")
    assert saved.status == 200 and saved.json()["saved"] == 6
    stale = put(erin, "x = 2\n", "absent")  # the other tab, still on the starter
    assert (stale.status, stale.json()["code"], stale.json()["version"]) == (409, "x = 1\n", saved.json()["version"])
    assert put(erin, "x = 3\n", saved.json()["version"]).status == 200
    assert erin.get("/api/problems/gqa/draft").json()["code"] == "x = 3\n"
    assert fred.get("/api/problems/gqa/draft").json()["version"] == "absent"  # one student's draft is theirs
    assert erin.get("/api/problems/gqa/source").json()["source"] == "x = 3\n"  # the page opens on it
    assert erin.get("/api/problems/nosuch/draft").status == 404


def test_a_contest_shows_a_hidden_tests_verdict_only_and_the_sample_in_full(klass):
    """A run that quotes its input in an exception: on the sample the student reads it, on a hidden
    test only the verdict and the test's number, in the API and on the page; the admin reads all."""
    dave = _as(klass, "dave")
    method = load("gqa").method
    quoting = (f"    def {method}(self, *args, **kwargs):\n"
               "        X = np.asarray(kwargs.get('X', args[0] if args else None))\n"
               "        if X.size > SAMPLE:\n"
               "            raise ValueError('QUO' + 'TED ' + repr(X.ravel()[:4].tolist()))\n"
               f"        return super().{method}(*args, **kwargs)\n")
    sample = json.loads((ROOT / "problems" / "gqa" / "tests" / "001-sample.json").read_text())["input"]["X"]
    wrong_on_hidden = (solution("gqa", "accepted") + f"\n\nSAMPLE = {np.asarray(sample).size}\n"
                       "Passing = Solution\n\n\nclass Solution(Passing):\n" + quoting)
    sample_too = wrong_on_hidden.replace("SAMPLE = ", "SAMPLE = -1 + 0 * ")
    for code, first_hidden in ((wrong_on_hidden, True), (sample_too, False)):
        made = dave.submit("gqa", code)
        assert made.status == 201, made.text
        seen = dave.wait_done(made.json()["id"])
        hidden = [t for t in seen["tests"] if not t["name"].endswith("-sample")]
        assert seen["verdict"] == "RE" and seen["tests"][0]["name"].endswith("-sample")
        assert all(t["message"] == "" and t["verdict"] for t in hidden)
        page = dave.get(f"/submissions/{made.json()['id']}").text
        full = _as(klass, "teach").get(f"/api/submissions/{made.json()['id']}").json()
        assert any("QUOTED" in t["message"] for t in full["tests"])  # the admin reads all
        if first_hidden:
            assert seen["tests"][0]["verdict"] == "AC" and hidden[-1]["verdict"] == "RE"
            number = len(seen["tests"])
            assert seen["message"] == f"RE on hidden test {number}: a contest shows a hidden test's verdict only"
            assert "QUOTED" not in json.dumps(seen) and "QUOTED" not in page
        else:  # the sample's input is in the statement: shown in full
            assert "QUOTED" in seen["tests"][0]["message"] and "QUOTED" in seen["message"] and "QUOTED" in page


def _failing_on(size: int) -> str:
    """gqa's accepted solution that prints on every test and raises, quoting its input, on the
    test whose X has `size` elements (gqa's 002 has 6, 003 has 24, the sample 8)."""
    method = load("gqa").method
    return (solution("gqa", "accepted") + f"\n\nPassing = Solution\n\n\nclass Solution(Passing):\n"
            f"    def {method}(self, *args, **kwargs):\n"
            "        X = np.asarray(kwargs.get('X', args[0] if args else None))\n"
            "        print('PRINTED', X.size)\n"
            f"        if X.size == {size}:\n"
            "            raise ValueError('QUO' + 'TED ' + repr(X.ravel()[:4].tolist()))\n"
            f"        return super().{method}(*args, **kwargs)\n")


def test_a_contest_shows_the_visible_tests_in_full_and_a_hidden_one_not(klass):
    """class.toml's visible_tests: 002 is shown as the sample is (message, what it printed, the
    traceback); 003 stays hidden (its verdict and number only), in the API and on the page."""
    folder, server, _ = klass
    contest = (folder / "class.toml").read_text()
    (folder / "class.toml").write_text(contest + 'visible_tests = ["gqa/002-*"]\n')
    gina = _as(klass, "gina")
    try:
        on_visible = gina.wait_done(gina.submit("gqa", _failing_on(6)).json()["id"])
        names = [t["name"] for t in on_visible["tests"]]
        assert names[-1].startswith("002-") and on_visible["verdict"] == "RE"
        shown = on_visible["tests"][-1]
        assert "QUOTED [" in shown["message"] and "QUOTED [" in on_visible["message"] and "hidden" not in shown
        assert shown["output"] == "PRINTED 6\n" and shown["output_size"] == 10
        assert shown["traceback"].startswith('  File "submission.py", line ')
        assert "raise ValueError(" in shown["traceback"]
        assert 'class="traceback"' in gina.get(f"/submissions/{on_visible['id']}").text
        assert "sandbox" not in shown["traceback"] and "grading" not in shown["traceback"]  # the student's lines only
        on_hidden = gina.wait_done(gina.submit("gqa", _failing_on(24)).json()["id"])
        sample, visible, hidden = on_hidden["tests"]
        assert [t["verdict"] for t in on_hidden["tests"]] == ["AC", "AC", "RE"]
        assert sample["output"] == "PRINTED 8\n" and visible["output"] == "PRINTED 6\n"
        assert hidden == {"name": hidden["name"], "verdict": "RE", "time_ms": hidden["time_ms"],
                          "memory_mb": hidden["memory_mb"], "message": "", "hidden": True}
        assert on_hidden["message"] == "RE on hidden test 3: a contest shows a hidden test's verdict only"
        assert on_hidden["hidden_failure"] == 3 and "hidden_failure" not in on_visible
        said = gina.get(f"/submissions/{on_hidden['id']}?lang=zh").text
        assert "隐藏测试点 3 的结果为 RE：比赛中隐藏测试点只显示结果" in said and "QUOTED" not in said
        gina.get("/?lang=en")
        page = gina.get(f"/submissions/{on_hidden['id']}").text
        assert "PRINTED 6" in page and "QUOTED" not in page and "PRINTED 24" not in page
        assert "hidden test: its verdict only" in page
        full = _as(klass, "teach").get(f"/api/submissions/{on_hidden['id']}").json()
        assert full["tests"][2]["output"] == "PRINTED 24\n" and "QUOTED" in full["tests"][2]["message"]
        assert "raise ValueError(" in full["tests"][2]["traceback"] and 'class="traceback"' not in page
        assert "QUOTED" in _as(klass, "teach").get(f"/submissions/{on_hidden['id']}").text  # the admin reads all
    finally:
        (folder / "class.toml").write_text(contest)


def test_a_class_shows_what_each_test_printed_and_keeps_it_bounded(klass):
    """In class mode (full feedback) every test's stdout/stderr and traceback come back; a run
    that prints without end is kept cut: per test and per submission (classroom/console.py)."""
    from classroom.console import CUT, OUTPUT_CHARS, SUBMISSION_CHARS

    folder, server, _ = klass
    contest = (folder / "class.toml").read_text()
    (folder / "class.toml").write_text('title = "Test class"\nmode = "class"\n')
    hank = _as(klass, "hank")
    try:
        on_hidden = hank.wait_done(hank.submit("gqa", _failing_on(24)).json()["id"])
        assert [t["output"] for t in on_hidden["tests"]] == ["PRINTED 8\n", "PRINTED 6\n", "PRINTED 24\n"]
        assert "raise ValueError(" in on_hidden["tests"][2]["traceback"] and "QUOTED" in on_hidden["message"]
        method = load("gqa").method
        loud = (solution("gqa", "accepted") + "\n\nQuiet = Solution\n\n\nclass Solution(Quiet):\n"
                f"    def {method}(self, *args, **kwargs):\n        print('y' * 50000)\n"
                f"        return super().{method}(*args, **kwargs)\n")
        done = hank.wait_done(hank.submit("gqa", loud).json()["id"])
        assert done["verdict"] == "AC" and all(t["output_size"] == 50001 for t in done["tests"])
        kept = [len(t["output"]) for t in done["tests"]]
        assert kept[0] == OUTPUT_CHARS + len(CUT) and sum(kept) <= SUBMISSION_CHARS + len(CUT)
        assert kept[-1] == 0 and len(kept) == len(load("gqa").test_files())  # over the whole's bound: dropped
    finally:
        (folder / "class.toml").write_text(contest)


def test_stored_output_is_bounded_whatever_a_worker_sends():
    from classroom.console import CUT, OUTPUT_CHARS, SUBMISSION_CHARS, TRACEBACK_CHARS, bounded

    tests = [{"name": f"{i:03d}", "verdict": "AC", "output": "x" * 9000, "output_size": 9000,
              "traceback": "t" * 9000} for i in range(10)]
    kept = bounded([*tests, "not a test", {"name": "odd", "output": 5, "output_size": -3}])
    assert [len(t["output"]) for t in kept[:4]] == [OUTPUT_CHARS + len(CUT)] * 4
    assert [len(t["traceback"]) for t in kept[:3]] == [TRACEBACK_CHARS + len(CUT)] * 3
    assert sum(len(t["output"]) + len(t.get("traceback", "")) for t in kept) <= SUBMISSION_CHARS + len(CUT)
    assert kept[-1] == {"name": "odd", "output": "", "output_size": 0} and len(kept) == 11
    assert bounded({"tests": 1}) == []


def test_a_bad_visible_tests_stops_the_server_with_one_line(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for value, said in (('["gqa/9*"]', "visible_tests: 'gqa/9*' names no test of this class's problems"),
                        ('["gqa"]', "visible_tests: 'gqa' is not \"<problem>/<test>\""),
                        ('"gqa/*"', "visible_tests: a list of globs")):
        (folder / "class.toml").write_text(f"visible_tests = {value}\n")
        done = subprocess.run(judge_command("serve", "--class", str(folder), "--port", "1"), cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        lines = [line for line in done.stderr.splitlines() if not line.startswith("note:")]
        assert done.returncode != 0 and len(lines) == 1 and said in lines[0], done.stderr
