"""grading/standard.py's InOrder, with no sandbox: runs go side by side and end in any order, their
results come out in test order, and a lost fork server blames the first test in flight and runs
the others again, in order, before any new test."""

from __future__ import annotations

from grading.standard import InOrder

# InOrder only carries a test's data and result: plain strings stand in for them here.


def numbered(count: int):
    return iter([(n, f"test {n}") for n in range(count)])


def result(data: str) -> str:
    return "result of " + data


def test_results_come_out_in_test_order_whatever_order_runs_end_in():
    order, pending = InOrder(), numbered(4)
    started = [order.next(pending) for _ in range(3)]
    assert started == [(0, "test 0"), (1, "test 1"), (2, "test 2")] and set(order.in_flight) == {0, 1, 2}
    order.done(2, result("test 2"))
    assert list(order.ready()) == []  # 0 and 1 are still running
    order.done(1, result("test 1"))
    assert list(order.ready()) == []
    assert order.next(pending) == (3, "test 3")
    order.done(0, result("test 0"))
    assert list(order.ready()) == ["result of test 0", "result of test 1", "result of test 2"]
    order.done(3, result("test 3"))
    assert list(order.ready()) == ["result of test 3"]
    assert order.next(pending) is None and order.in_flight == {}


def test_each_result_comes_out_once():
    order, pending = InOrder(), numbered(2)
    order.next(pending)
    order.done(0, result("test 0"))
    assert list(order.ready()) == ["result of test 0"]
    assert list(order.ready()) == []


def test_a_lost_fork_server_blames_the_first_in_flight_and_queues_the_rest_again():
    order, pending = InOrder(), numbered(6)
    for _ in range(4):
        order.next(pending)
    order.done(1, result("test 1"))  # finished before the loss: kept
    blamed = []
    order.lost(lambda data: blamed.append(data) or "lost: " + data)
    assert blamed == ["test 0"] and order.in_flight == {}
    assert list(order.ready()) == ["lost: test 0", "result of test 1"]
    # 2 and 3 run again, in order, before the next test is read
    assert [order.next(pending) for _ in range(3)] == [(2, "test 2"), (3, "test 3"), (4, "test 4")]


def test_a_second_loss_merges_the_queue_in_order():
    order, pending = InOrder(), numbered(5)
    for _ in range(3):
        order.next(pending)
    order.lost(lambda data: "lost: " + data)  # 0 blamed; 1 and 2 again
    assert order.next(pending) == (1, "test 1")  # 2 still waits to run again
    order.lost(lambda data: "lost: " + data)  # 1 blamed (the only one in flight)
    assert [order.next(pending) for _ in range(3)] == [(2, "test 2"), (3, "test 3"), (4, "test 4")]
    for n in (4, 3, 2):
        order.done(n, result(f"test {n}"))
    assert list(order.ready()) == ["lost: test 0", "lost: test 1", "result of test 2", "result of test 3",
                                   "result of test 4"]


def test_a_test_run_again_can_be_blamed_in_its_turn():
    order, pending = InOrder(), numbered(3)
    order.next(pending)
    order.next(pending)
    order.done(0, result("test 0"))
    order.lost(lambda data: "lost: " + data)  # 1 blamed
    order.next(pending)  # 2
    order.lost(lambda data: "lost again: " + data)
    assert list(order.ready()) == ["result of test 0", "lost: test 1", "lost again: test 2"]
    assert order.next(pending) is None


def test_a_test_judged_again_runs_alone_once_its_time_has_come():
    """A TLE that other work held back is judged again (issue 33): nothing new starts beside it,
    it starts only once nothing is in flight and its delay is over, and its result still comes
    out in its place."""
    order, pending = InOrder(), numbered(4)
    order.next(pending), order.next(pending)
    order.again_later(0, at=0.0)  # its time has come at once
    assert order.in_flight == {1: "test 1"} and order.next(pending) is None  # waits for test 1 to end
    order.done(1, result("test 1"))
    assert list(order.ready()) == [] and order.wait_s() == 0.0
    assert order.next(pending) == (0, "test 0")
    assert order.next(pending) is None  # alone
    order.again_later(0, at=float("inf"))  # held back again: not before its delay is over
    assert order.next(pending) is None and order.wait_s() == float("inf")


def test_nothing_waits_when_no_test_is_judged_again():
    order, pending = InOrder(), numbered(1)
    order.next(pending)
    order.done(0, result("test 0"))
    assert order.wait_s() is None and list(order.ready()) == ["result of test 0"]
