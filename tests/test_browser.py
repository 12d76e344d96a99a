"""The web page in a real headless Chromium (issue 12): a person opens the list, opens gqa, sees
the statement's math typeset, replaces the editor's text and submits. The server is the real one
(`python -m judge serve`) on a free local port; a screenshot of each step is kept under
build/screenshots/. Where no browser can be had the tests are skipped, and say why."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from helpers import ROOT, judge_command

pytestmark = pytest.mark.slow  # a real Chromium and server: seconds per page

SHOTS = ROOT / "build" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
FLAGS = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,900",
         "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-quic"]
TOKEN = "browser-test-token"
ACCEPTED = (ROOT / "solutions" / "gqa" / "accepted" / "grouped_tall_no_bK.py").read_text()
WRONG = (ROOT / "solutions" / "gqa" / "wrong_answer" / "forgot_b_O.py").read_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    work = tmp_path_factory.mktemp("web")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen(
        judge_command("serve", "--port", str(port), "--token", TOKEN, "--practice", work / "practice"),
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, JUDGE_HOME=str(work / "home")))
    url = process.stdout.readline().strip()
    assert url == f"http://127.0.0.1:{port}/?token={TOKEN}", url + process.stderr.read()
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    process.send_signal(2)  # Ctrl-C: it stops cleanly
    assert process.wait(timeout=30) == 0


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (make installs it)")
    from selenium.webdriver.chrome.service import Service

    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not shutil.which(p)]
    if missing:
        reason = f"no browser here: {', '.join(missing)} missing (apt-get install chromium chromium-driver)"
        print(reason)
        pytest.skip(reason)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))  # no driver download
    driver.set_page_load_timeout(30)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def wait_for(browser, css: str, text: str = "", timeout: float = 60):
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    condition = (EC.text_to_be_present_in_element(("css selector", css), text) if text
                 else EC.presence_of_element_located(("css selector", css)))
    WebDriverWait(browser, timeout).until(condition)
    return browser.find_element("css selector", css)


def submit(browser, source: str) -> str:
    browser.execute_script("window.judgeEditor.setValue(arguments[0])", source)
    browser.find_element("id", "submit").click()
    return wait_for(browser, "#verdict", "tests passed").text


def test_from_the_list_to_an_accepted_gqa(server, browser):
    browser.get(f"{server}/?token={TOKEN}")
    link = wait_for(browser, 'a[href="/problem/gqa"]')
    browser.save_screenshot(str(SHOTS / "1-list.png"))
    link.click()
    wait_for(browser, "#statement .katex")  # the statement's math, typeset by KaTeX
    assert len(browser.find_elements("css selector", "#statement .katex")) > 20
    assert "Grouped Query Attention" in browser.find_element("id", "statement").text
    browser.save_screenshot(str(SHOTS / "2-problem.png"))
    verdict = submit(browser, ACCEPTED)
    browser.save_screenshot(str(SHOTS / "3-accepted.png"))
    assert verdict.startswith("AC ")
    rows = browser.find_elements("css selector", "#rows tr")
    assert rows and all("AC" in row.text for row in rows)


def test_a_wrong_answer_shows_its_first_failing_test(server, browser):
    browser.get(f"{server}/problem/gqa")
    wait_for(browser, "#statement .katex")
    verdict = submit(browser, WRONG)
    report = wait_for(browser, "pre.report", "First failure:").text
    browser.save_screenshot(str(SHOTS / "4-wrong-answer.png"))
    assert verdict.startswith("WA ")
    failing = browser.find_elements("css selector", "#rows tr")[-1].text
    assert "WA" in failing and f"First failure: {failing.split()[1]}" in report


def test_the_chinese_statement(server, browser):
    browser.get(f"{server}/problem/gqa")
    wait_for(browser, "#statement .katex")
    browser.find_element("css selector", 'button.lang[data-lang="zh"]').click()
    wait_for(browser, "#statement h2", "背景")
    assert browser.find_elements("css selector", "#statement .katex")
