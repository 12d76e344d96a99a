"""The class student's problem page in a real headless Chromium (issue 37): the starter on first
open, the code kept on the server as they type and there again after a reload or a submission."""

from __future__ import annotations

import pytest
from class_server import Server, add_users, class_folder, remove
from test_browser import SHOTS, browser, wait_for, wait_until  # noqa: F401  # the fixture

pytestmark = pytest.mark.slow  # a real Chromium and class server: seconds per page


@pytest.fixture(scope="module")
def klass():
    folder = class_folder("judge-class-page-")
    folder.mkdir(parents=True)
    (folder / "class.toml").write_text('title = "Page class"\nmode = "class"\n')
    passwords = add_users(folder, ["amy,amy@example.org"])
    server = Server(folder)
    try:
        yield server, passwords
    finally:
        server.stop()
        remove(folder)


def sign_in(browser, server, password: str, target: str) -> None:  # noqa: F811
    browser.get(f"{server.base}{target}")
    wait_for(browser, "input[name=login]").send_keys("amy")
    browser.find_element("css selector", "input[name=password]").send_keys(password)
    browser.find_element("css selector", "form.stack button").click()
    wait_until(lambda: browser.current_url == f"{server.base}{target}", what="back on the page after signing in")


def editor_text(browser) -> str:  # noqa: F811
    wait_until(lambda: browser.execute_script("return !!window.classEditor"), what="the editor")
    return browser.execute_script("return window.classEditor.getValue()")


def test_the_starter_then_the_students_code_kept_across_a_reload_and_a_submit(klass, browser):  # noqa: F811
    server, passwords = klass
    sign_in(browser, server, passwords["amy"], "/problems/gqa")
    assert "class Solution:" in editor_text(browser)  # the starter, with the method to write
    browser.execute_script("window.classEditor.setValue('import numpy as np\\n\\n# mine, kept\\n')")
    wait_for(browser, "#saved", "saved")
    browser.refresh()
    assert editor_text(browser) == "import numpy as np\n\n# mine, kept\n"
    browser.execute_script("window.classEditor.setValue('# sent\\n')")
    browser.find_element("css selector", "form.stack button.primary").click()  # before the autosave
    wait_until(lambda: "/submissions/" in browser.current_url, what="the submission page")
    browser.get(f"{server.base}/problems/gqa")
    assert editor_text(browser) == "# sent\n"  # the code sent comes back on the problem page
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "class-problem-draft.png"))
