"""The sandbox side of a judge run: a fork server that never holds an expected output.

This file runs inside the sandbox as a plain script (`python -I worker.py`), bound there alone:
it imports nothing from the kit, so the sandbox needs no view of the checkout. It warms up numpy
once, compiles the submission once, then for each test receives the inputs only, forks a child,
and reports what the operating system says about that child (wait4's CPU time and peak memory,
exit status) together with the child's raw result bytes. The child walls itself in (rlimits,
seccomp, no inherited channel back to the judge) before the first line of submission code runs.

Nothing reported by the child is trusted here or in the judge: it is data to be checked.

Wire format, both directions: frames of a 4-byte big-endian length and a payload. A message is
one JSON header frame followed by `header["blobs"]` binary frames.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import resource
import select
import signal
import struct
import sys
import time
import traceback

# Modules a submission commonly imports, loaded before any wall goes up: a child that has dropped
# to an unprivileged user may not be allowed to read the Python installation any more.
import bisect, cmath, collections, copy, dataclasses, decimal, fractions, functools, heapq, itertools, operator, random, re, statistics, typing  # noqa: E401,F401,E501

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"  # one BLAS thread: CPU time is then the work, not the threads' spinning

MAX_FRAME = 256 << 20
NOBODY = 65534
_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_CLONE_THREAD = 0x00010000


# ---------------------------------------------------------------------------------------------
# Framing, shared with the judge (judge/sandbox.py imports these three functions).


def write_frame(fd: int, payload: bytes) -> None:
    data = memoryview(struct.pack(">I", len(payload)) + payload)
    while data:
        data = data[os.write(fd, data):]


def read_frame(fd: int) -> bytes:
    size = struct.unpack(">I", _read_exact(fd, 4))[0]
    if size > MAX_FRAME:
        raise EOFError(f"frame of {size} bytes is over the limit")
    return _read_exact(fd, size)


def _read_exact(fd: int, n: int) -> bytes:
    parts, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise EOFError("channel closed")
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def send(fd: int, header: dict, blobs: list[bytes] = ()) -> None:
    header = dict(header, blobs=len(blobs))
    write_frame(fd, json.dumps(header).encode())
    for blob in blobs:
        write_frame(fd, blob)


def receive(fd: int) -> tuple[dict, list[bytes]]:
    header = json.loads(read_frame(fd))
    blobs = [read_frame(fd) for _ in range(int(header.get("blobs", 0)))]
    return header, blobs


# ---------------------------------------------------------------------------------------------
# The fork server.


def main() -> None:
    # The protocol moves to private descriptors; fd 0 and 1 become harmless, so a stray print
    # (from numpy's import, say) cannot corrupt a frame.
    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    _prctl(_PR_SET_DUMPABLE, 0)  # a child cannot read or write this process through /proc

    import numpy  # noqa: F401  (warm: every child starts with numpy loaded)

    seccomp = _seccomp_module()
    send(proto_out, {
        "ready": True,
        "seccomp": seccomp is not None,
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
    })
    code = filename = None
    while True:
        try:
            header, blobs = receive(proto_in)
        except EOFError:
            return
        kind = header.get("kind")
        if kind == "load":
            filename = header["filename"]
            try:
                code = compile(blobs[0].decode("utf-8"), filename, "exec", dont_inherit=True)
                send(proto_out, {"ok": True})
            except (SyntaxError, ValueError, UnicodeDecodeError) as exc:
                send(proto_out, {"ok": False, "error": _syntax_message(exc)})
        elif kind == "run":
            args = _decode_args(header["args"], blobs)
            status, result, output = _supervise(code, filename, header, args, seccomp, proto_in, proto_out)
            send(proto_out, status, [result, output])
        else:
            return


def _syntax_message(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
        text = (exc.text or "").rstrip("\n")
        return f"{type(exc).__name__}: {exc.msg} ({where})" + (f"\n    {text}" if text else "")
    return f"{type(exc).__name__}: {exc}"


def _decode_args(specs: list[dict], blobs: list[bytes]) -> list:
    """Rebuild the arguments as the plain lists and ints a JSON decoder would have produced."""
    import numpy as np

    args = []
    for spec in specs:
        if spec["kind"] == "value":
            args.append(spec["value"])
        else:
            array = np.frombuffer(blobs[spec["blob"]], dtype=spec["dtype"]).reshape(spec["shape"])
            args.append(array.tolist())
    return args


def _supervise(code, filename, header, args, seccomp, proto_in, proto_out):
    limits = header["limits"]
    result_fd = os.memfd_create("result")
    output_fd = os.memfd_create("output")
    base_r, base_w = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child never returns from here
        os.close(base_r)
        _child(code, filename, header["method"], args, limits, result_fd, output_fd,
               seccomp=seccomp, close=(proto_in, proto_out), base_fd=base_w)
    os.close(base_w)
    base_rss_kb = _read_baseline(base_r)
    timed_out = _wait_until_exit(pid, limits["wall_ms"] / 1000)
    _, wait_status, usage = os.wait4(pid, 0)
    wall_ms = (time.monotonic() - start) * 1000
    result = _read_memfd(result_fd, limits["result_bytes"])
    output_size = os.fstat(output_fd).st_size
    output = _read_memfd(output_fd, limits["output_keep_bytes"])
    os.close(result_fd)
    os.close(output_fd)
    status = {
        "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000,
        "wall_ms": wall_ms,
        "peak_rss_kb": usage.ru_maxrss,
        "base_rss_kb": base_rss_kb,
        "timed_out": timed_out,
        "exit_code": os.WEXITSTATUS(wait_status) if os.WIFEXITED(wait_status) else None,
        "signal": os.WTERMSIG(wait_status) if os.WIFSIGNALED(wait_status) else None,
        "output_size": output_size,
    }
    return status, result, output


def _wait_until_exit(pid: int, wall_s: float) -> bool:
    """Wait for the child, killing it at the wall-clock limit (it may sleep or stop itself)."""
    deadline = time.monotonic() + wall_s
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                os.kill(pid, signal.SIGKILL)
                return True
            if pidfd is not None:
                if select.select([pidfd], [], [], remaining)[0]:
                    return False
            elif os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return False  # exited; WNOWAIT leaves it for wait4, which reads its usage
            else:
                time.sleep(min(0.005, remaining))
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _read_baseline(fd: int) -> int:
    """The child's RSS once its walls are up, written before any submission code could run.

    A forked child's ru_maxrss counts what it inherited (and not all of it: file pages are not
    copied at fork), so only a figure taken in the child itself separates the run's own memory.
    """
    try:
        data = os.read(fd, 8)
    finally:
        os.close(fd)
    return struct.unpack(">Q", data)[0] if len(data) == 8 else 0


def _read_memfd(fd: int, limit: int) -> bytes:
    return os.pread(fd, limit, 0)


def _reset_peak_rss() -> None:
    """Reset this process's peak RSS so a forked child's ru_maxrss starts from the current RSS."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _rss_kb() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _vm_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


