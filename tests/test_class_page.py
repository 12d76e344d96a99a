"""The class student's problem page in a real headless Chromium (issue 37): the starter on first
open, the code kept on the server as they type and there again after a reload or a submission;
the list's titles as links by difficulty, the contest's time left, Rejudge all confirmed, the
styled sign-in, and a class folder's store kept out of git; a submission followed in place
while it is judged, what each test printed, and the pages in Chinese (issue 37's class pages)."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import time

import pytest
from class_server import Client, Server, add_users, class_folder, remove, solution, token
from test_browser import SHOTS, browser, wait_for, wait_until  # noqa: F401  # the fixture

pytestmark = pytest.mark.slow  # a real Chromium and class server: seconds per page


@pytest.fixture(scope="module")
def klass():
    folder = class_folder("judge-class-page-")
    folder.mkdir(parents=True)
    end = dt.datetime.fromtimestamp(time.time() + 7200, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    (folder / "class.toml").write_text(f'title = "Page class"\nmode = "contest"\nstart = 2026-01-01T00:00:00Z\n'
                                       f'end = {end}\nruns_per_minute = 2\n')
    passwords = add_users(folder, ["amy,amy@example.org", "tom,tom@example.org,admin", "ben,ben@example.org",
                                   "liu,liu@example.org"])
    server = Server(folder)
    try:
        yield server, passwords, folder
    finally:
        server.stop()
        remove(folder)


def sign_in(browser, server, password: str, target: str, name: str = "amy") -> None:  # noqa: F811
    browser.delete_all_cookies()
    browser.get(f"{server.base}{target}")
    wait_for(browser, "input[name=login]").send_keys(name)
    browser.find_element("css selector", "input[name=password]").send_keys(password)
    browser.find_element("css selector", "form.stack button").click()
    wait_until(lambda: browser.current_url == f"{server.base}{target}", what="back on the page after signing in")


def editor_text(browser) -> str:  # noqa: F811
    wait_until(lambda: browser.execute_script("return !!window.classEditor"), what="the editor")
    return browser.execute_script("return window.classEditor.getValue()")


def test_the_starter_then_the_students_code_kept_across_a_reload_and_a_submit(klass, browser):  # noqa: F811
    server, passwords, _ = klass
    sign_in(browser, server, passwords["amy"], "/problems/gqa")
    assert "class Solution:" in editor_text(browser)  # the starter, with the method to write
    browser.execute_script("window.scrollTo(0, 3000)")  # the statement scrolls; the editor and Submit stay
    time.sleep(0.3)
    assert browser.execute_script("return window.scrollY") > 500
    submit = browser.find_element("css selector", "form.stack button.primary")
    assert 0 <= submit.rect["y"] - browser.execute_script("return window.scrollY") < 900
    assert browser.find_elements("css selector", ".CodeMirror-wrap")  # long lines wrap
    browser.execute_script("window.classEditor.setValue('import numpy as np\\n\\n# mine, kept\\n')")
    wait_for(browser, "#saved", "saved")
    browser.refresh()
    assert editor_text(browser) == "import numpy as np\n\n# mine, kept\n"
    browser.execute_script("window.classEditor.setValue('# sent\\n')")
    browser.find_element("css selector", "form.stack button.primary").click()  # before the autosave
    wait_until(lambda: "/submissions/" in browser.current_url, what="the submission page")
    sent = browser.current_url
    browser.get(f"{server.base}/problems/gqa")
    assert editor_text(browser) == "# sent\n"  # the code sent comes back on the problem page
    link = browser.find_element("css selector", "#history tbody a")  # their history: the submission, linked
    assert link.get_attribute("href") == sent
    browser.execute_script("window.classEditor.setValue('# sent\\n# and more\\n')")
    wait_for(browser, "#saved", "saved")
    link.click()
    assert wait_for(browser, "#diff").text.splitlines()[-1] == "+# and more"  # the code judged against now
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "class-problem-draft.png"))


def test_the_list_by_difficulty_with_linked_titles_time_left_and_a_confirmed_rejudge(klass, browser):  # noqa: F811
    from problems import all_problems
    from problems.package import by_difficulty

    server, passwords, folder = klass
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


def test_run_on_the_sample_and_on_an_own_input_shows_results_and_console(klass, browser):  # noqa: F811
    """Run: judged now, the per-test result and what the code printed shown; no submission made;
    a few a minute per student (runs_per_minute = 2 here)."""
    from helpers import ROOT

    from problems import load

    server, passwords, folder = klass
    method = load("gqa").method
    wrong = (solution("gqa", "wrong_answer") + "\n\nWrong = Solution\n\n\nclass Solution(Wrong):\n"
             f"    def {method}(self, *args, **kwargs):\n        print('hello from my code')\n"
             f"        return super().{method}(*args, **kwargs)\n")
    sign_in(browser, server, passwords["amy"], "/problems/gqa")
    editor_text(browser)
    browser.execute_script("window.classEditor.setValue(arguments[0])", wrong)
    before = Client(server.base, bearer=token(folder, "amy")).get("/api/submissions").json()
    browser.find_element("id", "run").click()
    wait_for(browser, "#run-verdict", "WA")
    assert wait_for(browser, "#run-message").text.startswith("on the sample: ")
    cells = [c.text for c in browser.find_elements("css selector", "#run-tests tbody td")]
    assert cells[0].endswith("-sample") and cells[1] == "WA" and "expected" in cells[3]
    assert "hello from my code" in browser.find_element("id", "run-console").text
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.execute_script("document.getElementById('run-verdict').scrollIntoView()")
    browser.save_screenshot(str(SHOTS / "class-problem-after-wa.png"))
    sample = json.loads((ROOT / "problems" / "gqa" / "tests" / "001-sample.json").read_text())["input"]
    browser.find_element("css selector", "#own-input-box summary").click()
    browser.find_element("id", "own-input").send_keys(json.dumps(sample))
    browser.find_element("id", "run").click()
    wait_for(browser, "#run-message", "on your input")
    assert browser.find_element("id", "run-verdict").text == "WA"
    browser.execute_script("document.getElementById('own-input-box').scrollIntoView()")
    browser.save_screenshot(str(SHOTS / "class-own-input.png"))
    browser.find_element("id", "run").click()  # the third in a minute
    wait_for(browser, "#run-message", "at most 2 runs a minute")
    after = Client(server.base, bearer=token(folder, "amy")).get("/api/submissions").json()
    assert after == before  # a Run is no submission and no attempt
    boss = Client(server.base, bearer=token(folder, "tom"))
    bad = boss.post_json("/api/problems/gqa/run", {"code": wrong, "input": {"X": [[1.0]]}})
    assert (bad.status, bad.json()["error"]) == (400, "your input: input: missing argument 'W_Q' (and 10 more)")


def test_hints_and_editorial_are_off_in_a_running_contest_and_on_in_a_class(klass, browser):  # noqa: F811
    server, passwords, folder = klass
    amy = Client(server.base, bearer=token(folder, "amy"))
    wrong = solution("gqa", "wrong_answer")
    off = amy.post_json("/api/problems/gqa/run", {"code": wrong, "input": None, "hint": 1})
    assert (off.status, off.json()) == (403, {"error": "hints are off here (in a contest, until it ends)"})
    sign_in(browser, server, passwords["amy"], "/problems/gqa")
    assert not browser.find_elements("id", "run-hint") and not browser.find_elements("id", "editorial-link")
    assert amy.get("/problems/gqa/editorial").status == 403
    contest = (folder / "class.toml").read_text()
    (folder / "class.toml").write_text('title = "Page class"\nmode = "class"\nruns_per_minute = 20\n')
    try:
        browser.refresh()
        editor_text(browser)
        browser.execute_script("window.classEditor.setValue(arguments[0])", wrong + "\nprint('my print')\n")
        wait_for(browser, "#run-bug").click()
        wait_for(browser, "#run-verdict", "WA")
        text = wait_for(browser, "#run-hint-text", "Hint: your output goes wrong at step").text
        assert text.endswith(wrong.splitlines()[0].removeprefix("# WRONG: ").rstrip("."))  # level 2: the bug
        browser.execute_script("document.getElementById('run-verdict').scrollIntoView()")
        browser.save_screenshot(str(SHOTS / "class-problem-after-wa.png"))  # the console and a hint
        from coach.editorial import accepted_solutions
        from problems import load

        browser.find_element("id", "editorial-link").click()
        wait_for(browser, "section.solution")
        names = [h.text for h in browser.find_elements("css selector", "section.solution h2")]
        assert names == [s.name for s in accepted_solutions(load("gqa"))] and len(names) >= 2
        # the idea and each approach's prose and complexity above its code (editorial.toml), then in Chinese
        assert names[0] == "loop_heads_column_slices.py"
        first = browser.find_element("css selector", "section.solution")
        assert first.find_element("css selector", ".complexity").text == (
            "time O(T·d_model² + h_q·T²·d_k) · memory O(T² + T·d_model)")
        assert "Only one (T, T) score matrix lives at a time" in first.find_element("css selector", ".approach").text
        assert browser.find_element("css selector", ".idea h2").text == "The idea"
        assert browser.find_elements("css selector", ".idea .katex")  # $h_q$ typeset
        browser.find_element("css selector", "nav.languages a[lang=zh-CN]").click()
        first = wait_for(browser, "section.solution .complexity", "时间")
        assert first.text == "时间 O(T·d_model² + h_q·T²·d_k) · 内存 O(T² + T·d_model)"
        approach = browser.find_element("css selector", "section.solution .approach")
        assert "任何时刻只有一个 (T, T) 的分数矩阵" in approach.text
        assert browser.find_element("css selector", ".idea h2").text == "思路"
        browser.save_screenshot(str(SHOTS / "class-editorial-zh.png"))
    finally:
        browser.get(f"{server.base}/?lang=en")  # the cookie back to English for the tests after
        (folder / "class.toml").write_text(contest)


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
    wait_for(browser, ".tabs a.active", "中文")  # the statement in Chinese
    browser.find_element("css selector", "nav.languages a[lang=en]").click()  # the switch, on the problem page
    wait_for(browser, ".tabs a.active", "English")
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
