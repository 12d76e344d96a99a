"""The class server against a hostile student and a shared machine (issue 38), through its real
entry points: `class add-users`, `serve --class` on a free port, every request real HTTP on
loopback (another loopback address, 127.0.0.2 and up, is another client)."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

import pytest
from class_server import CE_CODE, Client, Server, add_users, class_folder, remove, solution, token
from helpers import ROOT, judge_command

USERS = ["amy,amy@example.org", "ben,ben@example.org", "cat,cat@example.org", "dan,dan@example.org",
         "eve,eve@example.org", "fay,fay@example.org", "gus,gus@example.org", "hal,hal@example.org",
         "ivy,ivy@example.org", "jon,jon@example.org", "boss,boss@example.org,admin"]


def _stamp(seconds_from_now: float) -> str:
    return dt.datetime.fromtimestamp(time.time() + seconds_from_now, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def configure(folder: Path, extra: str = "") -> None:
    """class.toml replaced in one step (a new file: the server sees the change at once)."""
    text = (f'title = "Hardening"\nmode = "contest"\nstart = {_stamp(-600)}\nend = {_stamp(7200)}\n'
            f"submissions_per_minute = 30\n{extra}")
    temporary = folder / "class.toml.new"
    temporary.write_text(text)
    temporary.replace(folder / "class.toml")


@pytest.fixture(scope="module")
def klass():
    folder = class_folder("judge-class-hard-")
    folder.mkdir(parents=True)
    folder.chmod(0o755)  # as mkdir leaves it under a usual umask: add-users narrows it
    configure(folder)
    passwords = add_users(folder, USERS)
    server = Server(folder, "--workers", "1", "--allow-host", "class.example.edu")
    try:
        yield folder, server, passwords
    finally:
        server.stop()
        remove(folder)


def _as(klass, name: str) -> Client:
    folder, server, _ = klass
    return Client(server.base, bearer=token(folder, name))


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- files: 0700 and 0600 ----------------------------------------------------------------------------
def test_the_class_folder_and_its_store_are_private(klass):
    folder, server, _ = klass
    amy = _as(klass, "amy")
    amy.wait_done(amy.submit("causal", CE_CODE).json()["id"])
    assert _mode(folder) == 0o700
    files = {p.name: _mode(p) for p in folder.iterdir() if p.name.startswith("class.sqlite")}
    assert files == {"class.sqlite": 0o600, "class.sqlite-wal": 0o600, "class.sqlite-shm": 0o600}


def test_an_existing_wider_folder_is_narrowed_with_a_line_saying_so(tmp_path):
    folder = tmp_path / "old-class"
    add_users(folder, ["ann,ann@example.org"])
    folder.chmod(0o755)
    (folder / "class.sqlite").chmod(0o644)
    csv = tmp_path / "more.csv"
    csv.write_text("bea,bea@example.org\n")
    done = subprocess.run(judge_command("class", "add-users", str(folder), str(csv)), cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[:2] == [
        f"note: {folder}: narrowed from 0755 to 0700 (the class's code and accounts)",
        f"note: {folder}/class.sqlite: narrowed from 0644 to 0600"]
    assert (_mode(folder), _mode(folder / "class.sqlite")) == (0o700, 0o600)
    again = subprocess.run(judge_command("class", "add-users", str(folder), str(csv)), cwd=ROOT, capture_output=True,
                           text=True)
    assert "narrowed" not in again.stderr  # said once, when it was done


# -- the freeze reaches the statistics -------------------------------------------------------------------
def _row(rows: list[dict], slug: str) -> tuple:
    found = next(r for r in rows if r["slug"] == slug)
    return found["tried"], found["accepted"], found["solve_rate"]


def test_statistics_are_frozen_with_the_scoreboard(klass):
    folder, server, passwords = klass
    ben, cat, boss = _as(klass, "ben"), _as(klass, "cat"), _as(klass, "boss")
    assert ben.wait_done(ben.submit("mha", solution("mha", "wrong_answer")).json()["id"])["verdict"] == "WA"
    time.sleep(1.1)  # the freeze starts on a whole second after ben's submission
    configure(folder, "freeze_minutes = 120\n")  # end - 120 min: the freeze starts now
    time.sleep(1.1)
    made = cat.submit("mha", solution("mha", "accepted")).json()["id"]
    assert cat.wait_done(made)["verdict"] == "AC"
    try:
        assert _row(boss.get("/api/problems").json(), "mha") == (2, 1, 0.5)  # an admin sees the live figures
        for student in (ben, cat):  # as of the freeze's start: cat's AC is behind the board's "?"
            assert _row(student.get("/api/problems").json(), "mha") == (1, 0, 0.0)
        assert next(r for r in cat.get("/api/problems").json() if r["slug"] == "mha")["you"] == "solved"
        board = ben.get("/api/scoreboard").json()
        assert board["frozen"] and next(r for r in board["rows"] if r["user"] == "cat")["solved"] == 0
        page = Client(server.base)
        page.sign_in("ben", passwords["ben"])
        row = re.search(r'href="/problems/mha">.*?</tr>', page.get("/").text, re.S).group(0)
        assert re.findall(r'<td class="num">([^<]*)</td>', row) == ["1", "0", "0%"]
    finally:
        configure(folder)


# -- sign-in: throttled, never a lock-out --------------------------------------------------------------
def _fail_until_waiting(client: Client, name: str, wait_at_least: int) -> dict:
    """Wrong passwords (waiting whenever told to) until the account's wait is at least this long."""
    for _ in range(40):
        answer = client.post_json("/api/signin", {"login": name, "password": "wrong password"})
        if answer.status == 429:
            seconds = int(answer.headers["Retry-After"])
            assert answer.json() == {"error": f"too many failed sign-ins: try again in {seconds} s"}
            if seconds >= wait_at_least:
                return {"retry_after": seconds}
            time.sleep(seconds)
        else:
            assert (answer.status, answer.json()) == (401, {"error": "wrong name or password"})
    raise AssertionError("the throttle never said wait")


