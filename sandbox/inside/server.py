"""The fork server: started once per submission inside the sandbox, it never holds an expected output.

It receives its `Config`, warms up numpy, says `Hello`, then serves `Task`s (protocol.py), each
in a forked child that walls itself in (walls.py) before anything else. For every child it
reports a `Status`: what the operating system says (wait4's CPU time and peak memory, exit
status), whether the walls went up (read from a pipe the submission never holds), why the clock
ended it (clock.py), and the child's raw result and output bytes, unparsed. `run` tasks may
overlap (the judge sends as many as it has lanes): their children are watched together; every
other task runs alone.
"""

from __future__ import annotations

import marshal
import os
import resource
import select
import signal
import struct
import sys
import time
from typing import NamedTuple, cast

import interactive  # the judge's boot command puts this folder on the path (sandbox/launch.py, _boot)
import walls
import wire
from clock import Clock
from protocol import Config, ControlKind, EndedFor, Hello, Released, Status, Task, TaskKind, from_wire, to_wire
from runner import Runner, compile_only

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one BLAS thread: CPU time is then the work, not the threads' spinning
# Small pages for numpy's large arrays: the cost of a run's first large array then does not hang
# on how fragmented the machine's memory is (docs/sandbox.md), and peak memory counts pages touched.
os.environ["NUMPY_MADVISE_HUGEPAGE"] = "0"


class Server:
    """The fork server's state: its configuration, the seccomp parts, the file being judged (its
    source, and its code object once compiled, which every later child starts from)."""

    def __init__(self, config: Config, shared: bytes | None, per_run: tuple[bytes, tuple[int, ...]] | None,
                 protocol: tuple[int, int]):
        self.config, self.shared, self.per_run, self.protocol = config, shared, per_run, protocol
        self.ruleset: int | None = None
        self.source, self.filename, self.code = b"", "submission.py", None
        self.uids_in_use: set[int] = set()
        self.in_session = False  # a warm sandbox's session process (protocol.py): serves one submission

    def take_uid(self) -> int:
        """A run's uid: a free one of the box when the judge is root (each run's task cap is then
        its own), else the one uid a user's runs have."""
        if not self.config.own_uids:
            return self.config.run_uids[0]
        uid = next(u for u in self.config.run_uids if u not in self.uids_in_use)
        self.uids_in_use.add(uid)
        return uid


def main() -> None:
    # The protocol moves to private descriptors; fd 0 and 1 become harmless, so a stray print
    # (from numpy's import, say) cannot corrupt a frame.
    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    walls.prctl(walls.PR_SET_DUMPABLE, 0)  # no run can read or write this process through /proc

    header, blobs = wire.receive(proto_in)
    config = from_wire(Config, header)
    sys.path[:0] = config.site
    shared = per_run = None
    if len(blobs) == 2 and config.seccomp_offsets:
        shared, per_run = blobs[0], (blobs[1], tuple(config.seccomp_offsets))
    server = Server(config, shared, per_run, (proto_in, proto_out))
    import numpy

    for name in config.preload:
        __import__(name)
    if config.landlock is True or (config.landlock == "if-available" and walls.landlock_abi() >= 1):
        server.ruleset = walls.landlock_ruleset(config.readable)
    if shared is not None:  # from here on, this process too is refused what it never needs
        walls.load_filter((shared, ()), 0)
    wire.send(proto_out, to_wire(Hello(seccomp=per_run is not None, landlock=walls.landlock_abi(),
                                       landlocked=server.ruleset is not None, uid=os.geteuid(),
                                       python=sys.version.split()[0], numpy=numpy.__version__)))
    runs = _Runs(server)
    while True:
        runs.serve(until_readable=proto_in)
        try:
            header, blobs = wire.receive(proto_in)
            task = from_wire(Task, header)
        except (EOFError, ValueError):
            os._exit(0)  # the judge is done (or talks nonsense): no interpreter teardown to wait for
        if task.kind == TaskKind.SESSION and config.sessions and not server.in_session:
            _session(server, proto_out)  # returns in the session process; the fork server waits in there
            continue
        if task.kind == TaskKind.RELEASE and server.in_session:
            runs.kill_all()
            os._exit(0)  # the fork server answers once this process is gone
        if task.kind in (TaskKind.SESSION, TaskKind.RELEASE):
            os._exit(1)  # out of turn: the judge sees its sandbox lost and starts another
        if task.kind == TaskKind.COMPILE:
            server.source, server.filename, server.code = blobs[0], task.filename or "submission.py", None
        if task.kind == TaskKind.RUN:  # alongside other runs: reported with its id when done
            runs.start(task, blobs)
            continue
        runs.serve(until_readable=None)  # the judge sends nothing else while runs are in flight
        status, result, output = _supervise(server, task, blobs)
        if task.kind == TaskKind.COMPILE:
            result, server.code = _compiled(result)
        wire.send(proto_out, to_wire(status), [result, output])
        if task.kind == TaskKind.INTERACT and not status.judge_ended:
            interactive.await_end(proto_in)


