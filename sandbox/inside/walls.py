"""The walls a run's child puts up around itself before the first line of submission code runs.

Order matters (server.py's _child keeps it): close every channel back to the judge, leave root,
set rlimits, take the memory baseline, then Landlock (where asked) and seccomp last, because the
filter refuses the calls that the steps before it need.
"""

from __future__ import annotations

import ctypes
import errno
import math
import os
import resource
import struct
import time

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
_PR_SET_NO_NEW_PRIVS = 38
_libc = ctypes.CDLL(None, use_errno=True)


def prctl(option: int, arg: int) -> None:
    if _libc.prctl(option, arg, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl({option}): {os.strerror(err)}")


def close_all_but(keep: set[int]) -> None:
    low = 0
    for fd in sorted(keep) + [1 << 16]:
        if fd > low:  # never an empty range: CPython turns closerange(0, 0) into "close all"
            os.closerange(low, fd)
        low = fd + 1


def leave_root(uid: int) -> None:
    """A run never executes as host root: whoever started the judge, become `uid` (nobody)."""
    if os.geteuid() == 0 or os.getegid() == 0:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    if 0 in (*os.getresuid(), *os.getresgid()):
        raise OSError("the run still holds uid or gid 0")


def set_limits(limits, own_uid: bool) -> None:
    """The rlimits. Tasks: RLIMIT_NPROC counts every task of the run's real uid, so the cap is
    the run's tasks on top of those the uid has already: none with a uid of its own (a box), the
    sandbox's few in a user namespace, the user's processes in landlock mode as a user."""
    tasks = limits.tasks + (1 if own_uid else tasks_of(os.getuid()))
    resource.setrlimit(resource.RLIMIT_NPROC, (tasks, tasks))
    # A backstop past where clock.py ends runs. The kernel counts the process's CPU time from the fork,
    # the decoding of a large input included, which the judge's own count (from the base) leaves out.
    before_ms = time.process_time() * 1000
    cpu_s = math.ceil((before_ms + max(limits.cpu_ms, limits.contended_cpu_ms)) / 1000) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    address_space = vm_bytes() + limits.memory_bytes + limits.address_slack_bytes
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_MMAP_THRESHOLD_BYTES = 32 << 20  # glibc's own ceiling for the threshold it adapts in a long-lived process
_TRIM_THRESHOLD_BYTES = 64 << 20  # twice that, as glibc sets it when it adapts


def steady_allocator() -> None:
    """Give the run the allocator of a warmed-up process, not of a fresh one.

    A fresh process maps every block over 128 KiB anew and gives the heap's top back at once, so
    code whose arrays grow step by step would fault every page in again at every step
    (docs/sandbox.md). glibc raises both thresholds itself as a process runs; fixing them at its
    own ceilings makes that the same for every run.
    """
    mallopt = getattr(_libc, "mallopt", None)  # glibc's; another C library keeps its own policy
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD_BYTES)
        mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD_BYTES)


