"""The class student's problem page in a real headless Chromium (issue 37): the practice page's own
front end (serving/templates/problem.html, serving/static/page.js) over the class's store, in a
class (mode "class") and in a running contest (mode "contest"; class.toml is rewritten between
tests, and the server reads it again). The starter on first open, the code kept on the server as
they type (and a second tab's save a conflict, never overwritten), Run on the sample and on an own
input with the console, hints as class.toml allows, Submit followed on the page to its verdict, a
contest's hidden test shown by its verdict and number only, the history with code and diff, the
editorial as class.toml allows, the labels in Chinese; and the class's list, sign-in and store, a
submission followed in place on its own page, what each test printed, and the pages in Chinese."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import time

import pytest
from class_server import Client, Server, add_users, class_folder, remove, solution, token
from helpers import ROOT
from test_browser import (  # noqa: F401  # the fixture
    SHOTS,
    browser,
    csp_violations,
    latin_words,
    own_input_on,
    wait_for,
    wait_until,
)

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
                                   "zoe,zoe@example.org", "max,max@example.org", "ben,ben@example.org",
                                   "liu,liu@example.org"])
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
    wait_until(lambda: browser.find_element("id", "saved").text.startswith(("saved (", "已保存（")), what="the save")


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
    fields = own_input_on(browser)  # the own-input editor, a field per argument, filled with the sample
    assert sorted(fields) == sorted(SAMPLE)
    press(browser, "run")
    assert verdict(browser, "on your input") == "WA Wrong Answer on your input"
    seen = browser.execute_script(  # the verdict in sight, not below the editor and the open own input
        "const v = document.getElementById('verdict').getBoundingClientRect(), "
        "p = document.getElementById('work-pane').getBoundingClientRect(); return [v.top, v.bottom, p.top, p.bottom]")
    assert seen[2] <= seen[0] and seen[1] <= seen[3], seen
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


def test_after_a_contest_ends_its_hints_open_and_run_while_submit_stays_closed(klass, browser):  # noqa: F811
    """The Hint button shown once a contest has ended is answered, not refused as "the contest is over"."""
    server, passwords, folder = klass
    ended = dt.datetime.fromtimestamp(time.time() - 60, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    settings(folder, 'title = "Page class"\nmode = "contest"\nstart = 2026-01-01T00:00:00Z\n'
                     f"end = {ended}\nruns_per_minute = 20\n")
    try:
        sign_in(browser, server, passwords["zoe"], "/problems/gqa", name="zoe")
        editor_text(browser)
        assert browser.find_element("id", "notice").text == "the contest is over"
        type_in(browser, PRINTS_WRONG + "# after the end\n")  # not zoe's draft already (a save to wait for)
        press(browser, "hint")
        wait_for(browser, "#hintbox h4", "Hint (level 1)")
        press(browser, "run")
        assert verdict(browser, "on the sample") == "WA Wrong Answer on the sample"
        zoe = Client(server.base, bearer=token(folder, "zoe"))
        refused = zoe.submit("gqa", ACCEPTED)
        assert (refused.status, refused.json()["error"]) == (403, "the contest is over")
    finally:
        settings(folder, contest_toml())


def test_a_narrow_window_wraps_the_header_by_whole_links(klass, browser):  # noqa: F811
    """At 420 px the class's header once broke 提交记录 and 退出登录 into a letter a line."""
    server, passwords, folder = klass
    settings(folder, contest_toml())
    sign_in(browser, server, passwords["liu"], "/", name="liu")
    browser.set_window_size(420, 900)
    try:
        for lang in ("zh", "en"):
            for path in ("/?lang=" + lang, "/problems/gqa"):
                browser.get(server.base + path)
                wait_for(browser, "header nav")
                lines = browser.execute_script(
                    "return [...document.querySelectorAll('header a, header button')].map((e) => "
                    "[e.textContent.trim(), e.getClientRects().length, e.getBoundingClientRect().height])")
                line = browser.execute_script("return parseFloat(getComputedStyle(document.querySelector("
                                              "'header a')).lineHeight) || 24")
                tall = [(text, rects, height) for text, rects, height in lines if rects != 1 or height > 2 * line]
                assert tall == [], (path, lang)
        browser.save_screenshot(str(SHOTS / "class-narrow-header.png"))
        browser.set_window_size(1400, 900)
        looks = []  # the header alike on the list and on the problem page (page.css styles its buttons)
        for path in ("/?lang=en", "/problems/gqa"):
            browser.get(server.base + path)
            wait_for(browser, "header nav")
            looks.append(browser.execute_script(
                "const b = document.querySelector('header button'), s = getComputedStyle(b); return "
                "[document.querySelector('header').getBoundingClientRect().height, b.getBoundingClientRect().height,"
                " s.backgroundColor, s.color, s.fontSize]"))
        assert looks[0] == looks[1], looks
    finally:
        browser.set_window_size(1400, 900)
        browser.get(server.base + "/?lang=en")


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