def _session(server: Server, proto_out: int) -> None:
    """Fork the process that serves one submission, and return in it; here, wait until it exits and
    answer `Released`. The fork server thus never reads a byte of any submission, no session starts
    from another's memory, and none is left when the judge hears that it ended."""
    pid = os.fork()
    if pid == 0:
        walls.prctl(walls.PR_SET_PDEATHSIG, signal.SIGKILL)  # gone with the fork server
        server.in_session = True
        return
    _, status = os.waitpid(pid, 0)
    if status != 0:  # it died unreleased: the judge sees its sandbox lost and starts another
        os._exit(1)
    try:
        wire.send(proto_out, to_wire(Released()))
    except OSError:  # the judge is gone
        os._exit(0)


def _compiled(result: bytes):
    """Split the compile child's answer: its report for the judge, its code object for the runs.
    Anything unexpected (the child crashed or ran out of time) leaves each run to compile."""
    head, _, body = result.partition(b"\n")
    try:
        code = marshal.loads(body) if body else None
    except (EOFError, ValueError, TypeError):
        code = None
    return head + b"\n", code if isinstance(code, type(_compiled.__code__)) else None


def _decode_args(specs: list[dict], blobs: list[bytes]) -> list:
    """The arguments as the plain lists and ints a JSON decoder would have produced, rebuilt in the
    run's child once it has left root: they are then the run's own objects, never this process's."""
    import numpy as np

    args = []
    for spec in specs:
        if spec["kind"] == "value":
            args.append(spec["value"])
        else:
            array = np.frombuffer(blobs[spec["blob"]], dtype=spec["dtype"]).reshape(spec["shape"])
            args.append(array.tolist())
    return args