def tasks_of(uid: int) -> int:
    """Tasks (threads) whose real uid is `uid`, among the processes this /proc shows."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fd = os.open(f"/proc/{entry}/status", os.O_RDONLY)
        except OSError:
            continue
        try:
            status = os.read(fd, 4096)
        except OSError:
            continue
        finally:
            os.close(fd)
        real = threads = None
        for line in status.split(b"\n"):
            if line.startswith(b"Uid:"):
                real = int(line.split()[1])
            elif line.startswith(b"Threads:"):
                threads = int(line.split()[1])
        if real == uid and threads:
            count += threads
    return count


def memory_baseline() -> int:
    """Restart the peak-RSS count at the current size and return that size in KiB.

    The reset goes through /proc/self/clear_refs, which only a dumpable process may write; the
    process is made non-dumpable again at once, and seccomp then refuses PR_SET_DUMPABLE, so the
    submission cannot reset its own peak afterwards.
    """
    prctl(PR_SET_DUMPABLE, 1)
    try:
        fd = os.open("/proc/self/clear_refs", os.O_WRONLY)
        try:
            os.write(fd, b"5")
        finally:
            os.close(fd)
        rss = rss_kb()
    finally:
        prctl(PR_SET_DUMPABLE, 0)
    return rss


def rss_kb() -> int:
    return _statm()[1] * _PAGE // 1024


def vm_bytes() -> int:
    return _statm()[0] * _PAGE


_PAGE = os.sysconf("SC_PAGE_SIZE")


def _statm() -> list[int]:
    """/proc/self/statm's pages (size, resident, ...), read with a bare descriptor: a file object
    would cost every run's child copy-on-write faults."""
    fd = os.open("/proc/self/statm", os.O_RDONLY)
    try:
        return [int(field) for field in os.read(fd, 256).split()]
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------------------------
# Landlock: the filesystem wall where no mount namespace can be had.

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_FS_EXECUTE, _FS_READ_FILE, _FS_READ_DIR = 1 << 0, 1 << 2, 1 << 3
_FS_RIGHTS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 when Landlock is absent or disabled."""
    version = _libc.syscall(_SYS_CREATE_RULESET, None, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
    return max(0, version)


def landlock_ruleset(readable: list[str]) -> int:
    """A ruleset allowing reading (and executing) under `readable` only; nothing may be written.

    Built once by the fork server, which can still open every path (a run that has left root
    cannot open a Python installation under root's home). Every access right the kernel knows is
    handled and only the read rights are granted, so files, directories, devices and /proc
    outside the list cannot be opened. From ABI 4 TCP bind and connect are refused too, and from
    ABI 6 signals and abstract sockets cannot leave the domain.
    """
    abi = landlock_abi()
    if abi < 1:
        raise OSError(errno.ENOSYS, "Landlock is not available in this kernel")
    fs_rights = _FS_RIGHTS_BY_ABI[max(a for a in _FS_RIGHTS_BY_ABI if a <= abi)]
    net_rights = 0b11 if abi >= 4 else 0
    scoped = 0b11 if abi >= 6 else 0
    attr = struct.pack("=QQQ", fs_rights, net_rights, scoped)
    ruleset = _libc.syscall(_SYS_CREATE_RULESET, attr, len(attr), 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    for path in readable:
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except FileNotFoundError:
            continue
        try:
            rights = _FS_EXECUTE | _FS_READ_FILE
            if os.path.isdir(path):
                rights |= _FS_READ_DIR
            rule = struct.pack("=Qi", rights, fd)
            if _libc.syscall(_SYS_ADD_RULE, ruleset, 1, rule, 0) != 0:  # LANDLOCK_RULE_PATH_BENEATH
                raise OSError(ctypes.get_errno(), f"landlock_add_rule({path}) failed")
        finally:
            os.close(fd)
    return ruleset


def landlock_restrict(ruleset: int) -> None:
    prctl(_PR_SET_NO_NEW_PRIVS, 1)
    if _libc.syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
        raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    os.close(ruleset)


# ---------------------------------------------------------------------------------------------
# seccomp: the program is built on the judge's side (sandbox/seccomp.py), loaded here.

PID_SENTINEL = 0x7EADBEEF  # above any pid_max: stands for the run's pid in the compiled filter
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def load_filter(compiled: tuple[bytes, tuple[int, ...]], own_pid: int) -> None:
    """Load a compiled program, with `own_pid` written at its offsets (no_new_privs first: the
    process has no privilege that would let it skip that)."""
    program, offsets = compiled
    code = ctypes.create_string_buffer(program, len(program))
    for offset in offsets:
        struct.pack_into("=I", code, offset, own_pid)
    prog = _SockFprog(len(program) // 8, ctypes.cast(code, ctypes.c_void_p))
    prctl(_PR_SET_NO_NEW_PRIVS, 1)
    if _libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "loading the seccomp filter failed")