def test_a_class_run_in_chinese_says_its_wrong_answer_and_hints_in_chinese(klass, browser):  # noqa: F811
    server, passwords, folder = klass
    settings(folder, class_toml(runs_per_minute=20))
    sign_in(browser, server, passwords["zoe"], "/problems/gqa", name="zoe")
    editor_text(browser)
    browser.find_element("css selector", 'button.lang[data-lang="zh"]').click()
    wait_until(lambda: browser.current_url.endswith("?lang=zh"), what="the page asked again in Chinese")
    wait_for(browser, "#statement h2", "背景")
    try:
        editor_text(browser)
        type_in(browser, PRINTS_WRONG)
        press(browser, "hint")
        wait_for(browser, "#hintbox h4", "提示（第 1 级）")
        assert re.search(r"你的输出从题面第 \d 步（\S+）开始出错。", browser.find_element("id", "hintbox").text)
        browser.find_element("id", "hint-more").click()
        wait_for(browser, "#hintbox h4", "提示（第 2 级）")
        assert "错误所在：" in browser.find_element("id", "hintbox").text
        console = browser.find_elements("css selector", "#run-out .console h5")
        assert [h.text for h in console] == ["标准输出 / 标准错误"]
        assert latin_words(browser) == set()
    finally:
        browser.find_element("css selector", 'button.lang[data-lang="en"]').click()
    wait_for(browser, "#run", "Run")


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
        wait_for(browser, "header nav a[href='/submissions']", "提交记录")  # the server's own parts too
        assert browser.find_element("id", "file").text == "你的代码（保存在班级服务器上）"
        assert browser.find_element("css selector", "nav.languages a.active").text == "中文"
        assert browser.find_element("css selector", 'button.rtab[data-pane="history"]').text == "历史"
        gqa = load("gqa")  # the limits line and the result's first note too
        assert browser.find_element("id", "limits").text == (
            f"每个测试 CPU {gqa.time_limit_ms} ms · {gqa.memory_limit_mb} MiB · "
            f"容差：绝对 {gqa.abs_tol} 或相对 {gqa.rel_tol}")
        note = browser.find_element("id", "result-note").get_attribute("textContent")
        assert note == "运行：在样例（或自定义输入）上试运行你的代码；提交：评测全部测试；提示：解释答案错在哪里。"
        browser.get(f"{server.base}/problems/mha")  # the next problem opens in Chinese too
        wait_for(browser, "#statement h2", "背景")
        assert browser.find_element("id", "run").text == "运行"
        assert browser.find_element("id", "saved").text == "初始代码"  # amy's first open of mha
    finally:
        browser.find_element("css selector", 'button.lang[data-lang="en"]').click()
    wait_for(browser, "#run", "Run")
    assert re.fullmatch(r"\d+ ms CPU per test · \d+ MiB · tolerance abs \S+ or rel \S+",
                        browser.find_element("id", "limits").text)
    assert browser.find_element("id", "saved").text == "the starter"
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
    assert Client(server.base).get("/favicon.ico").status == 204  # no 404 in every page's console
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


def _slow_printing() -> str:
    """gqa's accepted solution, 0.15 s asleep (no CPU) and a line printed on every test: a few
    seconds of judging to watch."""
    from problems import load

    method = load("gqa").method
    return (solution("gqa", "accepted") + "\n\nimport time\n\nFast = Solution\n\n\nclass Solution(Fast):\n"
            f"    def {method}(self, *args, **kwargs):\n        time.sleep(0.15)\n        print('tick')\n"
            f"        return super().{method}(*args, **kwargs)\n")


