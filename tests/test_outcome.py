"""sandbox/outcome.py's outcome_of and grading/verdict.py's classify, on made-up reports (no sandbox):
what the fork server says about a run, checked field by field, and the verdict its limits, exit
and own report decide, in their order of precedence."""

from __future__ import annotations

import json
import re
import signal

import pytest

from grading import verdict
from grading.verdict import Verdict
from sandbox.errors import MachineBusy, SandboxLost
from sandbox.inside.protocol import read_result
from sandbox.outcome import CONTENDED_SHARE, FILE_LIMIT_BYTES, Limits, RunOutcome, outcome_of

STATUS = {"cpu_ms": 120.0, "user_ms": 100.0, "wall_ms": 150.0, "peak_rss_kb": 81920, "base_rss_kb": 30720,
          "output_size": 5, "output_lines": 1, "exit_code": 0}
PARTS = [b'{"status": "ok"}\n', b"hello"]


def classify(outcome: RunOutcome, header: dict, limits: Limits) -> tuple[Verdict | None, str]:
    """The verdict for a run that wrote `header` as its result, read as the judge reads it."""
    return verdict.classify(outcome, read_result(json.dumps(header).encode() + b"\n")[0], limits)


def test_a_status_becomes_the_run_s_outcome():
    outcome = outcome_of(STATUS, PARTS)
    assert (outcome.cpu_ms, outcome.user_ms, outcome.wall_ms) == (120.0, 100.0, 150.0)
    assert outcome.memory_mb == 50.0  # the peak less what the child had when its walls went up
    assert (outcome.result, outcome.output, outcome.output_size, outcome.exit_code) == (PARTS[0], b"hello", 5, 0)
    assert (outcome.ended_for, outcome.signal, outcome.setup_error, outcome.judge_ended) == (None, None, None, False)


def test_memory_below_the_baseline_counts_as_none():
    assert outcome_of({**STATUS, "peak_rss_kb": 1000, "base_rss_kb": 2000}, PARTS).memory_mb == 0


def test_user_time_never_exceeds_the_cpu_time_charged():
    assert outcome_of({**STATUS, "user_ms": 500.0}, PARTS).user_ms == 120.0


def test_a_setup_error_is_kept_short():
    assert outcome_of({**STATUS, "setup_error": "x" * 5000}, PARTS).setup_error == "x" * 2000


def test_the_signal_and_the_judge_s_end_are_carried():
    outcome = outcome_of({**STATUS, "exit_code": None, "signal": 9, "judge_ended": True}, PARTS)
    assert (outcome.exit_code, outcome.signal, outcome.judge_ended) == (None, 9, True)


MALFORMED = "the fork server's report is malformed"


@pytest.mark.parametrize(("change", "parts", "why"), [
    ({"cpu_ms": None}, PARTS, " (Status.cpu_ms is not float)"),  # a field of another type
    ({"cpu_ms": "120"}, PARTS, " (Status.cpu_ms is not float)"),
    ({"peak_rss_kb": 1.5}, PARTS, " (Status.peak_rss_kb is not int)"),
    ({"exit_code": True}, PARTS, " (Status.exit_code is not int | None)"),
    ({"cpu_ms": float("nan")}, PARTS, " (Status.cpu_ms is not float)"),
    ({"judge_ended": 1}, PARTS, " (Status.judge_ended is not bool)"),
    ({"output_size": -1}, PARTS, ""),  # a negative figure
    ({"wall_ms": -0.5}, PARTS, ""),
    ({"base_rss_kb": -1}, PARTS, ""),
    ({"ended_for": "boredom"}, PARTS, " (Status.ended_for is not EndedFor | None)"),  # a reason it never gives
    ({}, PARTS[:1], ""),  # the result and output frames, not both
    ({}, PARTS + [b""], ""),
])
def test_a_malformed_status_is_a_lost_sandbox(change, parts, why):
    with pytest.raises(SandboxLost) as raised:
        outcome_of({**STATUS, **change}, parts)
    assert (str(raised.value), raised.value.timed_out) == (MALFORMED + why, False)


@pytest.mark.parametrize("field", sorted(STATUS.keys() - {"exit_code"}))
def test_a_status_missing_a_field_is_a_lost_sandbox(field):
    with pytest.raises(SandboxLost) as raised:
        outcome_of({k: v for k, v in STATUS.items() if k != field}, PARTS)
    assert str(raised.value) == f"{MALFORMED} (Status has no {field})"


def test_a_run_ended_at_the_wall_clock_cap_is_the_machine_s_doing():
    with pytest.raises(MachineBusy, match="^the machine is too busy to judge this run: rerun$"):
        outcome_of({**STATUS, "ended_for": "busy"}, PARTS)