def test_sign_in_is_throttled_per_account_and_a_correct_password_elsewhere_gets_in(klass):
    _, server, passwords = klass
    guesser = Client(server.base, source="127.0.0.2")
    for login in ["dan", "dan@example.org"] * 2 + ["dan"]:  # five wrong in a row, by name or email: each checked
        answer = guesser.post_json("/api/signin", {"login": login, "password": "wrong password"})
        assert answer.status == 401
    waited = _fail_until_waiting(guesser, "dan", 4)
    assert 4 <= waited["retry_after"] <= 60
    for login in ("dan", "dan@example.org"):  # told to wait: not even the right password is checked from there
        refused = guesser.post_json("/api/signin", {"login": login, "password": passwords["dan"]})
        assert refused.status == 429, login
    form = guesser.request("POST", "/signin", f"login=dan&password={passwords['dan']}".encode(),
                           {"Content-Type": "application/x-www-form-urlencoded", "Origin": server.base})
    assert form.status == 429 and "too many failed sign-ins" in form.text and form.headers["Retry-After"]
    dan = Client(server.base, source="127.0.0.3")  # dan, from where nobody failed: in at once
    assert dan.sign_in("dan", passwords["dan"]).status == 200
    assert dan.get("/api/me").json()["user"] == "dan"


def test_guessing_many_accounts_from_one_address_waits_too(klass):
    _, server, passwords = klass
    sprayer = Client(server.base, source="127.0.0.4")
    answers = [sprayer.post_json("/api/signin", {"login": f"nobody{i}", "password": "x"}).status for i in range(20)]
    assert answers == [401] * 20
    waiting = sprayer.post_json("/api/signin", {"login": "eve", "password": passwords["eve"]})
    assert waiting.status == 429 and 1 <= int(waiting.headers["Retry-After"]) <= 60
    assert Client(server.base, source="127.0.0.5").sign_in("eve", passwords["eve"]).status == 200


def test_the_throttles_waits_grow_and_stop_at_a_minute():
    """The figures docs/classroom.md states, on a clock of the test's own (a minute's wait is not
    waited out here)."""
    from classroom.throttle import ACCOUNT_FREE, ADDRESS_FREE, MAX_DELAY_S, WINDOW_S, Throttle

    now = [1000.0]
    throttle = Throttle(clock=lambda: now[0])
    waits = []
    for _ in range(14):
        wait = throttle.begin("Admin", "10.0.0.1")
        if wait:
            now[0] += wait
            assert throttle.begin("admin", "10.0.0.1") == 0
        throttle.end("admin", "10.0.0.1", False)
        waits.append(wait)
    assert (ACCOUNT_FREE, ADDRESS_FREE, MAX_DELAY_S, WINDOW_S) == (5, 20, 60.0, 900.0)
    assert waits == [0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 60, 60, 60]  # capped: an admin is never locked out
    assert throttle.begin("admin", "10.0.0.9") == 0  # from elsewhere: checked at once
    throttle.end("admin", "10.0.0.9", True)  # in: the run of failures ends
    assert throttle.begin("admin", "10.0.0.1") == 0
    throttle.end("admin", "10.0.0.1", True)
    now[0] += WINDOW_S + 1
    assert throttle.begin("bob", "10.0.0.1") == 0  # the address's failures are forgotten after the window


