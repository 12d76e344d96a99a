"""What a student may read of a judged submission: in a contest a hidden test's verdict and number
only (its message, output or traceback may quote the input, the expected value or the output);
the sample, and the tests class.toml's visible_tests names, in full."""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatchcase

HIDDEN_KEYS = ("name", "verdict", "time_ms", "memory_mb", "judged_again")  # nothing of the run's text


def test_key(slug: str, name: str) -> str:
    """How visible_tests names a test: "<slug>/<test name>", as gqa/002-edge."""
    return f"{slug}/{name}"


def shown_test(slug: str, name: str, visible: Iterable[str] = ()) -> bool:
    """The sample (its input is in the statement), or a test a visible_tests glob names."""
    return name.endswith("-sample") or any(fnmatchcase(test_key(slug, name), pattern) for pattern in visible)


def hidden(test: dict) -> dict:
    """A hidden test as a contest shows it: what HIDDEN_KEYS names, an empty message, marked hidden."""
    return {**{k: test[k] for k in HIDDEN_KEYS if k in test}, "message": "", "hidden": True}


def verdicts_only(shown: dict, visible: Iterable[str] = ()) -> dict:
    """A submission as a contest shows it to its student: a hidden test's verdict and number only
    (marked "hidden": true, its message ""), no output or traceback; a shown test in full. The
    overall message is the first failure's, so it goes when that test is hidden (said instead,
    with the test's number in "hidden_failure" for a page to say in its language)."""
    visible = list(visible)
    slug = shown["problem"]
    tests = [t if shown_test(slug, t["name"], visible) else hidden(t) for t in shown["tests"]]
    first = next((t for t in shown["tests"] if t["verdict"] != "AC"), None)
    if first is None or shown_test(slug, first["name"], visible):
        return {**shown, "tests": tests}
    number = shown["tests"].index(first) + 1
    return {**shown, "tests": tests, "hidden_failure": number,
            "message": f"{first['verdict']} on hidden test {number}: a contest shows a hidden test's verdict only"}
