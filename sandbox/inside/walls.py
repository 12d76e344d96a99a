"""The walls a run's child puts up around itself before the first line of submission code runs.

Order matters (server.py's _child keeps it): close every channel back to the judge, leave root,
set rlimits, take the memory baseline, then Landlock (where asked) and seccomp last, because the
filter refuses the calls that the steps before it need.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import struct

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
_PR_SET_NO_NEW_PRIVS = 38
_CLONE_THREAD = 0x00010000
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
    cpu_s = limits.cpu_ms // 1000 + 1  # a backstop past the limit, where clock.py ends runs
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
    code whose arrays grow step by step faults every page in again at every step (a KV cache
    concatenated per step: ~1 s of system time on gqa_decode's largest test, against ~20 ms in a
    plain interpreter that had read its input first). glibc raises both thresholds itself as a
    process runs; fixing them at its own ceilings makes that the same for every run.
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
    """/proc/self/statm's pages (size, resident, ...), read with bare descriptors: every run's
    child reads it twice, and Python's file objects cost each child ~0.3 ms of copy-on-write
    faults (measured: 2.35 against 2.63 ms of CPU for the walls of a forked child)."""
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
# seccomp: what a pure computation never needs.

_DENIED = (
    # new programs and processes (threads are allowed below)
    "execve", "execveat", "fork", "vfork",
    # the network and local sockets
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendto", "sendmsg",
    "sendmmsg", "recvmmsg",
    # other processes: tracing, their memory, signals through every path, their scheduling
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "process_mrelease",
    "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "tkill", "kcmp", "ioprio_set",
    "migrate_pages", "move_pages",
    # memory that the peak-RSS count would not see, or that outlives the run
    "memfd_create", "memfd_secret", "shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd",
    "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semctl", "mq_open", "mq_unlink",
    "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    # limits, identity, namespaces, mounts and the system
    "setrlimit", "setsid", "setpgid", "setuid", "setgid", "setreuid", "setregid", "setresuid",
    "setresgid", "setgroups", "setfsuid", "setfsgid", "capset", "personality", "mount", "umount2",
    "unshare", "setns", "pivot_root", "chroot", "fsopen", "fsmount", "fsconfig", "fspick",
    "move_mount", "open_tree", "mount_setattr", "bpf", "perf_event_open", "keyctl", "add_key",
    "request_key", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "open_by_handle_at", "name_to_handle_at", "fanotify_init", "inotify_init", "inotify_init1",
    "mknod", "mknodat", "reboot", "kexec_load", "kexec_file_load", "init_module", "finit_module",
    "delete_module", "swapon", "swapoff", "settimeofday", "clock_settime", "clock_adjtime",
    "adjtimex", "sethostname", "setdomainname", "iopl", "ioperm", "acct", "quotactl", "syslog",
    "vhangup", "lookup_dcookie",
)
_F_SETOWN, _F_SETSIG, _F_SETOWN_EX = 8, 10, 15
_FIOSETOWN, _SIOCSPGRP, _TIOCSPGRP = 0x8901, 0x8902, 0x5410


PID_SENTINEL = 0x7EADBEEF  # above any pid_max: stands for the run's pid in the compiled filter
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


# Denied by the run's own part of the filter, not the shared one: the fork server makes memfds and
# pidfds for its children, and a child leaves root and sets its limits before its part is loaded.
_PER_RUN = ("memfd_create", "pidfd_open", "setgroups", "setresgid", "setresuid", "setuid", "setgid", "setreuid",
            "setregid", "setfsuid", "setfsgid", "setrlimit")


def compile_filter(sc) -> tuple[bytes, tuple[bytes, tuple[int, ...]]]:
    """The seccomp program as BPF in two parts, built once per judge process (libseccomp takes
    ~3 ms to build it, which every run would pay).

    The shared part denies what neither a run nor the fork server needs; the fork server loads it
    into itself once, and every child inherits it. Each run's child then adds its own part: the
    calls the fork server needs (processes, memfds, pidfds, signals to its children) and those a
    child makes while it puts its walls up (identity, limits, dumpable), with the run's pid
    written at the given offsets (`load_filter`). The kernel checks and compiles a program at
    every load: the whole one (176 instructions) cost each child 0.45-0.8 ms, its own part (~50)
    ~0.12 ms. Together the two deny what the whole one did."""
    shared = _exported(_shared_filter(sc))
    run = _own_process_prefix(sc, PID_SENTINEL) + _exported(_run_filter(sc, PID_SENTINEL))
    # struct sock_filter {u16 code; u8 jt, jf; u32 k}: the constant k sits at offset 4
    offsets = tuple(i + 4 for i in range(0, len(run), 8) if struct.unpack_from("=I", run, i + 4)[0] == PID_SENTINEL)
    if len(shared) % 8 or len(run) % 8 or not offsets:  # libseccomp shares one pid comparison among the signal calls
        raise OSError("the compiled seccomp program is not what was built")
    return shared, (run, offsets)


def _exported(f) -> bytes:
    read, write = os.pipe()
    try:
        with os.fdopen(write, "wb", closefd=False) as out:
            f.export_bpf(out)
        os.close(write)
        write = -1
        chunks = []
        while chunk := os.read(read, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    return b"".join(chunks)


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


def _denying(sc, names):
    """A filter that allows everything but `names` (EPERM)."""
    f = sc.SyscallFilter(sc.ALLOW)
    for name in names:
        try:
            f.add_rule(sc.ERRNO(errno.EPERM), name)
        except Exception:  # a syscall this architecture or libseccomp does not know
            pass
    return f


def _shared_filter(sc):
    """Refuse, with EPERM, every call that reaches outside the run or hides resources from it,
    and that the fork server itself never makes."""
    deny = sc.ERRNO(errno.EPERM)
    f = _denying(sc, [name for name in _DENIED if name not in _PER_RUN])
    for command in (_F_SETOWN, _F_SETSIG, _F_SETOWN_EX):  # SIGIO/SIGURG aimed at another process
        f.add_rule(deny, "fcntl", sc.Arg(1, sc.EQ, command))
    for request in (_FIOSETOWN, _SIOCSPGRP, _TIOCSPGRP):
        f.add_rule(deny, "ioctl", sc.Arg(1, sc.MASKED_EQ, 0xFFFFFFFF, request))
    f.add_rule(deny, "prctl", sc.Arg(0, sc.EQ, 35))  # PR_SET_MM
    return f


def _run_filter(sc, own_pid: int):
    """The rest, for one run's child: what the fork server needs and a child uses to wall itself in."""
    deny = sc.ERRNO(errno.EPERM)
    f = _denying(sc, _PER_RUN)
    f.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, _CLONE_THREAD, 0))  # a process, not a thread
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")  # libc falls back to clone, filtered above
    # Signals to itself only, whatever the path.
    f.add_rule(deny, "kill", sc.Arg(0, sc.NE, own_pid))
    f.add_rule(deny, "tgkill", sc.Arg(0, sc.NE, own_pid))
    f.add_rule(deny, "rt_sigqueueinfo", sc.Arg(0, sc.NE, own_pid))
    f.add_rule(deny, "rt_tgsigqueueinfo", sc.Arg(0, sc.NE, own_pid))
    f.add_rule(deny, "prlimit64", sc.Arg(2, sc.NE, 0))  # reading limits is fine, setting is not
    f.add_rule(deny, "prctl", sc.Arg(0, sc.EQ, PR_SET_DUMPABLE))  # keeps the peak un-resettable
    return f


