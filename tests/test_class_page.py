"""The class student's problem page in a real headless Chromium (issue 37): the practice page's own
front end (serving/templates/problem.html, serving/static/page.js) over the class's store, in a
class (mode "class") and in a running contest (mode "contest"; class.toml is rewritten between
tests, and the server reads it again). The starter on first open, the code kept on the server as
they type (and a second tab's save a conflict, never overwritten), Run on the sample and on an own
input with the console, hints as class.toml allows, Submit followed on the page to its verdict, a
contest's hidden test shown by its verdict and number only, the history with code and diff, the
editorial as class.toml allows, the labels in Chinese; and the class's list, sign-in and store."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import time

import pytest
from class_server import Client, Server, add_users, class_folder, remove, solution, token
from helpers import ROOT
from test_browser import SHOTS, browser, csp_violations, wait_for, wait_until  # noqa: F401  # the fixture

from problems import load

pytestmark = pytest.mark.slow  # a real Chromium and class server: seconds per page

METHOD = load("gqa").method
SAMPLE = json.loads((ROOT / "problems" / "gqa" / "tests" / "001-sample.json").read_text())["input"]
PRINTS_WRONG = (solution("gqa", "wrong_answer") + "\n\nWrong = Solution\n\n\nclass Solution(Wrong):\n"
                f"    def {METHOD}(self, *args, **kwargs):\n        print('hello from my code')\n"
                f"        return super().{METHOD}(*args, **kwargs)\n")
ACCEPTED = solution("gqa", "accepted")
# Right on the sample, and on any other test an exception that quotes the test's input.
LEAKS = (ACCEPTED + "\n\nRight = Solution\n\n\nclass Solution(Right):\n"
         f"    def {METHOD}(self, X, *args, **kwargs):\n        if len(X) != {len(SAMPLE['X'])}:\n"
         "            raise ValueError(f'secret input {X[0][0]!r}')\n"
         f"        return super().{METHOD}(X, *args, **kwargs)\n")


def contest_toml(**more: object) -> str:
    end = dt.datetime.fromtimestamp(time.time() + 7200, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (f'title = "Page class"\nmode = "contest"\nstart = 2026-01-01T00:00:00Z\nend = {end}\n'
            + "".join(f"{k} = {v}\n" for k, v in more.items()))


def class_toml(**more: object) -> str:
    return 'title = "Page class"\nmode = "class"\n' + "".join(f"{k} = {v}\n" for k, v in more.items())


@pytest.fixture(scope="module")
def klass():
    folder = class_folder("judge-class-page-")
    folder.mkdir(parents=True)
    (folder / "class.toml").write_text(contest_toml())
    passwords = add_users(folder, ["amy,amy@example.org", "tom,tom@example.org,admin", "ivy,ivy@example.org",
                                   "zoe,zoe@example.org", "max,max@example.org"])
    server = Server(folder)
    try:
        yield server, passwords, folder
    finally:
        server.stop()
        remove(folder)


def settings(folder, text: str) -> None:
    """class.toml rewritten: the server reads it again at the next request (its mtime changed)."""
    (folder / "class.toml").write_text(text)
    time.sleep(0.05)


def sign_in(browser, server, password: str, target: str, name: str = "amy") -> None:  # noqa: F811
    browser.delete_all_cookies()
    browser.get(f"{server.base}{target}")
    wait_for(browser, "input[name=login]").send_keys(name)
    browser.find_element("css selector", "input[name=password]").send_keys(password)
    browser.find_element("css selector", "form.stack button").click()
    wait_until(lambda: browser.current_url == f"{server.base}{target}", what="back on the page after signing in")


def editor_text(browser) -> str:  # noqa: F811
    wait_until(lambda: browser.execute_script("return !!window.judgeEditor && window.judgeEditor.getValue() !== ''"),
               what="the editor's text")
    return browser.execute_script("return window.judgeEditor.getValue()")


def type_in(browser, source: str) -> None:  # noqa: F811
    """Replace the editor's text, then wait for its save on the server."""
    browser.execute_script("window.judgeEditor.setValue(arguments[0])", source)
    wait_until(lambda: browser.find_element("id", "saved").text.startswith("saved ("), what="the save")