@pytest.mark.parametrize("reason", ["cpu", "sleeping", "lingering"])
def test_the_other_reasons_to_end_a_run_are_kept(reason):
    assert outcome_of({**STATUS, "ended_for": reason}, PARTS).ended_for == reason


# -- classify ---------------------------------------------------------------------------------

LIMITS = Limits(cpu_ms=1000, memory_mb=256)
EXCEPTION = {"status": "exception", "phase": "call", "message": "ValueError: no"}


def run(**changes) -> RunOutcome:
    fields = dict(cpu_ms=100.0, user_ms=90.0, wall_ms=120.0, memory_mb=10.0, ended_for=None, exit_code=0, signal=None,
                  output_size=0, output_lines=0, output=b"", result=b"")
    return RunOutcome(**{**fields, **changes})


EVERYTHING = dict(cpu_ms=1500.0, output_size=FILE_LIMIT_BYTES, memory_mb=300.0, signal=signal.SIGKILL)


@pytest.mark.parametrize(("cleared", "expected"), [
    ((), (Verdict.TLE, "used 1500 ms of CPU time, over the limit of 1000 ms")),  # everything at once: time first
    (("cpu_ms",), (Verdict.OLE, "wrote 8 MiB (8388608 bytes) to stdout/stderr, all that the limit allows")),
    (("cpu_ms", "output_size"), (Verdict.MLE, "peak memory 300 MiB, over the limit of 256 MiB")),
    (("cpu_ms", "output_size", "memory_mb"), (Verdict.RE, "ValueError: no")),  # the exception before the signal
    (("cpu_ms", "output_size", "memory_mb", "signal"), (Verdict.RE, "ValueError: no")),
])
def test_time_then_output_then_memory_then_the_exception(cleared, expected):
    outcome = run(**{k: v for k, v in EVERYTHING.items() if k not in cleared})
    assert classify(outcome, EXCEPTION, LIMITS) == expected


def test_a_sleeper_is_tle_before_its_output_counts():
    assert classify(run(ended_for="sleeping", wall_ms=3500.0, output_size=FILE_LIMIT_BYTES), {}, LIMITS) == (
        Verdict.TLE, "sleeping or blocked: ended after 3.5 s of wall-clock time, 3 s or more of it not spent waiting "
                     "for a CPU (the limit, 3x the time limit), while it used 100 ms of CPU time")


@pytest.mark.parametrize(("outcome", "verdict"), [
    (run(cpu_ms=1000.0), None),  # at the limit is within it
    (run(cpu_ms=1000.5), Verdict.TLE),
    (run(signal=signal.SIGXCPU, cpu_ms=2000.0), Verdict.TLE),
    (run(signal=signal.SIGXCPU), Verdict.RE),  # under the limit: the kernel did not send it
    (run(ended_for="cpu"), Verdict.TLE),
    (run(output_size=FILE_LIMIT_BYTES - 1), None),
    (run(output_size=FILE_LIMIT_BYTES), Verdict.OLE),
    (run(signal=signal.SIGXFSZ, output_size=FILE_LIMIT_BYTES), Verdict.OLE),
    (run(signal=signal.SIGXFSZ), Verdict.RE),
    (run(memory_mb=256.0), None),
    (run(memory_mb=256.5), Verdict.MLE),
])
def test_the_limits_and_their_edges(outcome, verdict):
    assert classify(outcome, {"status": "ok"}, LIMITS)[0] == verdict


REFUSED = ("MemoryError: an allocation was refused, as it would have taken the run past the memory limit of 256 MiB"
           "{asked}; its measured peak, {peak} MiB, leaves out the refused allocation")


@pytest.mark.parametrize(("memory_mb", "message", "expected"), [
    (0.0, "MemoryError", REFUSED.format(asked="", peak=0)),  # issue 33: it read "peak memory 0 MiB, over the limit"
    (10.0, None, REFUSED.format(asked="", peak=10)),
    (3.0, "numpy._core._exceptions._ArrayMemoryError: Unable to allocate 2.00 GiB for an array with shape "
          "(268435456,) and data type float64",
     REFUSED.format(asked=" (Unable to allocate 2.00 GiB for an array with shape (268435456,) and data type float64)",
                    peak=3)),
    (300.0, "MemoryError", "peak memory 300 MiB, over the limit of 256 MiB, and a MemoryError raised"),
])
def test_a_memory_error_is_mle_whatever_the_peak_and_says_what_was_refused(memory_mb, message, expected):
    assert classify(run(memory_mb=memory_mb), {"status": "memory", "message": message}, LIMITS) == (
        Verdict.MLE, expected)


