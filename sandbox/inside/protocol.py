"""The messages between the judge and a fork server, on one page, as isolate documents its meta
file. Both sides import this module (the fork server its copy inside the sandbox). A message is
a JSON header frame and then binary frames (wire.py); `to_wire` and `from_wire` turn a header
into one of these classes and back, and `from_wire` refuses (ValueError) a field that is missing
or of another type.

The conversation:

1. `Config` (judge -> fork server, once). Blobs: the seccomp program's shared part and its
   per-run part (sandbox/seccomp.py), or none where the binding is missing.
2. `Hello` (fork server -> judge, once): it serves from here.
3. `Task` (judge -> fork server), kind:
   - `compile`: parse and compile the file (blob: its source); no code of it runs.
   - `check`: import it and look up `method`, before any test input is in the sandbox.
   - `run`: one test's call (blobs: the arguments' arrays, `args` says how to rebuild them);
     several may be in flight, each reported with its `id`.
   - `interact`: construct, then one call per row that the judge writes to the run's rows pipe;
     answers come back on the answers pipe. While it steps the judge may send `Control`
     messages: `judge_time` (how much of the wall clock so far was the judge's turn, from an
     answer to the next row) and `end` (no more rows: a short grace, then a kill).
4. `Status` (fork server -> judge, once a task's child is reaped). Blobs: the result bytes (the
   run wrote them: untrusted) and the start of its captured output.

The result bytes (run -> judge, through the fork server unread) are a JSON header line, then the
returned array's float64 bytes: `Result` (runner.py writes it; `compile` answers `Compiled`).
The run can write there itself, so the judge reads them with `read_result` and `read_compiled`,
which never raise: a header that is not one of these reads as None.

A warm sandbox (`Config.sessions`, kept by a worker across submissions) adds two tasks around each
submission's: `session` (the fork server forks a session process that reads and serves the
submission's tasks, while the fork server itself waits and never reads a byte of any submission)
and `release` (the session kills its runs still in flight and exits; the fork server, once it
has reaped it, answers `Released` and reads the next `session`).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

M = TypeVar("M")
MAX_HEADER_BYTES = 64 << 10  # of a result header: a longer one is unreadable
MAX_TEXT = 4000  # characters kept of a result's message or traceback
MAX_DIMS = 32


class TaskKind(StrEnum):
    """What a `Task` asks (the conversation above)."""

    COMPILE = "compile"
    CHECK = "check"
    RUN = "run"
    INTERACT = "interact"
    SESSION = "session"
    RELEASE = "release"


class ControlKind(StrEnum):
    """What the judge says to an interactive run's fork server while it steps."""

    END = "end"
    JUDGE_TIME = "judge_time"


class EndedFor(StrEnum):
    """Why the fork server killed a run (clock.py), when it did not end by itself."""

    CPU = "cpu"
    SLEEPING = "sleeping"
    BUSY = "busy"
    LINGERING = "lingering"


KINDS = tuple(TaskKind)
ENDED_FOR = tuple(EndedFor)


class ResultStatus(StrEnum):
    """How a run's call ended, in its own words (runner.py)."""

    OK = "ok"  # it returned an array (`shape`), or an import check or an interactive run finished
    INVALID = "invalid"  # it returned something that is not an array of numbers (`message` says why)
    EXCEPTION = "exception"  # it raised (`phase`, `type`, `message`, `traceback`)
    MEMORY = "memory"  # it raised MemoryError (`phase`, `message`)
    LOOKUP = "lookup"  # no class Solution, or no such method (`message`)
    CONSTRUCTED = "constructed"  # an interactive run's first frame: Solution(*args) succeeded


class Phase(StrEnum):
    """Where a run was when it raised; an interactive run's call for row t is the phase "step t"."""

    COMPILE = "compile"
    IMPORT = "import"
    LOOKUP = "lookup"
    INIT = "init"
    CALL = "call"
    RETURN = "return"


STEP = "step "  # the prefix of an interactive call's phase: "step 3"