def press(browser, button: str) -> None:  # noqa: F811
    """Click a judging's button, the last result cleared first (so the next verdict is the new one's)."""
    browser.execute_script("document.getElementById('result').innerHTML = ''")
    browser.find_element("id", button).click()


def verdict(browser, text: str, timeout: float = 120) -> str:  # noqa: F811
    return " ".join(wait_for(browser, "#verdict", text, timeout).text.split())


def test_the_starter_the_code_kept_by_version_and_a_second_tabs_save_never_overwritten(klass, browser):  # noqa: F811
    server, passwords, folder = klass
    settings(folder, class_toml())
    sign_in(browser, server, passwords["ivy"], "/problems/gqa", name="ivy")
    assert "class Solution:" in editor_text(browser) and f"def {METHOD}(" in editor_text(browser)  # the starter
    assert browser.find_element("id", "saved").text == "the starter"
    pane = browser.find_element("id", "statement-pane")
    browser.execute_script("arguments[0].scrollTop = 3000", pane)  # the statement scrolls; the editor and Submit stay
    assert browser.execute_script("return arguments[0].scrollTop", pane) > 500
    for button in ("run", "submit"):
        rect = browser.find_element("id", button).rect
        assert 0 < rect["y"] < browser.execute_script("return window.innerHeight") - rect["height"]
    assert browser.find_elements("css selector", ".CodeMirror-wrap")  # long lines wrap
    assert browser.find_element("css selector", ".CodeMirror").size["height"] >= 400  # the column, not 300 px
    type_in(browser, "import numpy as np\n\n# mine, kept\n")
    browser.refresh()
    assert editor_text(browser) == "import numpy as np\n\n# mine, kept\n"
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(f"{server.base}/problems/gqa")
    assert editor_text(browser) == "import numpy as np\n\n# mine, kept\n"
    second = browser.current_window_handle
    type_in(browser, "# from the second tab\n")
    browser.switch_to.window(first)  # unchanged since: coming back, it takes the second tab's code
    browser.execute_script("window.dispatchEvent(new Event('focus'))")
    wait_until(lambda: editor_text(browser) == "# from the second tab\n", what="the first tab picks it up")
    ivy = Client(server.base, bearer=token(folder, "ivy"))  # another client saves while this tab stays in front
    version = ivy.get("/api/problems/gqa/draft").json()["version"]
    assert ivy.request("PUT", "/api/problems/gqa/draft", b"# the second tab again\n",
                       {"If-Match": f'"{version}"'}).status == 200
    browser.execute_script("window.judgeEditor.replaceRange('x', {line: 0, ch: 0})")  # stale: refused and said
    wait_for(browser, "#conflict", "saved in another tab")
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "class-conflict.png"))
    assert ivy.get("/api/problems/gqa/draft").json()["code"] == "# the second tab again\n"  # nothing overwritten
    browser.find_element("id", "conflict-reload").click()
    assert editor_text(browser) == "# the second tab again\n"
    assert not browser.find_element("id", "conflict").is_displayed()
    browser.switch_to.window(second)
    browser.close()
    browser.switch_to.window(first)
    assert csp_violations(browser) == []  # the class's CSP allows the shared page as it is


