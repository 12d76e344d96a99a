"""sandbox/inside/protocol.py: a header becomes a message only when every field is there and of its
annotated type (no sandbox: the judge reads the fork server's headers through this, and the fork
server the judge's)."""

from __future__ import annotations

import json
import math

import pytest

from sandbox.inside.protocol import (
    Compiled,
    Config,
    Control,
    Hello,
    Limits,
    Result,
    ResultStatus,
    Status,
    Task,
    from_wire,
    read_compiled,
    read_result,
    result_header,
    to_wire,
)

LIMITS = {"cpu_ms": 1000, "wall_ms": 3000, "cap_ms": 20000, "memory_bytes": 256 << 20,
          "address_slack_bytes": 96 << 20, "tasks": 64, "file_bytes": 8 << 20, "output_keep_bytes": 64 << 10,
          "result_bytes": 4096}
STATUS = {"cpu_ms": 12.5, "user_ms": 10.0, "wall_ms": 30.0, "peak_rss_kb": 40000, "base_rss_kb": 30000,
          "output_size": 0, "output_lines": 0}


def test_a_whole_header_makes_the_message():
    assert from_wire(Limits, LIMITS) == Limits(**LIMITS)
    status = from_wire(Status, STATUS)
    assert (status.cpu_ms, status.exit_code, status.ended_for, status.judge_ended) == (12.5, None, None, False)


def test_keys_no_field_names_are_ignored():
    """A header carries the wire's own `blobs` count beside the message's fields."""
    assert from_wire(Control, {"kind": "end", "blobs": 0}) == Control("end")


def test_a_round_trip_through_json_gives_the_message_back():
    task = Task("run", Limits(**LIMITS), id=7, method="f", args=[{"kind": "value", "value": 3}])
    hello = Hello(seccomp=True, landlock=3, landlocked=False, uid=0, python="3.11.7", numpy="2.4.6")
    config = Config(site=["/opt/site"], run_uids=[2000000000], own_uids=True, landlock="if-available",
                    readable=["/usr"], step_fds=[5, 6])
    for message in (task, hello, config, Control("judge_time", 1.5), Status(**STATUS, exit_code=0)):
        assert from_wire(type(message), json.loads(json.dumps(to_wire(message)))) == message


@pytest.mark.parametrize("field", sorted(LIMITS))
def test_a_missing_field_is_refused(field):
    with pytest.raises(ValueError, match=f"^Limits has no {field}$"):
        from_wire(Limits, {k: v for k, v in LIMITS.items() if k != field})


def test_a_field_with_a_default_may_be_missing():
    assert from_wire(Task, {"kind": "check", "limits": LIMITS}).args == []


@pytest.mark.parametrize("value", ["1000", 1000.0, None, [1000], {"ms": 1000}])
def test_an_int_field_of_another_type_is_refused(value):
    with pytest.raises(ValueError, match="^Limits.cpu_ms is not int$"):
        from_wire(Limits, {**LIMITS, "cpu_ms": value})


@pytest.mark.parametrize(("cls", "data", "field", "annotation"), [
    (Limits, LIMITS, "cpu_ms", "int"),
    (Status, STATUS, "cpu_ms", "float"),
    (Status, STATUS, "exit_code", "int | None"),
])
def test_a_bool_is_no_number(cls, data, field, annotation):
    """bool is a subclass of int in Python; on the wire True is not 1."""
    with pytest.raises(ValueError) as raised:
        from_wire(cls, {**data, field: True})
    assert str(raised.value) == f"{cls.__name__}.{field} is not {annotation}"


def test_a_float_field_takes_an_int():
    assert from_wire(Status, {**STATUS, "cpu_ms": 12}).cpu_ms == 12


def test_a_bool_field_refuses_a_number():
    with pytest.raises(ValueError, match="^Status.judge_ended is not bool$"):
        from_wire(Status, {**STATUS, "judge_ended": 1})


@pytest.mark.parametrize("args", [[3], ["value"], [[{"kind": "value"}]], {"kind": "value"}])
def test_a_list_of_dicts_refuses_anything_else(args):
    with pytest.raises(ValueError, match=r"^Task.args is not list\[dict\[str, Any\]\]$"):
        from_wire(Task, {"kind": "run", "limits": LIMITS, "args": args})


@pytest.mark.parametrize("value", [math.nan, -math.nan])
def test_nan_is_refused_where_a_float_is_expected(value):
    with pytest.raises(ValueError, match="^Status.wall_ms is not float$"):
        from_wire(Status, {**STATUS, "wall_ms": value})


def test_optional_fields_take_none_or_their_type_only():
    assert from_wire(Status, {**STATUS, "signal": None}).signal is None
    assert from_wire(Status, {**STATUS, "signal": 9}).signal == 9
    with pytest.raises(ValueError, match=r"^Status.signal is not int \| None$"):
        from_wire(Status, {**STATUS, "signal": "SIGKILL"})