@pytest.mark.parametrize("mode", ["contest", "class"])
def test_a_submission_is_followed_in_place_until_judged(klass, browser, mode):  # noqa: F811
    """The submission page and the list update in place (no reload) from queued or judging to the
    verdict and the per-test rows; what each test printed is shown for the tests the student may
    see: the sample only in a contest, every test in a class. Without JavaScript the page reloads."""
    from problems import load

    server, passwords, folder = klass
    settings(folder, contest_toml(runs_per_minute=2))
    contest = (folder / "class.toml").read_text()
    if mode == "class":
        (folder / "class.toml").write_text('title = "Page class"\nmode = "class"\n')
    ben = Client(server.base, bearer=token(folder, "ben"))
    tests = len(load("gqa").test_files())
    try:
        sign_in(browser, server, passwords["ben"], "/submissions", name="ben")
        made = ben.submit("gqa", _slow_printing()).json()["id"]
        assert "<noscript><meta http-equiv=\"refresh\"" in ben.get(f"/submissions/{made}").text  # no script: reload
        browser.get(f"{server.base}/submissions/{made}")
        assert wait_for(browser, "#status").text in ("queued", "judging")
        assert wait_for(browser, "#live-note").text == "· updating as it is judged"
        browser.execute_script("window.notReloaded = true")
        wait_for(browser, "#verdict", "AC", timeout=180)
        assert browser.execute_script("return window.notReloaded") is True
        assert browser.find_element("id", "status").text == "done" and not browser.find_elements("id", "live-note")
        rows = browser.find_elements("css selector", "#tests tr.test")
        assert [r.find_elements("css selector", "td")[1].text for r in rows] == ["AC"] * tests
        printed = [p.text for p in browser.find_elements("css selector", "#tests tr.printed pre.stdout")]
        assert printed == ["tick"] * (1 if mode == "contest" else tests)
        hidden = browser.find_elements("css selector", "#tests tr.test .muted")
        assert len(hidden) == (tests - 1 if mode == "contest" else 0)
        assert browser.find_element("css selector", "#tests tr.test td.num").text.endswith(" ms")
        server_side = ben.get(f"/submissions/{made}").text  # as the server renders it, judged
        assert "<noscript>" not in server_side and server_side.count('class="stdout"') == len(printed)

        again = ben.submit("gqa", _slow_printing()).json()["id"]
        browser.get(f"{server.base}/submissions?lang=zh")  # the list, in Chinese
        row = wait_for(browser, f"tr[data-live='{again}']")
        assert row.find_element("css selector", ".status").text in ("排队中", "评测中")
        browser.execute_script("window.notReloaded = true")
        wait_for(browser, f"#submissions a[href='/submissions/{again}']")
        wait_until(lambda: row.find_element("css selector", ".verdict").text == "AC", timeout=180,
                   what="the row's verdict")
        assert row.find_element("css selector", ".status").text == "已完成"
        assert row.find_element("css selector", ".cpu").text.endswith(" ms")
        assert browser.execute_script("return window.notReloaded") is True
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.get(f"{server.base}/submissions/{made}?lang=en")
        wait_for(browser, "#tests")
        browser.save_screenshot(str(SHOTS / f"class-submission-{mode}.png"))
    finally:
        (folder / "class.toml").write_text(contest)
        browser.get(f"{server.base}/?lang=en")