@dataclass
class Limits:
    """What a task's child may use; clock.py enforces the three times, walls.py the rest."""

    cpu_ms: int  # CPU time from the file's import on
    wall_ms: int  # wall-clock time neither running nor waiting for a CPU (sleeping)
    cap_ms: int  # plain wall-clock time: past it the machine, not the run, is blamed
    memory_bytes: int
    address_slack_bytes: int  # address space beyond the memory limit (thread stacks, arenas)
    tasks: int  # tasks (threads) the run may start
    file_bytes: int  # stdout + stderr
    output_keep_bytes: int  # what of the output comes back
    result_bytes: int  # what of the result comes back
    contended_cpu_ms: int = 0  # CPU time a run held back by other work may reach before it is ended
    contended_share: float = 1.0  # held back: waiting for a CPU this share of its wall clock (clock.py)


@dataclass
class Config:
    site: list[str]  # folders to put on sys.path (numpy's)
    run_uids: list[int]  # the uids runs execute as: a box's when the judge is root
    own_uids: bool  # each run has one of run_uids to itself (its task cap is then its own)
    landlock: bool | str  # True: required; "if-available": inside bubblewrap; False: none
    readable: list[str]  # what Landlock leaves readable
    step_fds: list[int]  # an interactive run's rows (read) and answers (write) pipe ends
    preload: list[str] = field(default_factory=list)  # modules to import before serving
    require_seccomp: bool = True
    seccomp_offsets: list[int] = field(default_factory=list)  # where a run writes its pid in its part
    sessions: bool = False  # a warm sandbox: each submission is served by a session process (above)


@dataclass
class Hello:
    seccomp: bool  # the filter is loaded in every child
    landlock: int  # the kernel's Landlock ABI (0: none)
    landlocked: bool  # every child in a Landlock domain of its own
    uid: int  # the fork server's
    python: str
    numpy: str


@dataclass
class Task:
    kind: TaskKind
    limits: Limits
    id: int | None = None  # run: reported back with its Status
    method: str | None = None  # check, run, interact
    filename: str | None = None  # compile: the name tracebacks show
    args: list[dict[str, Any]] = field(default_factory=list)  # run, interact: {"kind": "value", "value"} or
    # {"kind": "array", "dtype", "shape", "blob": index into the blobs}


@dataclass
class Control:
    kind: ControlKind
    ms: float = 0.0  # judge_time: the judge's turns so far


@dataclass
class Released:
    """The fork server's answer to `release`, once the session is gone (after any run's Status the
    session had sent): the next task is read by the fork server."""

    released: bool = True


@dataclass
class Status:
    """What the operating system said about a task's child, and what the fork server saw."""

    cpu_ms: float  # user + system, less what the child had used when its walls were up
    user_ms: float
    wall_ms: float
    peak_rss_kb: int  # wait4's peak
    base_rss_kb: int  # resident size when the walls were up: the run's own memory is above it
    output_size: int
    output_lines: int
    setup_error: str | None = None  # the walls did not go up (nothing of the submission ran)
    ended_for: EndedFor | None = None  # None when it ended by itself
    exit_code: int | None = None
    signal: int | None = None
    judge_ended: bool = False  # interactive: the judge said `end` before it ended
    id: int | None = None  # the Task's
    waited_ms: float = 0.0  # time it waited for a CPU (clock.py, waited_ms)
    contended: bool = False  # other work held it back (clock.py, contended)


@dataclass
class Result:
    """A run's result header, the line before its returned array's bytes: the run's own claim."""

    status: ResultStatus
    phase: str | None = None  # a Phase, or STEP and the step's number
    type: str | None = None  # the exception's class name
    message: str | None = None
    traceback: str | None = None  # the submission's own frames
    shape: list[int] | None = None  # ok: the returned array's, its float64 bytes after the line
    steps: int | None = None  # an interactive run that finished: the steps it answered

    def step(self) -> int | None:
        """The interactive step the run raised in, from its phase."""
        phase = self.phase or ""
        return int(phase[len(STEP):]) if phase.startswith(STEP) and phase[len(STEP):].isdigit() else None