# -- sessions, hosts, caching, the live problem list ------------------------------------------------
def test_a_password_change_ends_every_other_session_and_replaces_the_token(klass):
    folder, server, passwords = klass
    first, second = Client(server.base), Client(server.base)
    assert first.sign_in("fay", passwords["fay"]).status == 200
    assert second.sign_in("fay", passwords["fay"]).status == 200
    old_token = token(folder, "fay")
    assert Client(server.base, bearer=old_token).get("/api/me").status == 200
    new = "a new password 123"
    page = first.request("POST", "/account/password", f"csrf={first.csrf}&old={passwords['fay']}&new={new}".encode(),
                         {"Content-Type": "application/x-www-form-urlencoded", "Origin": server.base})
    assert page.status == 200 and "1 other session(s) signed out, the API token replaced" in page.text
    shown = re.search(r'<pre class="code">(cj_[^<]+)</pre>', page.text).group(1)
    assert first.get("/api/me").status == 200  # the session that changed it stays
    assert second.get("/api/me").status == 401
    assert Client(server.base, bearer=old_token).get("/api/me").status == 401
    assert Client(server.base, bearer=shown).get("/api/me").json()["user"] == "fay"
    assert Client(server.base).sign_in("fay", passwords["fay"]).status == 401
    assert Client(server.base).sign_in("fay", new).status == 200


@pytest.mark.parametrize("host, status", [
    ("{here}", 200), ("localhost:{port}", 200), ("class.example.edu", 200), ("class.example.edu:{port}", 200),
    ("evil.example:{port}", 421), ("127.0.0.1:1", 421), ("class.example.edu.evil.example", 421), ("", 421)])
def test_only_the_classs_host_names_are_answered(klass, host, status):
    _, server, _ = klass
    host = host.format(here=server.base.split("//")[1], port=server.port)
    amy = _as(klass, "amy")
    answer = amy.request("GET", "/api/me", headers={"Host": host})
    assert answer.status == status, (host, answer.text)
    if status == 421:
        assert answer.json() == {"error": f"this server does not answer for the host {host!r} (class.toml's hosts, "
                                          "or serve --allow-host, names more)"}
        assert answer.headers["Cache-Control"] == "no-store"
        assert Client(server.base).request("GET", "/signin", headers={"Host": host}).status == 421


def test_class_toml_names_more_hosts_while_the_server_runs(klass):
    folder, server, _ = klass
    amy = _as(klass, "amy")
    assert amy.request("GET", "/api/me", headers={"Host": "judge.example.org"}).status == 421
    configure(folder, 'hosts = ["judge.example.org"]\n')
    try:
        assert amy.request("GET", "/api/me", headers={"Host": "judge.example.org"}).status == 200
    finally:
        configure(folder)


def test_no_answer_with_code_or_results_is_cached(klass):
    _, server, passwords = klass
    gus = Client(server.base)
    gus.sign_in("gus", passwords["gus"])
    made = gus.change("/api/submissions", {"problem": "masked", "code": CE_CODE})
    assert made.headers["Cache-Control"] == "no-store"
    sid = made.json()["id"]
    gus.wait_done(sid)
    for path in ["/", "/problems/gqa", "/submissions", f"/submissions/{sid}", "/scoreboard", "/account", "/signin",
                 "/api/me", "/api/problems", "/api/submissions", f"/api/submissions/{sid}", "/api/scoreboard",
                 "/api/submissions/999999", "/no/such/page"]:
        assert gus.get(path).headers["Cache-Control"] == "no-store", path
    assert gus.post_json("/api/signin", {"login": "gus", "password": passwords["gus"]},
                         {"Origin": server.base}).headers["Cache-Control"] == "no-store"
    assert gus.get("/static/class.css").headers.get("Cache-Control") != "no-store"  # no code in a style sheet


def test_a_problem_removed_from_class_toml_takes_no_submissions(klass):
    folder, _, _ = klass
    hal = _as(klass, "hal")
    configure(folder, 'problems = ["mha", "gqa"]\n')
    try:
        refused = hal.submit("mqa", CE_CODE)
        assert (refused.status, refused.json()) == (404, {"error": "no problem 'mqa' in this class"})
        assert [p["slug"] for p in hal.get("/api/problems").json()] == ["mha", "gqa"]
        assert list(hal.get("/api/scoreboard").json()["problems"]) == ["mha", "gqa"]
    finally:
        configure(folder)
    made = hal.submit("mqa", CE_CODE)  # back in the list: taken again
    assert made.status == 201
    hal.wait_done(made.json()["id"])


