"""What a run's seccomp filter refuses, built through libseccomp on the judge's side (the fork
server and its children only load the result: inside/walls.py, load_filter). seccomp.py keeps
the built program on disk."""

from __future__ import annotations

import errno
import os
import struct

from sandbox.inside.walls import PID_SENTINEL

_CLONE_THREAD = 0x00010000
_PR_SET_DUMPABLE = 4

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
    # its own priority and CPUs too: a run that lowers its priority (nice, SCHED_IDLE, SCHED_BATCH)
    # or pins its threads to one CPU waits for a CPU by its own doing, not the machine's
    "setpriority", "nice", "sched_setscheduler", "sched_setparam", "sched_setattr", "sched_setaffinity",
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


_PER_RUN = ("memfd_create", "pidfd_open", "setgroups", "setresgid", "setresuid", "setuid", "setgid", "setreuid",
            "setregid", "setfsuid", "setfsgid", "setrlimit")


def compile_filter(sc) -> tuple[bytes, tuple[bytes, tuple[int, ...]]]:
    """The seccomp program as BPF in two parts, built once and kept (seccomp.py): libseccomp's
    build would cost every run.

    The shared part denies what neither a run nor the fork server needs; the fork server loads it
    into itself once, and every child inherits it. Each run's child then adds its own part: the
    calls the fork server needs (processes, memfds, pidfds, signals to its children) and those a
    child makes while it puts its walls up (identity, limits, dumpable), with the run's pid
    written at the given offsets (`load_filter`). The kernel compiles a program at every load, so
    each child loads only its own part (docs/sandbox.md). Together the two deny what one would."""
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
    f.add_rule(deny, "prctl", sc.Arg(0, sc.EQ, 62))  # PR_SCHED_CORE: a cookie that keeps cores idle beside it
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
    f.add_rule(deny, "prctl", sc.Arg(0, sc.EQ, _PR_SET_DUMPABLE))  # keeps the peak un-resettable
    return f


# Calls that name a process: allowed for the run's own only (0 or its pid, whose `which` is a
# process, not a group or a user). libseccomp cannot test one argument against two values, so
# these are checked by a few instructions written here, ahead of libseccomp's program.
_NAMES_A_PROCESS = {  # name: (argument naming the process, (argument naming its kind, the process kind) or None)
    "getpriority": (1, (0, 0)),  # which = PRIO_PROCESS (setpriority and the sched_set* calls are refused whole)
    "ioprio_get": (1, (0, 1)),  # which = IOPRIO_WHO_PROCESS (ioprio_set is refused whole)
    "sched_getscheduler": (0, None), "sched_getparam": (0, None),
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
        block: list[tuple] = []  # the checks, each jumping to the block's last instruction (deny) when false
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
    dispatch = [(nr, b) for b, (numbers_of_block, _) in enumerate(blocks) for nr in numbers_of_block]
    code += [None] * len(dispatch)  # type: ignore[list-item]  # filled once the blocks' places are known
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
    for i, (nr, b) in enumerate(dispatch):
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