class _Child:
    """One task's child: forked with its walls going up, then watched; `finish` reaps it and
    gathers what the operating system and the child's descriptors say about it."""

    def __init__(self, server: Server, task: Task, blobs: list[bytes]):
        self.server, self.task = server, task
        self.result_fd = os.memfd_create("result")
        self.output_fd = os.memfd_create("output")
        self.base_r, base_w = os.pipe()
        steps = server.config.step_fds if task.kind == TaskKind.INTERACT else []  # (rows in, answers out)
        if steps:
            wire.drain(steps[0])  # rows sent to an earlier run that had died
        self.setup = b""  # the child's word on its walls, read as it comes (`_Base`)
        self.ended_for: EndedFor | None = None  # why it was killed: a Clock reason, or lingering
        self.ended = False  # interactive: the judge said `end`; a kill after that is for lingering
        self.grace_end: float | None = None  # then: when its grace to exit is over
        self.uid = server.take_uid()
        self.pid = os.fork()
        if self.pid == 0:  # the child never returns from here
            os.close(self.base_r)
            _child(server, task, blobs, self.uid, self.result_fd, self.output_fd, base_w, steps)
        os.close(base_w)
        os.set_blocking(self.base_r, False)
        self.clock = Clock(task.limits, self.pid, steps[1] if steps else None)
        try:
            self.pidfd: int | None = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            self.pidfd = None

    @property
    def next_check(self) -> float:
        return self.clock.next_check if self.grace_end is None else min(self.clock.next_check, self.grace_end)

    def exited(self) -> bool:
        """Without a pidfd: has it exited? (WNOWAIT leaves it for wait4, which reads its usage)"""
        return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None

    def check(self, now: float) -> None:
        """Kill it if its time is up (clock.py says when); a lingering one once its grace is over."""
        if self.ended_for is not None or now < self.next_check:
            return
        if self.grace_end is not None and now >= self.grace_end:
            return self.kill(EndedFor.LINGERING)
        reason = self.clock.check(now, self.base().cpu_ms)
        if reason is not None:
            self.kill(reason)

    def kill(self, reason: str) -> None:
        os.kill(self.pid, signal.SIGKILL)
        self.ended_for = EndedFor(reason)

    def end(self) -> None:
        """The judge said `end`: a short grace to see the end frame and exit, then a kill."""
        self.ended = True
        self.grace_end = time.monotonic() + interactive.ENDED_GRACE_S

    def base(self) -> _Base:
        """The baseline the child wrote once its walls were up (zeros until then)."""
        self._read_setup()
        return _parse_setup(self.setup, complete=False)[0]

    def _read_setup(self) -> None:
        while len(self.setup) < 4096:
            try:
                chunk = os.read(self.base_r, 4096)
            except BlockingIOError:
                return
            if not chunk:
                return
            self.setup += chunk

    def finish(self) -> tuple[Status, bytes, bytes]:
        if self.clock.over_limit(self.base().cpu_ms):  # its wait for a CPU counts then: read it before wait4
            self.clock.look()  # takes the last task with it
        _, wait_status, usage = os.wait4(self.pid, 0)
        self.server.uids_in_use.discard(self.uid)  # every task of it has ended: the uid is free again
        self._read_setup()  # whole now: the child wrote it into the pipe's buffer and never waits on it
        os.close(self.base_r)
        base, setup_error = _parse_setup(self.setup, complete=True)
        if self.pidfd is not None:
            os.close(self.pidfd)
        limits = self.task.limits
        wall_ms = (time.monotonic() - self.clock.start) * 1000
        cpu_ms = max(0.0, (usage.ru_utime + usage.ru_stime) * 1000 - base.cpu_ms)
        result = os.pread(self.result_fd, limits.result_bytes, 0)
        output_size = os.fstat(self.output_fd).st_size
        output_lines = _count_lines(self.output_fd, output_size)
        output = os.pread(self.output_fd, limits.output_keep_bytes, 0)
        os.close(self.result_fd)
        os.close(self.output_fd)
        status = Status(  # the run's own CPU time: from the moment the file's import begins
            cpu_ms=cpu_ms, user_ms=max(0.0, usage.ru_utime * 1000 - base.user_ms), wall_ms=wall_ms,
            peak_rss_kb=usage.ru_maxrss, base_rss_kb=base.rss_kb,
            output_size=output_size, output_lines=output_lines,
            setup_error=setup_error, ended_for=self.ended_for,
            exit_code=os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else None,
            signal=os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else None,
            judge_ended=self.ended, id=self.task.id, waited_ms=self.clock.waited_ms,
            contended=self.clock.contended(cpu_ms, wall_ms),
        )
        return status, result, output


def _wait(children: list[_Child], watched: list[int]) -> tuple[list[_Child], list[int]]:
    """Wait until a child exits or a watched descriptor is readable, killing children whose time
    is up on the way (clock.py). Returns the children that are done, the ready descriptors."""
    while True:
        now = time.monotonic()
        for child in children:
            child.check(now)
        pidfds = [c.pidfd for c in children if c.pidfd is not None]
        polled = len(pidfds) < len(children)  # no pidfd here: look every 5 ms
        live = [c.next_check for c in children if c.ended_for is None]
        timeout = max(0.0, min(live) - now) if live else 1.0
        ready = select.select(pidfds + watched, [], [], min(timeout, 0.005) if polled else timeout)[0]
        done = [c for c in children if (c.pidfd in ready if c.pidfd is not None else c.exited())]
        if done or any(fd in ready for fd in watched):
            return done, [fd for fd in watched if fd in ready]


def _count_lines(fd: int, size: int) -> int:
    """Lines in the whole captured output (the judge only receives its start)."""
    lines, offset, last = 0, 0, b"\n"
    while offset < size:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            break
        lines += chunk.count(b"\n")
        offset += len(chunk)
        last = chunk[-1:]
    return lines + (last != b"\n")


class _Base(NamedTuple):
    """What the child had used when its walls were up, just before the submission's code runs:
    the run is charged from there. Its resident size (a forked child shares its parent's pages,
    so only a figure taken in the child separates the run's own memory), and its CPU time (the
    fork, decoding the arguments, the walls: the judge's work, not the run's)."""

    rss_kb: int = 0
    user_ms: float = 0.0
    cpu_ms: float = 0.0


_BASE = struct.Struct(">2sQQQ")  # b"OK", resident KiB, user and user+system CPU in microseconds


def _base_now(rss_kb: int) -> bytes:
    usage = resource.getrusage(resource.RUSAGE_SELF)  # what wait4 will say, to the microsecond
    return _BASE.pack(b"OK", rss_kb, round(usage.ru_utime * 1e6), round((usage.ru_utime + usage.ru_stime) * 1e6))