def test_run_on_the_sample_and_an_own_input_with_the_console_is_no_submission(klass, browser):  # noqa: F811
    server, passwords, folder = klass
    settings(folder, class_toml(runs_per_minute=3))
    amy = Client(server.base, bearer=token(folder, "amy"))
    before = amy.get("/api/submissions").json()
    sign_in(browser, server, passwords["amy"], "/problems/gqa")
    editor_text(browser)
    type_in(browser, PRINTS_WRONG)
    press(browser, "run")
    assert verdict(browser, "on the sample") == "WA Wrong Answer on the sample"
    assert browser.find_element("css selector", ".console pre.stdout").text == "hello from my code"
    assert "first mismatch" in browser.find_element("css selector", "table.mismatch").text
    browser.find_element("id", "use-own").click()
    box = wait_for(browser, "#own-input")
    wait_until(lambda: box.get_attribute("value").strip(), what="the sample in the own-input box")
    assert json.loads(box.get_attribute("value")) == {"input": SAMPLE}
    press(browser, "run")
    assert verdict(browser, "on your input") == "WA Wrong Answer on your input"
    press(browser, "run")  # the third Run in a minute
    verdict(browser, "on your input")
    press(browser, "run")  # the fourth: refused
    wait_for(browser, "#banner", "at most 3 runs a minute")
    browser.find_element("id", "use-own").click()
    assert amy.get("/api/submissions").json() == before  # a Run is no submission and no attempt
    boss = Client(server.base, bearer=token(folder, "tom"))  # a script's Run sends its code and gets the report
    bad = boss.post_json("/api/problems/gqa/run", {"code": PRINTS_WRONG, "input": {"X": [[1.0]]}})
    assert (bad.status, bad.json()["error"]) == (400, "your input: input: missing argument 'W_Q' (and 10 more)")
    good = boss.post_json("/api/problems/gqa/run", {"code": PRINTS_WRONG, "input": None})
    assert (good.status, good.json()["verdict"], good.json()["test"]["output"]) == (200, "WA", "hello from my code\n")


def test_hints_on_in_a_class_and_refused_in_a_running_contest(klass, browser):  # noqa: F811
    server, passwords, folder = klass
    settings(folder, class_toml(runs_per_minute=20))
    sign_in(browser, server, passwords["zoe"], "/problems/gqa", name="zoe")
    editor_text(browser)
    type_in(browser, PRINTS_WRONG)
    press(browser, "hint")
    wait_for(browser, "#hintbox h4", "Hint (level 1)")
    assert "Your output goes wrong at step" in browser.find_element("id", "hintbox").text
    browser.find_element("id", "hint-more").click()
    wait_for(browser, "#hintbox h4", "Hint (level 2)")
    bug = solution("gqa", "wrong_answer").splitlines()[0].removeprefix("# WRONG: ").rstrip(".")
    assert f"The bug: {bug}" in browser.find_element("id", "hintbox").text
    assert browser.find_element("css selector", ".console pre.stdout").text == "hello from my code"
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.set_window_size(1400, 1240)  # the WA, the hint and the console in one picture
    try:
        browser.execute_script("document.getElementById('work-pane').scrollTop = "
                               "document.getElementById('result').offsetTop - 120")
        browser.save_screenshot(str(SHOTS / "class-wa-console-hint.png"))
    finally:
        browser.set_window_size(1400, 900)
    settings(folder, contest_toml())
    zoe = Client(server.base, bearer=token(folder, "zoe"))
    off = zoe.post_json("/api/problems/gqa/hint?level=1", None)
    assert (off.status, off.json()) == (403, {"error": "hints are off here (in a contest, until it ends)"})
    browser.refresh()
    editor_text(browser)
    assert not browser.find_element("id", "hint").is_displayed()
    assert not browser.find_element("css selector", 'button.rtab[data-pane="editorial"]').is_displayed()
    assert zoe.get("/api/problems/gqa/editorial").json()["open"] is False


