"""A submission's sandbox, as the judge drives it: a fork server behind its walls (launch.py),
tasks for it (tasks.py), the steps of an interactive run (steps.py). Use it with `with`: on the
way out no process of it is left. It starts in the background (an interpreter and numpy boot in
it, ~0.15 s), so the judge can load and read meanwhile; the first task waits for it."""

from __future__ import annotations

import os
import signal
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from sandbox.errors import SandboxLost, SandboxUnavailable
from sandbox.inside import protocol
from sandbox.inside.protocol import TaskKind
from sandbox.launch import CLOSE_GRACE_S, ForkServer, Launch
from sandbox.outcome import COMPILE_LIMITS, FILE_LIMIT_BYTES, Limits, RunOutcome
from sandbox.steps import Steps
from sandbox.tasks import Tasks
from sandbox.view import aliases, checkout_root, system_dirs, within

MAX_LANES = 2  # runs of one submission at once; each judging of the bundled ones is another
COMPILE_RESULT_BYTES = 32 << 20  # the compiled code object comes back with the compile's report
CHECK_RESULT_BYTES = 1 << 16


def run_label(path: Path | str) -> str:
    """What `ps` shows for a submission's sandbox: whose run it is, without any path in it."""
    data = str(path).encode()
    return f"attention-judge-{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def submission_sandbox(path: Path | str) -> Sandbox:
    """The sandbox a submission file is judged in (not yet started): named for it in `ps`, with
    the checkout (problems, solutions, practice files) hidden wherever it lies."""
    return Sandbox(label=run_label(path), secrets=[checkout_root()])


def sandbox_processes(path: Path | str) -> set[int]:
    """Pids of the processes of a submission's sandboxes still running (none, once judged)."""
    label = run_label(path).encode()
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if label in (entry / "cmdline").read_bytes():
                    found.add(int(entry.name))
            except OSError:
                pass
    return found


class Sandbox:
    def __init__(self, label: str = "", secrets: Sequence[Path | str] = (), warm: bool = False):
        """`label`: shown in `ps`; `secrets`: folders no run may see, wherever they lie. `warm`: kept
        across submissions, each served by a session process of its own that `release` ends (the
        fork server itself never holds a byte of any submission: inside/protocol.py)."""
        self.warm, self._in_session = warm, False
        self.label = label or run_label("")
        self.secrets = [str(Path(p).resolve()) for p in secrets]
        self.server: ForkServer | None = None
        self._tasks: Tasks | None = None
        self._starting: Launch | None = None

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        """Begin starting the fork server in the first mode that works (launch.py); `ready`, or the
        first task, waits for it and raises what stopped it."""
        if self._starting is None and self.server is None:
            self._starting = Launch(self.label, self.secrets, sessions=self.warm)

    def ready(self) -> ForkServer:
        if self.server is None:
            self.start()
            starting, self._starting = self._starting, None
            assert starting is not None  # start() began one
            self.server = starting.result()
            self._tasks = Tasks(self.server)
        return self.server

    @property
    def mode(self) -> str:
        return self.ready().mode

    @property
    def isolation(self) -> str:
        return self.ready().isolation

    @property
    def lanes(self) -> int:
        """How many runs may go at once: one per core this process may use, at most MAX_LANES,
        and only where every run is in a Landlock domain of its own (no run can then reach into
        another's memory through /proc while that one puts its walls up); otherwise one."""
        if not self.ready().await_hello().landlocked:  # said hello already: no wait
            return 1
        return max(1, min(MAX_LANES, len(os.sched_getaffinity(0))))

    def check_hidden(self, folder: Path | str) -> None:
        """Refuse to judge with tests from `folder` (a package given by its path) when this sandbox
        shows it: it was started hiding the checkout only. (JUDGE_SANDBOX=none hides nothing.)"""
        if self.mode == "none":
            return
        for alias in aliases(str(folder)):
            hidden = any(within(alias, h) for h in self.ready().hidden)
            for path, target in system_dirs():
                if target is None and within(alias, path) and not hidden:
                    raise SandboxUnavailable(f"{alias} lies inside {path}, which the sandbox shows: move the "
                                             "problem package out of the system's folders")

    def compile(self, source: bytes, filename: str) -> RunOutcome:
        """Parse and compile the file in a walled child (no code of it runs); the fork server keeps
        the code object for the runs."""
        task = protocol.Task(TaskKind.COMPILE, COMPILE_LIMITS.for_task(COMPILE_RESULT_BYTES), filename=filename)
        if self.warm and not self._in_session:  # this submission's session process serves from here
            try:
                self._live().post(protocol.Task(TaskKind.SESSION, COMPILE_LIMITS.for_task(0)))
            except SandboxLost:  # it died while it waited: closed, so that its owner starts another
                self.close()
                raise
            self._in_session = True
        return self._live().alone(task, [source])

    @property
    def alive(self) -> bool:
        """Started and not closed (a lost fork server's sandbox is closed by its judging)."""
        return self.server is not None or self._starting is not None

    def release(self) -> None:
        """A warm sandbox's submission is judged: its session ends, runs still in flight with it, and
        the fork server waits for the next. SandboxLost when it does not answer (then close it)."""
        if self._in_session:
            self._in_session = False
            self._live().release(protocol.Task(TaskKind.RELEASE, COMPILE_LIMITS.for_task(0)))

    def check(self, method: str, limits: Limits) -> RunOutcome:
        """Import the file and look up the method in a walled child, before any test input exists here."""
        return self._live().alone(protocol.Task(TaskKind.CHECK, limits.for_task(CHECK_RESULT_BYTES), method=method), [])

    def submit(self, task_id: int, method: str, args: tuple[list[dict], list[bytes]], limits: Limits,
               result_bytes: int) -> None:
        """Start a run alongside those in flight (at most `lanes`); `collect` gets its outcome."""
        specs, blobs = args
        self._live().submit(protocol.Task(TaskKind.RUN, limits.for_task(result_bytes), id=task_id, method=method,
                                          args=specs), blobs)

    def collect(self) -> tuple[int, RunOutcome]:
        """The next run in flight to end, whichever it is: (its id, its outcome)."""
        return self._live().collect()

    def interact(self, method: str, args: tuple[list[dict], list[bytes]], rows: list[bytes], limits: Limits,
                 result_bytes: int, on_step: Callable[[int, bytes], bool]) -> RunOutcome:
        """An interactive run: Solution(*args), then `method` with each of `rows` (float64 bytes)
        in turn (steps.py)."""
        specs, blobs = args
        self._live().settle()
        task = protocol.Task(TaskKind.INTERACT, limits.for_task(result_bytes, FILE_LIMIT_BYTES), method=method,
                             args=specs)
        return Steps(self.ready(), rows, result_bytes, on_step).run(task, blobs)

    def _live(self) -> Tasks:
        if self.server is None and self._starting is None:
            raise SandboxLost("the fork server is gone")
        self.ready()
        assert self._tasks is not None  # set with the server
        return self._tasks

    def close(self) -> None:
        self._in_session = False
        starting, self._starting = self._starting, None
        if starting is not None:  # started and never used: it ends here too
            starting.close()
        server, tasks = self.server, self._tasks
        self.server = self._tasks = None
        if server is None:
            return
        if tasks is not None and not tasks.close(CLOSE_GRACE_S / 5):
            try:  # the writer is stuck writing to a fork server that does not read: end it, so the
                os.killpg(server.proc.pid, signal.SIGKILL)  # write fails before its descriptor closes
            except (ProcessLookupError, PermissionError):
                pass
            tasks.close(None)
        server.close()