# Calls that name a process: allowed for the run's own only (0 or its pid, whose `which` is a
# process, not a group or a user). libseccomp cannot test one argument against two values, so
# these are checked by a few instructions written here, ahead of libseccomp's program.
_NAMES_A_PROCESS = {  # name: (argument naming the process, (argument naming its kind, the process kind) or None)
    "getpriority": (1, (0, 0)), "setpriority": (1, (0, 0)),  # which = PRIO_PROCESS
    "ioprio_get": (1, (0, 1)),  # which = IOPRIO_WHO_PROCESS (ioprio_set is refused whole)
    "sched_setscheduler": (0, None), "sched_setparam": (0, None), "sched_setaffinity": (0, None),
    "sched_setattr": (0, None), "sched_getscheduler": (0, None), "sched_getparam": (0, None),
    "sched_getaffinity": (0, None), "sched_getattr": (0, None), "sched_rr_get_interval": (0, None),
    "prlimit64": (0, None), "get_robust_list": (0, None), "getpgid": (0, None), "getsid": (0, None),
}
_BPF_LD_W_ABS, _BPF_JEQ_K, _BPF_JA, _BPF_RET_K = 0x20, 0x15, 0x05, 0x06
_RET_ERRNO = 0x00050000


def _own_process_prefix(sc, own_pid: int) -> bytes:
    """BPF that refuses (EPERM) the calls of _NAMES_A_PROCESS aimed at another process, and jumps
    past its own end, to the program after it, in every other case. struct seccomp_data: nr at
    0, arch at 4, args[i] at 16 + 8 i (low word first on little-endian machines)."""
    arch = sc.system_arch()
    numbers = {}
    for name in _NAMES_A_PROCESS:
        try:
            numbers[name] = sc.resolve_syscall(arch, name)
        except Exception:  # not on this architecture
            continue
    code: list[tuple[int, int, int, int | str]] = []  # (op, jt, jf, k); k may name a label

    def arg(i: int, high: bool) -> int:
        return 16 + 8 * i + (4 if high else 0)

    shapes: dict[tuple, list[int]] = {}  # one block of checks per shape, shared by its calls
    for name, nr in numbers.items():
        shapes.setdefault(_NAMES_A_PROCESS[name], []).append(nr)
    blocks = []
    for (pid_arg, kind), calls in shapes.items():
        block = []  # the checks, each jumping to the block's last instruction (deny) when false
        checks = ([(arg(kind[0], True), 0), (arg(kind[0], False), kind[1])] if kind else []) + [(arg(pid_arg, True), 0)]
        for offset, value in checks:
            block += [("ld", offset), ("must", value)]
        block += [("ld", arg(pid_arg, False)), ("either", 0, own_pid)]
        blocks.append((calls, block))
    # layout: arch check, dispatch on the number, the blocks, then the program that follows
    code.append((_BPF_LD_W_ABS, 0, 0, 4))
    code.append((_BPF_JEQ_K, 1, 0, arch))
    code.append((_BPF_JA, 0, 0, "end"))
    code.append((_BPF_LD_W_ABS, 0, 0, 0))
    dispatch_at = len(code)
    calls = [(nr, b) for b, (numbers_of_block, _) in enumerate(blocks) for nr in numbers_of_block]
    code += [None] * len(calls)  # filled once the blocks' places are known
    code.append((_BPF_JA, 0, 0, "end"))
    starts = []
    for _, block in blocks:
        starts.append(len(code))
        size = sum(2 if step[0] == "either" else 1 for step in block) + 2  # + allow (ja end) + deny (ret)
        deny = len(code) + size - 1
        for step in block:
            here = len(code)
            if step[0] == "ld":
                code.append((_BPF_LD_W_ABS, 0, 0, step[1]))
            elif step[0] == "must":
                code.append((_BPF_JEQ_K, 0, deny - here - 1, step[1]))
            else:  # either of two values: on to the allow, else deny
                code.append((_BPF_JEQ_K, 1, 0, step[1]))
                code.append((_BPF_JEQ_K, 0, deny - here - 2, step[2]))
        code.append((_BPF_JA, 0, 0, "end"))
        code.append((_BPF_RET_K, 0, 0, _RET_ERRNO | errno.EPERM))
    for i, (nr, b) in enumerate(calls):
        code[dispatch_at + i] = (_BPF_JEQ_K, starts[b] - (dispatch_at + i) - 1, 0, nr)
    end = len(code)
    out = bytearray()
    for i, (op, jt, jf, k) in enumerate(code):
        if k == "end":
            k = end - i - 1
        if not (0 <= jt <= 255 and 0 <= jf <= 255):
            raise OSError("the own-process seccomp checks do not fit BPF's jumps")
        out += struct.pack("=HBBI", op, jt, jf, k)
    return bytes(out)


def seccomp_module():
    """The seccomp binding, or None where it cannot be imported (the judge then refuses to run)."""
    try:
        import pyseccomp
    except Exception:
        return None
    return pyseccomp