@pytest.mark.parametrize("signal_number", [signal.SIGXCPU, signal.SIGXFSZ])
def test_a_limit_s_signal_under_the_limits_is_the_run_s_own(signal_number):
    name = signal.Signals(signal_number).name
    assert classify(run(signal=signal_number), {}, LIMITS) == (
        Verdict.RE, f"killed by signal {name}, under the limits: the run sent it itself")


@pytest.mark.parametrize("figure", [1000.0001, 1000.004, 1000.04, 1000.4, 1000.6, 1001.0, 1500.0])
def test_every_limit_s_figure_reads_on_its_side_of_the_limit(figure):
    """A TLE's time, an MLE's peak and a sleeper's wall-clock time are shown with as many decimals
    as it takes not to read as within the limit (1000.4 ms was "1000 ms, over the limit of 1000 ms")."""
    def number(message: str, before: str) -> float | None:
        found = re.search(r"([0-9.]+) " + before, message)
        return float(found.group(1)) if found else None

    time = classify(run(cpu_ms=figure), {"status": "ok"}, LIMITS)
    memory = classify(run(memory_mb=figure / 1000 * 256), {"status": "ok"}, LIMITS)
    sleeper = classify(run(ended_for="sleeping", wall_ms=figure * 3), {}, LIMITS)
    assert (time[0], memory[0], sleeper[0]) == (Verdict.TLE, Verdict.MLE, Verdict.TLE)
    for (_, message), unit, limit in ((time, "ms of CPU time", 1000), (memory, "MiB, over", 256)):
        if f"more than {limit} " not in message:  # else no figure is named: "used more than 1000 ms"
            assert number(message, unit) > limit, message
    assert number(sleeper[1], "s of wall-clock") >= 3, sleeper[1]


@pytest.mark.parametrize(("phase", "message"), [
    ("call", "ValueError: no"),
    ("init", "ValueError: no while constructing Solution()"),
    ("import", "ValueError: no while importing the file"),
    ("compile", "ValueError: no while compiling the file"),
    ("lookup", "ValueError: no while looking up the method"),
    ("step 3", "ValueError: no in step 3 (counting from 0)"),
    ("elsewhere", "ValueError: no"),  # a phase the runner never names adds nothing
    (None, "ValueError: no"),
    (["import"], "ValueError: no"),
])
def test_an_exception_says_where(phase, message):
    assert classify(run(), {**EXCEPTION, "phase": phase}, LIMITS) == (Verdict.RE, message)


@pytest.mark.parametrize(("message", "shown"), [
    ("x" * 5000, "x" * 4000),  # the run's own text, kept short
    (7, "an exception"),  # not text: the default
    (None, "an exception"),
])
def test_an_exception_s_message_is_the_run_s_claim(message, shown):
    assert classify(run(), {"status": "exception", "phase": "call", "message": message}, LIMITS) == (Verdict.RE, shown)


@pytest.mark.parametrize(("outcome", "report", "expected"), [
    (run(signal=signal.SIGKILL), {"status": "invalid"}, (Verdict.RE, "killed by signal SIGKILL")),
    (run(signal=signal.SIGSEGV), {}, (Verdict.RE, "killed by signal SIGSEGV")),
    (run(), {"status": "invalid", "message": "not numbers"}, (Verdict.WA, "not numbers")),
    (run(), {"status": "lookup", "message": "class Solution has no method f()"},
     (Verdict.RE, "class Solution has no method f()")),
    (run(exit_code=3), {}, (Verdict.RE, "the process exited (code 3) before the method returned a result")),
    (run(), {"status": "ok"}, (None, "")),  # the values decide
])
def test_then_the_signal_the_answer_and_the_exit(outcome, report, expected):
    assert classify(outcome, report, LIMITS) == expected


EXITED = "the process exited (code 0) before the method returned a result"


@pytest.mark.parametrize(("status", "expected"), [
    ("ok", (None, "")),
    ("invalid", (Verdict.WA, "the returned value is not an array of numbers")),
    ("exception", (Verdict.RE, "an exception while importing the file")),
    ("lookup", (Verdict.RE, "")),
    ("memory", (Verdict.MLE, REFUSED.format(asked="", peak=10))),
    ("CE", (Verdict.RE, EXITED)),
    ("JE", (Verdict.RE, EXITED)),
    ("AC", (Verdict.RE, EXITED)),
    (None, (Verdict.RE, EXITED)),
    (7, (Verdict.RE, EXITED)),
])
def test_a_forged_report_never_gives_ce_je_or_ac(status, expected):
    """The report is the run's own claim: it can only make its own verdict RE, MLE or WA."""
    assert classify(run(), {"status": status, "phase": "import"}, LIMITS) == expected