# ---------------------------------------------------------------------------------------------
# The child: walls first, then the submission.


def _child(code, filename, method, args, limits, result_fd, output_fd, seccomp, close, base_fd):
    runner = _Runner(result_fd, filename)
    try:
        for fd in close:
            os.close(fd)
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        _close_all_but({0, 1, 2, base_fd, result_fd})  # output_fd goes too: it lives on as 1 and 2
        if os.geteuid() == 0:  # no namespace to drop into: become nobody
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
        _set_limits(limits)
        if seccomp is not None:
            _load_filter(seccomp, os.getpid())
        _reset_peak_rss()
        os.write(base_fd, struct.pack(">Q", _rss_kb()))
        os.close(base_fd)
    except BaseException as exc:  # the walls failed: run nothing
        import traceback as _t; _t.print_exc()
        try:
            os.write(result_fd, json.dumps({"status": "setup-failed", "message": repr(exc)}).encode())
        finally:
            os._exit(121)
    runner.run(code, method, args)


def _close_all_but(keep: set[int]) -> None:
    low = 0
    for fd in sorted(keep) + [1 << 16]:
        if fd > low:  # never an empty range: CPython turns closerange(0, 0) into "close all"
            os.closerange(low, fd)
        low = fd + 1


def _set_limits(limits: dict) -> None:
    cpu_s = limits["cpu_ms"] // 1000 + 1  # strictly past the limit: a killed run measures over it
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    address_space = _vm_bytes() + limits["memory_bytes"] + limits["address_slack_bytes"]
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_bytes"], limits["file_bytes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def _seccomp_module():
    try:
        import pyseccomp
    except Exception:  # no libseccomp on this machine: the judge reports the weaker isolation
        return None
    return pyseccomp


def _load_filter(sc, own_pid: int) -> None:
    """Deny what a pure computation never needs: new programs, processes, sockets, tracing,
    signals to anyone else, raising limits, namespaces and mounts."""
    deny = sc.ERRNO(errno.EPERM)
    f = sc.SyscallFilter(sc.ALLOW)
    for name in (
        "execve", "execveat", "fork", "vfork", "socket", "socketpair", "connect", "bind",
        "listen", "accept", "accept4", "sendto", "sendmsg", "ptrace", "process_vm_readv",
        "process_vm_writev", "tkill", "setrlimit", "mount", "umount2", "unshare", "setns",
        "pivot_root", "chroot", "bpf", "perf_event_open", "keyctl", "add_key", "request_key",
        "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register", "pidfd_open",
        "pidfd_send_signal", "pidfd_getfd", "kcmp", "setsid", "setpgid", "setuid", "setgid",
        "setreuid", "setregid", "setresuid", "setresgid", "setgroups", "personality",
    ):
        try:
            f.add_rule(deny, name)
        except Exception:  # a syscall this architecture does not have
            pass
    # Threads are fine (clone with CLONE_THREAD); a new process is not.
    f.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, _CLONE_THREAD, 0))
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")  # libc then falls back to clone, filtered above
    # Signals only to itself.
    f.add_rule(deny, "kill", sc.Arg(0, sc.NE, own_pid))
    f.add_rule(deny, "tgkill", sc.Arg(0, sc.NE, own_pid))
    f.add_rule(deny, "prlimit64", sc.Arg(2, sc.NE, 0))  # reading limits is fine, setting is not
    f.load()