@dataclass
class Compiled:
    """The answer to `compile`: the methods of a top-level class Solution, or why it does not compile."""

    ok: bool
    methods: list[str] = field(default_factory=list)
    error: str | None = None


_SIMPLE: dict[str, tuple[type, ...]] = {"int": (int,), "float": (int, float), "bool": (bool,), "str": (str,),
                                        "None": (type(None),), "dict": (dict,),
                                        "dict[str, Any]": (dict,)}


def to_wire(message: Any) -> dict[str, Any]:
    """A message as its JSON header; a `Result` with the fields it has, no more (every run writes one)."""
    if isinstance(message, Result):
        return {f.name: value for f in dataclasses.fields(message) if (value := getattr(message, f.name)) is not None}
    return dataclasses.asdict(message)


def from_wire(cls: type[M], data: object) -> M:
    """An instance of `cls` from a header, its fields checked against their annotations."""
    if not isinstance(data, dict):
        raise ValueError(f"{cls.__name__}: not an object")
    values = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]  # cls is one of the dataclasses above
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{cls.__name__} has no {f.name}")
            continue
        values[f.name] = _checked(cls.__name__, f.name, str(f.type), data[f.name])  # postponed: a string
    return cls(**values)


def _checked(owner: str, name: str, annotation: str, value: object) -> object:
    if annotation in _NESTED:
        return from_wire(_NESTED[annotation], value)
    for option in annotation.split(" | "):
        if option.startswith("list[") and type(value) is list:
            inner = _SIMPLE[option[5:-1]]
            if all(type(item) in inner for item in value):
                return value
        elif option in _ENUMS and type(value) is str and value in _ENUMS[option].__members__.values():
            return _ENUMS[option](value)
        elif option in _SIMPLE and type(value) in _SIMPLE[option]:
            if option == "float" and value != value:  # NaN
                continue
            return value
    raise ValueError(f"{owner}.{name} is not {annotation}")


_NESTED: dict[str, type] = {"Limits": Limits}
_ENUMS: dict[str, type[StrEnum]] = {"TaskKind": TaskKind, "ControlKind": ControlKind, "EndedFor": EndedFor,
                                    "ResultStatus": ResultStatus}


def result_header(result: Result) -> bytes:
    """A result's header line, as runner.py writes it (the judge writes one for a step's answer
    over its size limit)."""
    return json.dumps(to_wire(result)).encode() + b"\n"


def read_result(raw: bytes) -> tuple[Result | None, bytes]:
    """A run's result bytes as its header and the array bytes after it. Never raises, whatever the
    bytes: a header that is unreadable, too long or of an unknown status is None, and a field of
    another type than declared reads as absent (a text cut to MAX_TEXT characters)."""
    data, payload = _header(raw)
    status = data.get("status") if data is not None else None
    if data is None or type(status) is not str or status not in ResultStatus.__members__.values():
        return None, payload
    shape = data.get("shape")
    if not (type(shape) is list and len(shape) <= MAX_DIMS and all(type(n) is int for n in shape)):
        shape = None
    steps = data.get("steps")
    return Result(ResultStatus(status), phase=_text(data, "phase"), type=_text(data, "type"),
                  message=_text(data, "message"), traceback=_text(data, "traceback"), shape=shape,
                  steps=steps if type(steps) is int else None), payload


def read_compiled(raw: bytes) -> Compiled | None:
    """The compile child's answer, never raising: None when it is not one."""
    data, _ = _header(raw)
    ok = data.get("ok") if data is not None else None
    if data is None or not isinstance(ok, bool):
        return None
    methods = data.get("methods")
    return Compiled(ok, [m for m in methods if type(m) is str] if type(methods) is list else [],
                    _text(data, "error"))


def _header(raw: bytes) -> tuple[dict[str, object] | None, bytes]:
    head, _, payload = raw.partition(b"\n")
    if len(head) > MAX_HEADER_BYTES:
        return None, payload
    try:
        data = json.loads(head)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None, payload
    return (data if isinstance(data, dict) else None), payload


def _text(data: dict[str, object], key: str) -> str | None:
    value = data.get(key)
    return value[:MAX_TEXT] if type(value) is str else None