def _parse_setup(data: bytes, complete: bool) -> tuple[_Base, str | None]:
    """The child's word on its walls, from a pipe it closes before any submission code runs: its
    baseline (`_Base`) once they are up, or anything else when they did not go up and nothing of
    the submission ran. With `complete`, the pipe has been read to its end."""
    if len(data) == _BASE.size and data.startswith(b"OK"):
        _, rss_kb, user_us, cpu_us = _BASE.unpack(data)
        return _Base(rss_kb, user_us / 1000, cpu_us / 1000), None
    if not complete:
        return _Base(), None
    return _Base(), data[1:].decode(errors="replace") or "the child ended while putting up its walls"


def _supervise(server: Server, task: Task, blobs: list[bytes]) -> tuple[Status, bytes, bytes]:
    """One task on its own (compile, check, interact). While an interactive run steps, the judge
    tells how much of the wall clock was its own turn, and its `end` leaves the child a short
    grace to see its end frame and exit before it is killed."""
    child = _Child(server, task, blobs)
    judge_fd = server.protocol[0] if task.kind == TaskKind.INTERACT else None
    while True:
        done, ready = _wait([child], [judge_fd] if judge_fd is not None and not child.ended else [])
        if done:
            return child.finish()
        if ready:
            control = interactive.receive(ready[0], child.pid)  # judge_fd, the one watched
            if control.kind == ControlKind.END:
                child.end()
            elif control.kind == ControlKind.JUDGE_TIME:
                child.clock.judge_ms = control.ms


class _Runs:
    """The `run` tasks in flight, each a child on its own core (the judge sends no more than the
    lanes it asked for); each one's report goes back with its id as soon as it is done."""

    def __init__(self, server: Server):
        self.server = server
        self.children: dict[int, _Child] = {}

    def start(self, task: Task, blobs: list[bytes]) -> None:
        child = _Child(self.server, task, blobs)
        self.children[child.pid] = child

    def kill_all(self) -> None:
        """The submission is judged (released): runs still in flight end unreported, their uids free."""
        for child in self.children.values():
            child.kill("released")
            os.wait4(child.pid, 0)
        self.children.clear()

    def serve(self, until_readable: int | None) -> None:
        """Report runs as they end, until `until_readable` has something (a new task), or, with
        None, until none is left."""
        while self.children:
            done, ready = _wait(list(self.children.values()), [until_readable] if until_readable is not None else [])
            for child in done:
                del self.children[child.pid]
                status, result, output = child.finish()
                wire.send(self.server.protocol[1], to_wire(status), [result, output])
            if ready:
                return


def _child(server: Server, task: Task, blobs: list[bytes], uid: int, result_fd: int, output_fd: int,
           base_fd: int, steps: list[int]) -> None:
    """The forked child: the walls, in walls.py's order, then the task. Never returns."""
    try:
        for fd in server.protocol:
            os.close(fd)
        walls.prctl(walls.PR_SET_PDEATHSIG, signal.SIGKILL)  # gone with the fork server
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        ruleset = server.ruleset
        walls.close_all_but({0, 1, 2, base_fd, result_fd, *steps, *([ruleset] if ruleset is not None else [])})
        walls.leave_root(uid)
        walls.steady_allocator()
        args = _decode_args(task.args, blobs) if task.kind != TaskKind.COMPILE else []
        walls.set_limits(task.limits, own_uid=server.config.own_uids)
        base_rss_kb = walls.memory_baseline()
        if ruleset is not None:
            walls.landlock_restrict(ruleset)
        if server.per_run is not None:
            walls.load_filter(server.per_run, os.getpid())
        elif server.config.require_seccomp:
            raise OSError("the seccomp binding is missing")
        runner = Runner(result_fd, server.filename)
        os.write(base_fd, _base_now(base_rss_kb))
        os.close(base_fd)
    except BaseException as exc:  # the walls failed: say so on the pipe and run nothing
        try:
            os.write(base_fd, b"F" + repr(exc).encode()[:2000])
        finally:
            os._exit(121)
    method = cast(str, task.method)  # the judge names one in every check, run and interact task
    if task.kind == TaskKind.COMPILE:
        report, code = compile_only(server.source, server.filename)
        runner.finish_raw(runner.dumps(to_wire(report)).encode() + b"\n" + code)
    elif task.kind == TaskKind.CHECK:
        runner.check(server.source, method, server.code)
    elif task.kind == TaskKind.INTERACT:
        runner.interact(server.source, method, args, server.code, steps[0], steps[1])
    else:
        runner.run(server.source, method, args, server.code)
    os._exit(0)