# -- malformed requests: a 4xx with {"error"} ------------------------------------------------------------
def test_every_malformed_request_is_a_4xx_with_an_error(klass):
    _, server, passwords = klass
    ivy = _as(klass, "ivy")
    raw = lambda client, path, body, headers=None: client.request(  # noqa: E731
        "POST", path, body, {"Content-Type": "application/json", **(headers or {})})
    surrogate_code = raw(ivy, "/api/submissions", b'{"problem": "gqa", "code": "x = \\"\\ud800\\"\\n"}')
    assert (surrogate_code.status, surrogate_code.json()) == (400, {"error": "the code is not valid text "
                                                                              "(a lone surrogate)"})
    anonymous = Client(server.base, source="127.0.0.6")
    surrogate_name = raw(anonymous, "/api/signin", b'{"login": "iv\\udfffy", "password": "x"}')
    assert (surrogate_name.status, surrogate_name.json()) == (400, {"error": "the name is not valid text "
                                                                              "(a lone surrogate)"})
    surrogate_password = raw(anonymous, "/api/signin", b'{"login": "ivy", "password": "\\ud800"}')
    assert surrogate_password.status == 400
    deep = b"[" * 100_000 + b"]" * 100_000
    for path, client, wanted in (("/api/submissions", ivy, '{"problem": slug, "code": text}'),
                                 ("/api/signin", anonymous, '{"login": name or email, "password": ...}')):
        answer = raw(client, path, deep)
        assert (answer.status, answer.json()) == (400, {"error": f"send JSON: {wanted}"}), path
        nested = raw(client, path, b'{"login": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
        assert nested.status == 400 and "error" in nested.json()
    foreign = raw(anonymous, "/api/signin", json.dumps({"login": "ivy", "password": passwords["ivy"]}).encode(),
                  {"Origin": "http://evil.example"})
    assert (foreign.status, foreign.json()) == (403, {"error": "refused: a change must come from this site "
                                                               "(Origin 'http://evil.example')"})
    assert raw(anonymous, "/api/signin", b'"just a string"').status == 400
    assert ivy.get("/api/submissions?before=abc").json() == {"error": "before='abc': a submission id"}
    for odd in ("99999999999999999999999", "%C2%B2", "-1"):  # past SQLite's integers, a digit str.isdigit takes
        assert ivy.get(f"/api/submissions/{odd}").status == 404, odd
        assert ivy.get(f"/api/submissions?before={odd}").status == 400, odd
    boss = _as(klass, "boss")
    assert boss.post_json("/api/submissions/99999999999999999999999/rejudge", {}).status == 404


# -- quota and paging --------------------------------------------------------------------------------
def test_a_student_over_the_store_quota_is_told_so(klass):
    folder, _, _ = klass
    jon = _as(klass, "jon")
    big = CE_CODE + "#" * (400 << 10) + "\n"  # 400 KiB, a compile error
    configure(folder, "store_quota_mib = 1\n")
    try:
        made = [jon.submit(slug, big) for slug in ("causal", "gqa", "masked")]
        assert [m.status for m in made] == [201, 201, 413]
        stored = 2 * len(big.encode())
        assert made[2].json() == {"error": f"your stored code would be {stored + len(big.encode())} bytes, over the "
                                           "quota of 1 MiB per student: ask the class's admin"}
        configure(folder, "store_mib_per_hour = 1\n")
        hourly = jon.submit("masked", big)
        assert (hourly.status, hourly.json()) == (429, {"error": f"at most 1 MiB of code an hour per student "
                                                                 f"({stored} bytes in the last hour): wait a while"})
        for m in made[:2]:
            jon.wait_done(m.json()["id"])
    finally:
        configure(folder)


def test_the_submission_list_pages_by_id(klass):
    folder, server, _ = klass
    boss = _as(klass, "boss")
    user = sqlite3.connect(folder / "class.sqlite").execute("SELECT id FROM users WHERE name = 'boss'").fetchone()[0]
    with sqlite3.connect(folder / "class.sqlite") as db:  # 620 judged submissions, as a long class leaves
        db.executemany("INSERT INTO submissions (user_id, problem, code, created, status, verdict) "
                       "VALUES (?, 'window', 'x = 1', ?, 'done', 'CE')", [(user, time.time())] * 620)
    first = boss.get("/api/submissions?user=boss")
    rows = first.json()
    assert len(rows) == 500 and [r["id"] for r in rows] == sorted((r["id"] for r in rows), reverse=True)
    assert first.headers["Link"] == f'</api/submissions?user=boss&before={rows[-1]["id"]}>; rel="next"'
    second = boss.get(f"/api/submissions?user=boss&before={rows[-1]['id']}")
    more = second.json()
    assert len(more) == 120 and more[0]["id"] < rows[-1]["id"] and "Link" not in second.headers
    assert {r["id"] for r in rows}.isdisjoint(r["id"] for r in more)


def test_a_user_cannot_read_the_folder_as_another_local_account(klass):
    """As root, the folder's modes are checked by what an unprivileged account can do."""
    folder, _, _ = klass
    if os.geteuid() != 0:
        pytest.skip("running as another account needs root")
    done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "cat",
                           str(folder / "class.sqlite")], capture_output=True)
    assert done.returncode != 0 and b"Permission denied" in done.stderr