def test_a_union_of_bool_and_str_refuses_an_int():
    config = {"site": [], "run_uids": [], "own_uids": False, "readable": [], "step_fds": []}
    assert from_wire(Config, {**config, "landlock": "if-available"}).landlock == "if-available"
    assert from_wire(Config, {**config, "landlock": False}).landlock is False
    with pytest.raises(ValueError, match=r"^Config.landlock is not bool \| str$"):
        from_wire(Config, {**config, "landlock": 1})


@pytest.mark.parametrize("items", [["/usr", 3], [True], "/usr", None])
def test_a_list_field_needs_a_list_of_its_item_type(items):
    config = {"run_uids": [], "own_uids": False, "landlock": True, "readable": [], "step_fds": []}
    with pytest.raises(ValueError, match=r"^Config.site is not list\[str\]$"):
        from_wire(Config, {**config, "site": items})


def test_a_list_of_ints_refuses_bools():
    config = {"site": [], "own_uids": False, "landlock": True, "readable": [], "step_fds": []}
    with pytest.raises(ValueError, match=r"^Config.run_uids is not list\[int\]$"):
        from_wire(Config, {**config, "run_uids": [2000000000, True]})


def test_json_from_the_other_side_is_checked_as_sent():
    """What json.loads makes of the other side's bytes: a float where an int belongs is refused,
    however whole it is; a key given twice counts once, the last (json's own rule)."""
    with pytest.raises(ValueError, match="^Limits.tasks is not int$"):
        from_wire(Limits, json.loads(json.dumps(LIMITS).replace('"tasks": 64', '"tasks": 64.0')))
    twice = json.dumps(STATUS)[:-1] + ', "cpu_ms": "12.5"}'
    with pytest.raises(ValueError, match="^Status.cpu_ms is not float$"):
        from_wire(Status, json.loads(twice))


def test_nested_limits_are_checked_as_their_own_message():
    task = from_wire(Task, {"kind": "run", "limits": LIMITS, "id": 1, "method": "f"})
    assert isinstance(task.limits, Limits) and task.limits.tasks == 64
    with pytest.raises(ValueError, match="^Limits has no tasks$"):
        from_wire(Task, {"kind": "run", "limits": {k: v for k, v in LIMITS.items() if k != "tasks"}})
    with pytest.raises(ValueError, match="^Limits.tasks is not int$"):
        from_wire(Task, {"kind": "run", "limits": {**LIMITS, "tasks": 64.0}})
    with pytest.raises(ValueError, match="^Limits: not an object$"):
        from_wire(Task, {"kind": "run", "limits": [1000]})


@pytest.mark.parametrize("data", [None, [], "Status", 3])
def test_a_header_that_is_not_an_object_is_refused(data):
    with pytest.raises(ValueError, match="^Status: not an object$"):
        from_wire(Status, data)


@pytest.mark.parametrize("raw", [
    b"", b"\n", b"not json\n", b"[1, 2]\n", b'{"status": "fine"}\n', b'{"status": 3}\n', b'{"no": "status"}\n',
    b"[" * 100000 + b"\n", b'{"status": "ok", "x": "' + b"a" * (70 << 10) + b'"}\n', b'{"status": "ok"' + b"\xff\n",
    b'{"status": 1' + b"0" * 5000 + b"}\n",
])
def test_a_result_that_is_no_header_reads_as_none(raw):
    assert read_result(raw)[0] is None


def test_a_result_s_fields_of_another_type_read_as_absent():
    raw = (b'{"status": "exception", "phase": 3, "message": ["m"], "traceback": "t", "shape": [2, "3"], "steps": 1.5}'
           b"\npayload")
    assert read_result(raw) == (Result(ResultStatus.EXCEPTION, traceback="t"), b"payload")
    assert read_result(b'{"status": "ok", "shape": [1, 2], "message": "' + b"m" * 9000 + b'"}\n') == (
        Result(ResultStatus.OK, message="m" * 4000, shape=[1, 2]), b"")


def test_a_result_header_goes_through_the_wire_as_written():
    result = Result(ResultStatus.EXCEPTION, "step 3", "ValueError", "ValueError: no", "  File ...\n")
    assert read_result(result_header(result) + b"\x00" * 8) == (result, b"\x00" * 8)
    assert result.step() == 3 and Result(ResultStatus.OK, "call").step() is None
    assert to_wire(Result(ResultStatus.OK, shape=[2])) == {"status": "ok", "shape": [2]}


def test_a_compile_answer_is_read_without_raising():
    assert read_compiled(b'{"ok": true, "methods": ["forward", 3], "error": null}\n') == Compiled(True, ["forward"])
    assert read_compiled(b'{"ok": "yes"}\n') is None and read_compiled(b"\xff\n") is None
