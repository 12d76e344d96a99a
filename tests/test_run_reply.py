"""A Run's reply from a worker (classroom/run_reply.py): a real report (a WA with a level-2 hint,
judged here by the same code a worker runs) reads back unchanged; anything else a worker, or
whoever writes to Redis, could send is refused whole or loses the fields no report has."""

from __future__ import annotations

import copy
import json

import pytest
from class_server import solution

from classroom.run_reply import MAX_REPLY_BYTES, RunReplyError, run_reply
from classroom.tryout import judged_run
from problems import load


@pytest.fixture(scope="module")
def report() -> dict:
    return judged_run(load("gqa"), solution("gqa", "wrong_answer"), None, 2)


def _wire(data: object) -> bytes:
    return json.dumps(data).encode()


def test_a_real_report_with_its_hint_reads_back_unchanged(report):
    assert report["verdict"] == "WA" and report["hint"]["level"] == 2 and report["test"]["mismatch"]
    assert run_reply(_wire({"report": report}), "gqa", 2) == {"report": report}
    plain = {k: v for k, v in report.items() if k != "hint"}
    assert run_reply(_wire({"report": report}), "gqa", 0) == {"report": plain}  # no hint asked: none shown


def test_a_refusal_reads_as_its_status_and_line():
    sent = {"refused": {"status": 413, "message": "the input is over the limit"}}
    assert run_reply(_wire(sent), "gqa", 0) == sent


def test_fields_no_report_has_are_dropped(report):
    sent = copy.deepcopy(report)
    sent["script"] = "<script>alert(1)</script>"
    sent["test"]["html"] = "<b>"
    read = run_reply(_wire({"report": sent}), "gqa", 2)["report"]
    assert "script" not in read and "html" not in read["test"]


@pytest.mark.parametrize("change, reason", [
    (lambda r: r.update(verdict="OK"), "report.verdict: not one of"),
    (lambda r: r.update(problem="mha"), "report.problem: not one of ('gqa',)"),
    (lambda r: r.update(input="/etc/passwd"), "report.input: not one of"),
    (lambda r: r.pop("expected"), "report: no expected"),
    (lambda r: r.update(message="x" * 20001), "report.message: not text of at most 20000 characters"),
    (lambda r: r["test"].update(time_ms="12"), "report.test.time_ms: not a number"),
    (lambda r: r["test"].update(output_size=-1), "report.test.output_size: not a count"),
    (lambda r: r["test"].update(verdict=True), "report.test.verdict: not one of"),
    (lambda r: r["test"]["sizes"].update(T="4"), "report.test.sizes.T: not a count"),
    (lambda r: r["test"]["mismatch"].update(got={"x": 1}), "report.test.mismatch.got: not a number"),
    (lambda r: r.update(output=[[[[[1.0]]]]]), "report.output: nested deeper than 4"),
    (lambda r: r.update(output=[[1.0, "2"]]), "report.output: not a number"),
    (lambda r: r["hint"].update(level=1), "report.hint: level 1, 2 asked"),
    (lambda r: r["hint"].update(bugs="all of them"), "report.hint.bugs: not a list"),
    (lambda r: r.update(test=[]), "report.test: not an object"),
])
def test_a_reply_of_the_wrong_shape_is_refused_whole(report, change, reason):
    sent = copy.deepcopy(report)
    change(sent)
    with pytest.raises(RunReplyError) as caught:
        run_reply(_wire({"report": sent}), "gqa", 2)
    assert str(caught.value).startswith(reason)


@pytest.mark.parametrize("raw, reason", [
    (b'{"report": {"verdict": NaN}}', "the reply is not JSON"),  # Python's json would read a bare NaN
    (b"not json", "the reply is not JSON"),
    (b"null", "the reply is neither a report nor a refusal"),
    (b'{"report": {}, "refused": {}}', "the reply is neither a report nor a refusal"),
    (b'{"refused": {"status": 200, "message": "fine"}}', "refused.status: not one of (400, 413, 503)"),
    (b'{"__t": "dramatiq.results.Exception", "exn": {"type": "OSError", "msg": "x"}}',
     "the reply is neither a report nor a refusal"),  # what Dramatiq stores for an actor that raised
])
def test_what_is_not_a_reply_is_refused(raw, reason):
    with pytest.raises(RunReplyError) as caught:
        run_reply(raw, "gqa", 0)
    assert str(caught.value).startswith(reason)


def test_a_reply_over_the_cap_is_refused_before_it_is_parsed():
    with pytest.raises(RunReplyError, match=f"over {MAX_REPLY_BYTES}$"):
        run_reply(b" " * (MAX_REPLY_BYTES + 1), "gqa", 0)