def test_a_hidden_failure_followed_in_place_tells_only_its_verdict_and_number(klass, browser):  # noqa: F811
    """In a contest, a run that quotes its input on hidden test 3: the page, updated in place, says
    so in the chosen language and shows nothing the run wrote on it."""
    from problems import load

    server, passwords, folder = klass
    settings(folder, contest_toml())
    method = load("gqa").method
    quoting = (solution("gqa", "accepted") + "\n\nimport time\n\nPassing = Solution\n\n\nclass Solution(Passing):\n"
               f"    def {method}(self, *args, **kwargs):\n        time.sleep(0.6)\n"
               "        X = np.asarray(kwargs.get('X', args[0] if args else None))\n"
               "        print('PRINTED', X.size)\n"
               "        if X.size == 24:\n            raise ValueError('QUO' + 'TED ' + repr(X.ravel()[:4].tolist()))\n"
               f"        return super().{method}(*args, **kwargs)\n")  # gqa's 003 has 24 elements in X
    ben = Client(server.base, bearer=token(folder, "ben"))
    sign_in(browser, server, passwords["ben"], "/", name="ben")
    made = ben.submit("gqa", quoting).json()["id"]
    browser.get(f"{server.base}/submissions/{made}?lang=zh")
    assert wait_for(browser, "#status").text in ("排队中", "评测中")
    wait_for(browser, "#verdict", "RE", timeout=180)
    assert browser.find_element("id", "message").text == "隐藏测试点 3 的结果为 RE：比赛中隐藏测试点只显示结果"
    body = browser.find_element("css selector", "#submission").text
    assert "PRINTED 8" in body and "PRINTED 24" not in body and "QUOTED" not in body
    assert len(browser.find_elements("css selector", "#tests tr.test")) == 3
    browser.get(f"{server.base}/?lang=en")


def test_the_pages_in_chinese_and_the_choice_carried_both_ways(klass, browser):  # noqa: F811
    """The switch sets the judge-lang cookie: every class page follows it, the problem list's links
    open the statement in Chinese, and the switch on the problem page carries back to English."""
    from classroom.labels import LABELS

    server, passwords, folder = klass
    settings(folder, contest_toml())
    sign_in(browser, server, passwords["liu"], "/", name="liu")
    assert browser.find_element("css selector", "main h1").text == "Problems"
    browser.find_element("css selector", "nav.languages a[lang=zh-CN]").click()
    wait_for(browser, "main h1", "题目")
    assert browser.find_element("css selector", "header nav a[href='/submissions']").text == "提交记录"
    assert browser.get_cookie("judge-lang")["value"] == "zh"
    english = {en for en, _ in LABELS.values() if len(en) > 3}
    for path, heading in (("/submissions", "提交记录"), ("/scoreboard", "排行榜"), ("/account", "liu")):
        browser.get(server.base + path)  # no ?lang=: the cookie carries it
        assert wait_for(browser, "main h1").text == heading, path
        text = browser.find_element("tag name", "body").text
        assert not [label for label in english if label in text], path  # no English label left
    browser.get(server.base + "/")
    browser.find_element("css selector", "tbody tr td a[href='/problems/gqa?lang=zh']").click()
    wait_for(browser, "button.lang.active", "中文")  # the statement in Chinese
    wait_for(browser, "#run", "运行")  # and the page's labels
    browser.find_element("css selector", "nav.languages a[lang=en]").click()  # the switch, on the problem page
    wait_for(browser, "button.lang.active", "English")
    wait_for(browser, "#run", "Run")
    browser.get(server.base + "/submissions")
    assert wait_for(browser, "main h1").text == "Submissions"  # carried back
    boss = Client(server.base, bearer=token(folder, "tom"))
    missing = boss.get("/submissions/999999?lang=zh")
    assert missing.status == 404 and "请求被拒绝" in missing.text and "返回题目列表" in missing.text
    assert missing.headers["Set-Cookie"].startswith("judge-lang=zh; Path=/;")
    signin = Client(server.base).get("/signin")
    assert "Name or email" in signin.text and "用户名或邮箱" in Client(server.base).get("/signin?lang=zh").text


def test_every_label_has_both_languages_and_every_page_names_only_known_labels():
    from helpers import ROOT

    from classroom.labels import LABELS

    for key, (en, zh) in LABELS.items():
        assert en and zh and en != zh or key.endswith(".rank"), key
        assert sorted(re.findall(r"{(\w+)}", en)) == sorted(re.findall(r"{(\w+)}", zh)), key
    used = set()
    for page in (ROOT / "classroom" / "templates").glob("*.html"):
        used |= set(re.findall(r"""\bt\(["']([\w.]+)["']""", page.read_text()))
    dynamic = {"status.": ("queued", "judging", "done"), "you.": ("solved", "tried"), "role.": ("student", "admin")}
    assert {key for key in used if key.endswith(".")} == set(dynamic)  # t("status." + s.status) and the like
    assert used - set(dynamic) - set(LABELS) == set()
    assert {prefix + value for prefix, values in dynamic.items() for value in values} <= set(LABELS)