class _Runner:
    """Runs the submission and writes what it returned, as data, to the result descriptor.

    Every function it needs is bound before submission code runs, so a submission that patches
    json, numpy or builtins changes at most what it reports about itself, never how.
    """

    def __init__(self, result_fd: int, filename: str):
        import numpy as np

        self.fd = result_fd
        self.filename = filename
        self.asarray = np.asarray
        self.ascontiguous = np.ascontiguousarray
        self.float64 = np.float64
        self.ndarray = np.ndarray
        self.dumps = json.dumps
        self.write = os.write
        self.exit = os._exit
        self.extract_tb = traceback.extract_tb
        self.format_list = traceback.format_list
        self.format_exception_only = traceback.format_exception_only
        self.flushables = (sys.stdout, sys.stderr)

    def run(self, code, method: str, args: list) -> None:
        phase = "import"
        try:
            namespace = {"__name__": "solution", "__file__": self.filename, "__builtins__": __builtins__}
            exec(code, namespace)
            phase = "lookup"
            cls = namespace.get("Solution")
            if not isinstance(cls, type):
                self.finish({"status": "compile", "message": "the file defines no class Solution"})
            if not callable(getattr(cls, method, None)):
                self.finish({"status": "compile", "message": f"class Solution has no method {method}()"})
            phase = "init"
            instance = cls()
            phase = "call"
            value = getattr(instance, method)(*args)
            phase = "return"
            self.finish_value(value)
        except MemoryError:
            self.finish({"status": "memory", "phase": phase})
        except BaseException as exc:  # SystemExit and KeyboardInterrupt are submission errors too
            self.finish({
                "status": "exception",
                "phase": phase,
                "type": type(exc).__name__,
                "message": self._text(exc),
                "traceback": self._own_frames(exc),
            })

    def finish_value(self, value) -> None:
        if value is None:
            self.finish({"status": "invalid", "message": "the method returned None"})
        try:
            array = self.asarray(value)
        except (ValueError, TypeError) as exc:
            self.finish({"status": "invalid", "message": f"the returned value is not a rectangular "
                         f"array of numbers ({_first_line(str(exc))})"})
        if not isinstance(array, self.ndarray) or array.dtype.kind not in "iuf":
            kind = getattr(getattr(array, "dtype", None), "name", type(array).__name__)
            self.finish({"status": "invalid", "message": _describe(value, kind)})
        data = self.ascontiguous(array, dtype=self.float64)
        header = self.dumps({"status": "ok", "shape": list(data.shape), "type": type(value).__name__})
        self.finish_raw(header.encode() + b"\n" + data.tobytes())

    def finish(self, report: dict) -> None:
        self.finish_raw(self.dumps(report).encode() + b"\n")

    def finish_raw(self, payload: bytes) -> None:
        for stream in self.flushables:
            try:
                stream.flush()
            except BaseException:
                pass
        view = memoryview(payload)
        try:
            while view:
                view = view[self.write(self.fd, view):]
        except OSError:
            self.exit(122)
        self.exit(0)

    def _text(self, exc: BaseException) -> str:
        try:
            return "".join(self.format_exception_only(type(exc), exc)).strip()[:2000]
        except BaseException:
            return type(exc).__name__

    def _own_frames(self, exc: BaseException) -> str:
        """The traceback cut to the submission's own frames: the judge's are noise to its author."""
        try:
            frames = [f for f in self.extract_tb(exc.__traceback__) if f.filename == self.filename]
            return "".join(self.format_list(frames))[-4000:]
        except BaseException:
            return ""


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text


def _describe(value, kind: str) -> str:
    """Why a returned value is not an array of numbers, pointing at the first bad element."""
    stack = [("", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack += [(f"{path}[{i}]", x) for i, x in reversed(list(enumerate(node)))]
        elif isinstance(node, bool) or not isinstance(node, (int, float)):
            if path and not hasattr(node, "__array__"):
                return f"element {path} is {type(node).__name__} {node!r:.40}, expected a number"
    return f"the returned value has element type {kind}, expected numbers"


def _prctl(option: int, arg: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0)
    except (OSError, AttributeError):
        pass


if __name__ == "__main__":
    main()