def test_a_time_just_over_the_limit_never_reads_as_within_it():
    assert classify(run(cpu_ms=1000.4), EXCEPTION, LIMITS) == (
        Verdict.TLE, "used 1000.4 ms of CPU time, over the limit of 1000 ms")
    assert classify(run(cpu_ms=1000.0004), EXCEPTION, LIMITS) == (
        Verdict.TLE, "used more than 1000 ms of CPU time, over the limit of 1000 ms")
    assert classify(run(ended_for="cpu", cpu_ms=999.0), EXCEPTION, LIMITS) == (
        Verdict.TLE, "stopped on reaching the limit of 1000 ms of CPU time")
    assert classify(run(cpu_ms=1000.6), EXCEPTION, LIMITS) == (
        Verdict.TLE, "used 1001 ms of CPU time, over the limit of 1000 ms")


@pytest.mark.parametrize(("verdict", "time_ms", "memory_mb", "cells"), [
    (Verdict.TLE, 1000.4, 3.0, ("1000.4 ms", "3.0 MiB")),  # was "1000 ms" on a TLE row, against a 1000 ms limit
    (Verdict.TLE, 1000.0004, 3.0, (">1000 ms", "3.0 MiB")),
    (Verdict.TLE, 1500.0, 3.0, ("1500 ms", "3.0 MiB")),
    (Verdict.TLE, 90.0, 3.0, ("90 ms", "3.0 MiB")),  # a sleeper: its CPU time is small, and said so
    (Verdict.MLE, 20.0, 256.04, ("20 ms", "256.04 MiB")),  # was "256.0 MiB"
    (Verdict.AC, 999.6, 255.99, ("1000 ms", "256.0 MiB")),  # within the limits, rounded as usual
])
def test_a_report_row_never_rounds_a_figure_onto_its_limit(verdict, time_ms, memory_mb, cells):
    from grading.judgement import Report, TestResult
    from grading.report import to_text
    from problems import load

    problem = load("causal")  # 1000 ms, 256 MiB
    report = Report(problem, "mine.py", verdict, 1, tests=[TestResult("001-sample", verdict, time_ms, time_ms,
                                                                       memory_mb)])
    row = next(line for line in to_text(report).splitlines() if line.startswith("  001-sample"))
    assert row.split()[2:6] == [*cells[0].split(), *cells[1].split()], row


# -- a run other work held back (issue 33) ------------------------------------------------------

@pytest.mark.parametrize(("cpu_ms", "waited_ms", "wall_ms", "expected"), [
    (1100.0, 2000.0, 3200.0, True),  # one thread that waited 62% of the time
    (1100.0, 300.0, 1450.0, False),  # waited 21%: under the share
    (1000.0, 500.0, 1000.0, False),  # CPU time and waits past the wall clock: its threads waited on each other
    (0.0, 0.0, 0.0, False),
])
def test_a_run_is_held_back_when_it_waited_for_others_a_share_of_its_wall_clock(cpu_ms, waited_ms, wall_ms, expected):
    from sandbox.inside.clock import contended

    assert contended(cpu_ms, waited_ms, wall_ms, CONTENDED_SHARE) is expected


@pytest.mark.parametrize(("changes", "expected"), [
    ({"cpu_ms": 1200.0}, True),
    ({"cpu_ms": 1500.0}, True),  # up to 1.5x the limit, contention explains it
    ({"cpu_ms": 1500.5}, False),  # past it, nothing does
    ({"cpu_ms": 1000.0}, False),  # within the limit
    ({"cpu_ms": 1200.0, "contended": False}, False),
    ({"cpu_ms": 1200.0, "ended_for": "cpu"}, False),  # the clock ended it: not held back when it crossed the limit
    ({"cpu_ms": 1200.0, "ended_for": "sleeping"}, False),  # asleep: TLE whatever the load
])
def test_only_a_held_back_run_over_its_limit_by_less_than_half_is_judged_again(changes, expected):
    assert run(**{"contended": True, **changes}).held_back(LIMITS) is expected


def test_a_status_carries_the_run_s_wait_for_a_cpu():
    outcome = outcome_of({**STATUS, "waited_ms": 40.5, "contended": True}, PARTS)
    assert (outcome.waited_ms, outcome.contended) == (40.5, True)
    with pytest.raises(SandboxLost):
        outcome_of({**STATUS, "waited_ms": -1.0}, PARTS)
