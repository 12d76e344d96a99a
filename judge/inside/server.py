"""The fork server: started once per submission inside the sandbox, it never holds an expected output.

It receives its configuration, warms up numpy, then serves three kinds of task, each in a forked
child that walls itself in (walls.py) before anything else: `compile` (parse and compile the
file, no code of it runs: problem detection and compile errors), `check` (import the file and find
the method, before any test input is here: the only source of CE), and `run` (one test's inputs,
the method called, the result bytes written back). For every child it reports what the operating
system says (wait4's CPU time and peak memory, exit status), whether the walls went up (read from a
pipe the submission never holds), and the child's raw result and output bytes, unparsed.
`run` tasks may overlap (the judge sends as many as it has lanes): their children are watched
together and each report carries its task's id; every other task runs alone.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import struct
import sys
import time
from typing import NamedTuple

import interactive  # the judge's boot command puts this folder on the path (judge/sandbox.py, _boot)
import walls
import wire
from clock import Clock
from runner import Runner, compile_only

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one BLAS thread: CPU time is then the work, not the threads' spinning
# No transparent huge pages for numpy's large arrays: where the kernel compacts memory on demand
# (defrag=madvise), a run's first large array could cost it 100+ ms of system time, or nothing,
# depending on how fragmented the machine's memory happens to be. Small pages cost the same
# every time, and the peak memory then counts pages touched, not 2 MiB blocks.
os.environ["NUMPY_MADVISE_HUGEPAGE"] = "0"


def main() -> None:
    # The protocol moves to private descriptors; fd 0 and 1 become harmless, so a stray print
    # (from numpy's import, say) cannot corrupt a frame.
    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    walls.prctl(4, 0)  # PR_SET_DUMPABLE 0: no run can read or write this process through /proc

    config, blobs = wire.receive(proto_in)
    sys.path[:0] = [str(p) for p in config.get("site", [])]
    # the seccomp program in two parts, built once by the judge (judge/seccomp.py, seccomp_program,
    # says why): the shared one this process loads before it serves, and each run's own
    shared = bpf = None
    if len(blobs) == 2 and "seccomp_offsets" in config:
        shared, bpf = blobs[0], (blobs[1], tuple(config["seccomp_offsets"]))
    import numpy

    for name in config.get("preload", []):
        __import__(name)
    landlock = config.get("landlock")  # True: required (no namespaces); "if-available": inside bubblewrap
    if landlock is True or (landlock == "if-available" and walls.landlock_abi() >= 1):
        config["ruleset"] = walls.landlock_ruleset(config.get("readable", []))
    if shared is not None:  # from here on, this process too is refused what it never needs
        walls.load_filter((shared, ()), 0)
    wire.send(proto_out, {
        "ready": True,
        "seccomp": bpf is not None,
        "landlock": walls.landlock_abi(),
        "landlocked": "ruleset" in config,  # every child in a domain of its own: none can reach another
        "uid": os.geteuid(),
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
    })
    source, filename, code = b"", "submission.py", None
    runs = _Runs(config, bpf, (proto_in, proto_out))
    while True:
        runs.serve(until_readable=proto_in)
        try:
            header, blobs = wire.receive(proto_in)
        except (EOFError, ValueError):
            os._exit(0)  # the judge is done: no interpreter teardown to wait for
        kind = header.get("kind")
        if kind == "compile":
            source, filename, code = blobs[0], header["filename"], None
        if kind in ("compile", "check", "run", "interact"):
            task = {"kind": kind, "source": source, "filename": filename, "method": header.get("method"),
                    "code": code, "args": (header.get("args", []) if kind != "compile" else [], blobs)}
            if kind == "run":  # alongside other runs: reported with its id when done
                runs.start(task, header["limits"], header.get("id"))
                continue
            runs.serve(until_readable=None)  # the judge sends nothing else while runs are in flight
            status, result, output = _supervise(task, header["limits"], config, bpf, (proto_in, proto_out))
            if kind == "compile":
                result, code = _compiled(result)
            wire.send(proto_out, dict(status, event="final"), [result, output])
            if kind == "interact" and not status["judge_ended"]:
                interactive.await_end(proto_in)
        else:
            return


def _compiled(result: bytes):
    """Split the compile child's answer: its report for the judge, its code object for the runs.
    Anything unexpected (the child crashed or ran out of time) leaves each run to compile."""
    import marshal

    head, _, body = result.partition(b"\n")
    try:
        code = marshal.loads(body) if body else None
    except (EOFError, ValueError, TypeError):
        code = None
    return head + b"\n", code if isinstance(code, type(_compiled.__code__)) else None


def _decode_args(specs: list[dict], blobs: list[bytes]) -> list:
    """Rebuild the arguments as the plain lists and ints a JSON decoder would have produced.

    Done in the run's child once it has left root, before its rlimits and baselines are set:
    a large test's lists (~0.5 M floats for masked's largest) then never sit in this process,
    where they held up the other lane's fork and report and made every fork copy more, and
    the run's own objects are its own, not copy-on-write pages of this process's."""
    import numpy as np

    args = []
    for spec in specs:
        if spec["kind"] == "value":
            args.append(spec["value"])
        else:
            array = np.frombuffer(blobs[spec["blob"]], dtype=spec["dtype"]).reshape(spec["shape"])
            args.append(array.tolist())
    return args


_UIDS_IN_USE: set[int] = set()


def _take_uid(config: dict) -> int:
    """The uid a child's run executes as: a free one of the box when the judge is root (each
    run's task cap is then its own), else the one uid a user's runs have."""
    if not config.get("own_uids"):
        return config["run_uids"][0]
    uid = next(u for u in config["run_uids"] if u not in _UIDS_IN_USE)
    _UIDS_IN_USE.add(uid)
    return uid


class _Child:
    """One task's child: forked with its walls going up, then watched; `finish` reaps it and
    gathers what the operating system and the child's descriptors say about it."""

    def __init__(self, task: dict, limits: dict, config: dict, bpf, protocol: tuple[int, int]):
        self.limits = limits
        self.result_fd = os.memfd_create("result")
        self.output_fd = os.memfd_create("output")
        self.base_r, base_w = os.pipe()
        steps = config.get("step_fds", ()) if task["kind"] == "interact" else ()  # (rows in, answers out)
        if steps:
            wire.drain(steps[0])  # rows sent to an earlier run that had died
        self.setup = b""  # the child's word on its walls, read as it comes (`_Base`)
        self.ended_for: str | None = None  # why it was killed: a Clock reason, or "lingering"
        self.ended = False  # interactive: the judge said `end`; a kill after that is for lingering
        self.grace_end = None  # then: when its grace to exit is over
        self.uid = _take_uid(config)
        self.pid = os.fork()
        if self.pid == 0:  # the child never returns from here
            os.close(self.base_r)
            task = dict(task, uid=self.uid, **({"step_in": steps[0], "step_out": steps[1]} if steps else {}))
            _child(task, limits, config, bpf, self.result_fd, self.output_fd, base_w, protocol)
        os.close(base_w)
        os.set_blocking(self.base_r, False)
        self.clock = Clock(limits, self.pid, steps[1] if steps else None)
        try:
            self.pidfd = os.pidfd_open(self.pid)
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
            return self.kill("lingering")
        reason = self.clock.check(now, self.base().cpu_ms)
        if reason is not None:
            self.kill(reason)

    def kill(self, reason: str) -> None:
        os.kill(self.pid, signal.SIGKILL)
        self.ended_for = reason

    def end(self) -> None:
        """The judge said `end`: a short grace to see the end frame and exit, then a kill."""
        self.ended = True
        self.grace_end = time.monotonic() + interactive.ENDED_GRACE_S

    def base(self) -> _Base:
        """The baseline the child wrote once its walls were up (zeros until then)."""
        self._read_setup()
        base, _ = _parse_setup(self.setup, complete=False)
        return base

    def _read_setup(self) -> None:
        while len(self.setup) < 4096:
            try:
                chunk = os.read(self.base_r, 4096)
            except BlockingIOError:
                return
            if not chunk:
                return
            self.setup += chunk

    def finish(self) -> tuple[dict, bytes, bytes]:
        # The walls' word is read only now, whole: the child wrote it (8 bytes, or a short failure)
        # into a pipe's buffer and never waits on it, so no child can hold the fork server here.
        _, wait_status, usage = os.wait4(self.pid, 0)
        _UIDS_IN_USE.discard(self.uid)  # every task of it has ended: the uid is free again
        self._read_setup()
        os.close(self.base_r)
        base, setup_error = _parse_setup(self.setup, complete=True)
        if self.pidfd is not None:
            os.close(self.pidfd)
        wall_ms = (time.monotonic() - self.clock.start) * 1000
        limits = self.limits
        result = os.pread(self.result_fd, limits["result_bytes"], 0)
        output_size = os.fstat(self.output_fd).st_size
        output_lines = _count_lines(self.output_fd, output_size)
        output = os.pread(self.output_fd, limits["output_keep_bytes"], 0)
        os.close(self.result_fd)
        os.close(self.output_fd)
        status = {  # the run's own CPU time: from the moment the file's import begins
            "cpu_ms": max(0.0, (usage.ru_utime + usage.ru_stime) * 1000 - base.cpu_ms),
            "user_ms": max(0.0, usage.ru_utime * 1000 - base.user_ms),
            "wall_ms": wall_ms,
            "peak_rss_kb": usage.ru_maxrss,
            "base_rss_kb": base.rss_kb,
            "setup_error": setup_error,
            "ended_for": self.ended_for,
            "exit_code": os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else None,
            "signal": os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else None,
            "output_size": output_size,
            "output_lines": output_lines,
            "judge_ended": self.ended,
        }
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
    the run is charged from there. Its resident size (a forked child inherits its parent's pages,
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


def _supervise(task: dict, limits: dict, config: dict, bpf, protocol: tuple[int, int]):
    """One task on its own (compile, check, interact). While an interactive run steps, the judge
    tells how much of the wall clock was its own turn (`judge_ms`), and its `end` leaves the
    child a short grace to see its end frame and exit before it is killed."""
    child = _Child(task, limits, config, bpf, protocol)
    judge_fd = protocol[0] if task["kind"] == "interact" else None
    while True:
        done, ready = _wait([child], [judge_fd] if judge_fd is not None and not child.ended else [])
        if done:
            return child.finish()
        if ready:
            message = interactive.receive(judge_fd, child.pid)
            if message.get("kind") == "end":
                child.end()
            elif message.get("kind") == "judge_time":
                child.clock.judge_ms = float(message.get("ms", 0.0))


class _Runs:
    """The `run` tasks in flight, each a child on its own core (the judge sends no more than the
    lanes it asked for); each one's report goes back with its id as soon as it is done."""

    def __init__(self, config: dict, bpf, protocol: tuple[int, int]):
        self.config, self.bpf, self.protocol = config, bpf, protocol
        self.children: dict[int, _Child] = {}
        self.ids: dict[_Child, object] = {}

    def start(self, task: dict, limits: dict, task_id) -> None:
        child = _Child(task, limits, self.config, self.bpf, self.protocol)
        self.children[child.pid] = child
        self.ids[child] = task_id

    def serve(self, until_readable: int | None) -> None:
        """Report runs as they end, until `until_readable` has something (a new task), or, with
        None, until none is left."""
        while self.children:
            done, ready = _wait(list(self.children.values()), [until_readable] if until_readable is not None else [])
            for child in done:
                del self.children[child.pid]
                status, result, output = child.finish()
                wire.send(self.protocol[1], dict(status, event="final", id=self.ids.pop(child)), [result, output])
            if ready:
                return


def _child(task, limits, config, bpf, result_fd, output_fd, base_fd, protocol) -> None:
    try:
        for fd in protocol:
            os.close(fd)
        walls.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: gone with the fork server
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        ruleset = config.get("ruleset")
        keep = {0, 1, 2, base_fd, result_fd, ruleset if ruleset is not None else 0}
        walls.close_all_but(keep | {task[k] for k in ("step_in", "step_out") if k in task})
        walls.leave_root(task["uid"])
        walls.steady_allocator()
        args = _decode_args(*task["args"])
        walls.set_limits(limits, own_uid=config.get("own_uids", False))
        base_rss_kb = walls.memory_baseline()
        if ruleset is not None:
            walls.landlock_restrict(ruleset)
        if bpf is not None:
            walls.load_filter(bpf, os.getpid())
        elif config.get("require_seccomp", True):
            raise OSError("the seccomp binding is missing")
        runner = Runner(result_fd, task["filename"])
        os.write(base_fd, _base_now(base_rss_kb))
        os.close(base_fd)
    except BaseException as exc:  # the walls failed: say so on the pipe and run nothing
        try:
            os.write(base_fd, b"F" + repr(exc).encode()[:2000])
        finally:
            os._exit(121)
    if task["kind"] == "compile":
        report, code = compile_only(task["source"], task["filename"])
        runner.finish_raw(runner.dumps(report).encode() + b"\n" + code)
    elif task["kind"] == "check":
        runner.check(task["source"], task["method"], task["code"])
    elif task["kind"] == "interact":
        runner.interact(task["source"], task["method"], args, task["code"], task["step_in"], task["step_out"])
    else:
        runner.run(task["source"], task["method"], args, task["code"])
    os._exit(0)
