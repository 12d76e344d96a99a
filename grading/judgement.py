"""A judging's result as data, as problemtools' judge/result.py keeps it: the verdicts, each test's
result, the report and the JSON shapes they are written in. Types only: no sandbox, no behaviour
beyond reading the data back, so that every layer above can name a report without loading the
judging. The layers above add their own sections to a report (`Section`); this module names none."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, NotRequired, Protocol, TypedDict

if TYPE_CHECKING:
    import numpy as np

    from problems import Problem


class Verdict(StrEnum):
    """In the order they take precedence for one test: TLE, OLE, MLE, then CE (the file), RE, WA, AC.
    JE is the judge's own failure, never the submission's."""

    AC = "AC"
    WA = "WA"
    TLE = "TLE"
    MLE = "MLE"
    OLE = "OLE"
    RE = "RE"
    CE = "CE"
    JE = "JE"

    @property
    def title(self) -> str:  # type: ignore[override]  # str.title, shadowed on purpose
        return _TITLES[self]


_TITLES = {Verdict.AC: "Accepted", Verdict.WA: "Wrong Answer", Verdict.TLE: "Time Limit Exceeded",
           Verdict.MLE: "Memory Limit Exceeded", Verdict.OLE: "Output Limit Exceeded", Verdict.RE: "Runtime Error",
           Verdict.CE: "Compilation Error", Verdict.JE: "Judge Error"}


class Mismatch(TypedDict, total=False):
    """A wrong answer's first mismatch as data (the checker's message, in figures) for a page to lay
    out: a wrong shape has only the shapes; a value not finite or out of tolerance, where it is."""

    got_shape: list[int]
    expected_shape: list[int]
    index: list[int]
    position: str  # "row 0, column 2", as the message says it
    expected: float
    got: float | str  # a value not finite: its repr ("nan", "inf")
    error: float
    allowed: float
    differ: int  # elements that are wrong
    elements: int


class Section(Protocol):
    """What a layer above adds to a report (a hint, the reference's speed): a key of the JSON that
    the layer owns, its value there, and its paragraph at the end of the text report."""

    @property
    def key(self) -> str: ...

    def to_json(self) -> object: ...

    def to_text(self) -> str: ...


@dataclass
class TestResult:
    """One test's result: the run's measured figures and the verdict decided on them."""

    __test__ = False  # a name pytest would take for a test class

    name: str
    verdict: Verdict
    time_ms: float | None = None
    user_ms: float | None = None
    memory_mb: float | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    message: str = ""
    traceback: str = ""
    output: str = ""
    output_size: int = 0
    output_lines: int | None = None
    got: np.ndarray | None = None  # what the run returned, kept only when asked (practice `run`)
    sizes: dict[str, int] = field(default_factory=dict)
    note: str = ""
    step: int | None = None  # interactive problems: the first step whose answer failed
    mismatch: Mismatch | None = None  # a WA's first mismatch as data
    judged_again: list[str] = field(default_factory=list)  # why each earlier run of it did not count
    undecided: bool = False  # held back on every run: TLE only if a later test is TLE whatever the load


@dataclass
class Report:
    """A submission's judging: its verdict, the tests judged, and what the layers above added."""

    problem: Problem | None
    submission: str
    verdict: Verdict
    total: int
    tests: list[TestResult] = field(default_factory=list)
    isolation: str = ""
    message: str = ""
    traceback: str = ""
    rerun: list[str] | None = None  # the command that reruns the first failure, when not the usual one
    sections: list[Section] = field(default_factory=list)  # added by the layers above, in their order
    source_sha256: str = ""  # of the bytes judged (the file may change after)
    source: bytes = b""  # the bytes judged, for the history's code view

    @property
    def passed(self) -> int:
        return sum(t.verdict == Verdict.AC for t in self.tests)

    @property
    def first_failure(self) -> TestResult | None:
        return next((t for t in self.tests if t.verdict != Verdict.AC), None)

    @property
    def slowest_ms(self) -> float | None:
        return max((t.time_ms for t in self.tests if t.time_ms is not None), default=None)

    @property
    def peak_mb(self) -> float | None:
        return max((t.memory_mb for t in self.tests if t.memory_mb is not None), default=None)


class TestJson(TypedDict):
    """One test in the report's JSON (--json, the page's progress lines)."""

    name: str
    verdict: Verdict
    time_ms: float | None
    user_ms: float | None
    memory_mb: float | None
    max_abs_err: float | None
    max_rel_err: float | None
    message: str
    step: NotRequired[int]
    output: str
    output_size: int
    traceback: str
    note: str
    sizes: dict[str, int]
    mismatch: NotRequired[Mismatch]
    judged_again: NotRequired[list[str]]


TestJson.__test__ = False  # type: ignore[attr-defined]  # a name pytest would take for a test class


class ReportJson(TypedDict):
    """The report's JSON, up to its tests; the layers' sections, `tests` and `text` follow it."""

    problem: str | None
    submission: str
    verdict: Verdict
    passed: int
    total: int
    isolation: str
    message: str
    traceback: NotRequired[str]
    first_failure: NotRequired[str]


class TestSummary(TypedDict):
    """One test as a class's store keeps it."""

    name: str
    verdict: str
    time_ms: float | None
    memory_mb: float | None
    message: str
    step: NotRequired[int]
    judged_again: NotRequired[list[str]]  # why each earlier run of it did not count
    output: NotRequired[str]  # what the run printed (the class keeps it: classroom/console.py)
    output_size: NotRequired[int]
    traceback: NotRequired[str]


TestSummary.__test__ = False  # type: ignore[attr-defined]


class Summary(TypedDict):
    """A judging as a class's store keeps it: what a worker sends back through the queue."""

    verdict: str
    message: str
    traceback: str
    tests: list[TestSummary]
    passed: int
    total: int
    cpu_ms: float | None  # the slowest test's
    memory_mb: float | None  # the hungriest test's
    attempts: int  # judgings it took (a worker lost on the way costs one)


def summary_of(report: Report, message_chars: int) -> Summary:
    """The store's summary of a report, each message and traceback cut to `message_chars`."""
    tests: list[TestSummary] = []
    for t in report.tests:
        test = TestSummary(name=t.name, verdict=t.verdict.name, time_ms=t.time_ms, memory_mb=t.memory_mb,
                           message=t.message[:message_chars])
        if t.step is not None:
            test["step"] = t.step
        if t.judged_again:
            test["judged_again"] = t.judged_again
        tests.append(test)
    return Summary(verdict=report.verdict.name, message=report.message[:message_chars],
                   traceback=report.traceback[:message_chars], tests=tests, passed=report.passed,
                   total=report.total, cpu_ms=report.slowest_ms, memory_mb=report.peak_mb, attempts=1)


def failed_summary(verdict: Verdict, message: str) -> Summary:
    """A judging that ran no test: CE before the sandbox, or JE (DMOJ's IE, Internal Error)."""
    return Summary(verdict=verdict.name, message=message, traceback="", tests=[], passed=0, total=0, cpu_ms=None,
                   memory_mb=None, attempts=1)


def summary_from_json(data: object) -> Summary:
    """A summary from what came back through the queue (another process's JSON): never raises; a
    field missing or of another type reads as absent, a result that is not an object as JE."""
    if not isinstance(data, dict):
        return failed_summary(Verdict.JE, "the worker returned no result")
    fields = {key: data[key] for key in Summary.__annotations__ if key in data}

    def number(key: str) -> float | None:
        value = fields.get(key)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def string(key: str) -> str:
        value = fields.get(key)
        return value if isinstance(value, str) else ""

    def count(key: str, default: int) -> int:
        value = fields.get(key)
        return value if type(value) is int and value >= 0 else default

    tests = fields.get("tests")
    return Summary(verdict=str(fields.get("verdict")), message=string("message"), traceback=string("traceback"),
                   tests=tests if isinstance(tests, list) else [], passed=count("passed", 0),
                   total=count("total", 0), cpu_ms=number("cpu_ms"), memory_mb=number("memory_mb"),
                   attempts=max(1, count("attempts", 1)))