def test_submit_followed_to_wa_then_ac_and_a_contests_hidden_test_by_its_verdict_only(klass, browser):  # noqa: F811
    server, passwords, folder = klass
    settings(folder, contest_toml())
    sign_in(browser, server, passwords["max"], "/problems/gqa", name="max")
    editor_text(browser)
    page = browser.current_url
    type_in(browser, LEAKS)
    press(browser, "submit")
    wait_for(browser, "#banner", "")  # queued, then judging, then the verdict, on this page
    said = verdict(browser, "tests passed")
    assert re.fullmatch(r"RE Runtime Error on test 002-edge 1/\d+ tests passed · slowest \d+ ms", said), said
    assert browser.current_url == page
    rows = browser.find_elements("css selector", "#rows tr.test-row")
    assert [r.find_elements("css selector", "td")[2].text for r in rows] == ["AC", "RE"]
    detail = browser.find_element("css selector", "#rows tr.failing + tr.detail")
    assert detail.text == "a hidden test: a contest shows its verdict and number only"  # no input, output, text
    assert "secret" not in browser.find_element("id", "result").text
    assert not detail.find_elements("css selector", "button.use-input")
    max_ = Client(server.base, bearer=token(folder, "max"))
    assert max_.get("/api/problems/gqa/sample?test=002-edge").status == 403  # nor its input through the API
    browser.save_screenshot(str(SHOTS / "class-contest-hidden-test.png"))
    type_in(browser, PRINTS_WRONG)
    press(browser, "submit")
    said = verdict(browser, "tests passed")
    assert said.startswith("WA Wrong Answer on test 001-sample 0/"), said  # the sample: shown in full
    assert "expected" in browser.find_element("css selector", "#rows tr.failing + tr.detail").text
    type_in(browser, ACCEPTED)
    press(browser, "submit")
    said = verdict(browser, "Accepted")
    total = len(load("gqa").test_files())
    assert said.startswith(f"AC Accepted {total}/{total} tests passed"), said
    assert len(browser.find_elements("css selector", "#rows tr.test-row")) == total
    mine = max_.get("/api/submissions").json()
    assert [s["verdict"] for s in mine] == ["AC", "WA", "RE"]  # three stored submissions, newest first
    browser.find_element("css selector", 'button.rtab[data-pane="history"]').click()
    lines = wait_for(browser, "#history tbody").find_elements("css selector", "tr.judging")
    assert [line.find_element("css selector", ".verdict").text for line in lines] == ["AC", "WA", "RE"]
    type_in(browser, ACCEPTED + "# and more\n")
    lines[1].click()
    wait_for(browser, "#judging-code .CodeMirror")
    browser.find_element("css selector", 'button.jtab[data-view="diff"]').click()
    diff = wait_for(browser, "#judging-diff").text.splitlines()
    assert diff[:2] == [f"--- submission {mine[1]['id']}", "+++ your code now"] and "+# and more" in diff
    browser.save_screenshot(str(SHOTS / "class-history-diff.png"))


def test_the_editorial_in_a_class_and_the_labels_in_chinese(klass, browser):  # noqa: F811
    from coach.editorial import accepted_solutions

    server, passwords, folder = klass
    settings(folder, class_toml())
    sign_in(browser, server, passwords["amy"], "/problems/gqa")
    editor_text(browser)
    browser.find_element("css selector", 'button.rtab[data-pane="editorial"]').click()
    wait_for(browser, "#editorial .solution .CodeMirror")
    names = [h.text for h in browser.find_elements("css selector", "#editorial .solution h4")]
    assert names == [s.name for s in accepted_solutions(load("gqa"))] and len(names) >= 2
    assert not browser.find_elements("id", "force")
    browser.find_element("css selector", 'button.lang[data-lang="zh"]').click()
    wait_for(browser, "#statement h2", "背景")
    try:
        labels = [browser.find_element("id", i).text for i in ("run", "submit", "hint")]
        assert labels == ["运行", "提交", "提示"]
        assert browser.find_element("css selector", 'button.rtab[data-pane="history"]').text == "历史"
        browser.get(f"{server.base}/problems/mha")  # the next problem opens in Chinese too
        wait_for(browser, "#statement h2", "背景")
        assert browser.find_element("id", "run").text == "运行"
    finally:
        browser.find_element("css selector", 'button.lang[data-lang="en"]').click()
    wait_for(browser, "#run", "Run")
    settings(folder, contest_toml())


def test_the_list_by_difficulty_with_linked_titles_time_left_and_a_confirmed_rejudge(klass, browser):  # noqa: F811
    from problems import all_problems
    from problems.package import by_difficulty

    server, passwords, folder = klass
    settings(folder, contest_toml())
    browser.delete_all_cookies()
    browser.get(f"{server.base}/signin")
    card = wait_for(browser, "section.signin")
    assert card.value_of_css_property("border-top-style") == "solid" and card.size["width"] < 500  # a card
    sign_in(browser, server, passwords["tom"], "/", name="tom")
    rows = browser.find_elements("css selector", "tbody tr")
    slugs = [r.find_element("css selector", "td a").text for r in rows]
    assert slugs == [p.slug for p in by_difficulty(list(all_problems()))]
    title = rows[0].find_elements("css selector", "td a")[1]
    assert title.get_attribute("href") == f"{server.base}/problems/{slugs[0]}"
    left = wait_for(browser, "#time-left").text
    assert re.fullmatch(r"[12]:[0-5][0-9]:[0-5][0-9]", left), left
    rows[0].find_element("css selector", "form[data-confirm] button").click()
    alert = browser.switch_to.alert
    assert alert.text == f"Rejudge every submission of {slugs[0]}?"
    alert.dismiss()  # nothing sent
    assert browser.current_url == f"{server.base}/"
    subprocess.run(["git", "init", "-q", str(folder.parent)], check=True)
    status = subprocess.run(["git", "-C", str(folder.parent), "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True).stdout
    assert "class.toml" in status and "class.sqlite" not in status  # the store stays out of a checkout


def test_the_page_api_asks_the_csrf_token_and_shows_a_student_only_their_own(klass):
    """The page's routes on the class's server: a change with the session cookie needs the CSRF
    token; another student's judging, run or submission answers as one that does not exist."""
    server, passwords, folder = klass
    settings(folder, class_toml(runs_per_minute=20))
    amy, ivy = Client(server.base), Client(server.base)
    assert amy.sign_in("amy", passwords["amy"]).status == ivy.sign_in("ivy", passwords["ivy"]).status == 200
    for method, path in (("POST", "run"), ("POST", "submit"), ("POST", "hint?level=1"), ("PUT", "source"),
                         ("POST", "source")):
        refused = amy.request(method, f"/api/problems/gqa/{path}", b"", {"Origin": amy.base})
        assert (refused.status, refused.json()["error"]) == (
            403, "refused: the CSRF token is missing or wrong (reload the page)"), path
    assert Client(server.base).get("/api/problems/gqa/source").status == 401
    run = amy.change("/api/problems/gqa/run", {"input": SAMPLE}).json()
    assert (run["kind"], run["input"]) == ("run", "your input")
    made = amy.submit("gqa", ACCEPTED).json()["id"]
    for path in (f"/api/jobs/s{made}", f"/api/jobs/s{made}/events", f"/api/jobs/{run['job']}",
                 f"/api/problems/gqa/history/{made}"):
        assert ivy.get(path).status == 404, path
    assert amy.wait_done(made)["verdict"] == "AC"
    events = amy.get(f"/api/jobs/s{made}/events").text  # followed again after the fact: its verdict at once
    assert events.startswith("event: done\n") and '"verdict": "AC"' in events
    assert ivy.get("/api/problems/gqa/history").json() == []


def test_a_reloaded_page_follows_its_submission_again_to_the_verdict(klass, browser):  # noqa: F811
    from helpers import slow_decoder

    server, passwords, folder = klass
    settings(folder, class_toml())
    sign_in(browser, server, passwords["amy"], "/problems/gqa_decode")
    editor_text(browser)
    type_in(browser, slow_decoder())  # seconds of CPU per test: still judging when the page comes back
    press(browser, "submit")
    wait_for(browser, "#banner", "judging")
    browser.refresh()
    wait_for(browser, "#banner", "it was running when this page loaded")
    assert not browser.find_element("id", "submit").is_enabled()
    total = len(load("gqa_decode").test_files())
    assert verdict(browser, "Accepted", timeout=600).startswith(f"AC Accepted {total}/{total} tests passed")
    assert browser.find_element("id", "submit").is_enabled()
