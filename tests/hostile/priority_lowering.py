# Issue 33: every way a run could lower its own priority, or pin itself to one CPU, and so wait for a
# CPU by its own doing (a starved run once got "too busy to judge", never a verdict): each must be
# refused or change nothing, for the process and for each of its threads.
import ctypes
import os
import struct
import threading

libc = ctypes.CDLL(None, use_errno=True)
PRIO_PROCESS, SCHED_OTHER, SCHED_BATCH, SCHED_IDLE = 0, 0, 3, 5
SYS_SCHED_SETATTR, SYS_IOPRIO_SET, PR_SCHED_CORE = 314, 251, 62


def syscall(*args) -> bool:
    return libc.syscall(*args) >= 0


def sched_attr(policy: int, nice: int) -> ctypes.Array:
    # struct sched_attr, version 1: size, policy, flags, nice, priority, runtime, deadline, period
    return ctypes.create_string_buffer(struct.pack("=IIQiIQQQ", 48, policy, 0, nice, 0, 0, 0, 0), 48)


def write(path: str, data: bytes) -> bool:
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError:
        return False
    try:
        return os.write(fd, data) == len(data)
    except OSError:
        return False
    finally:
        os.close(fd)


def attempts(who: int, name: str) -> dict:
    """Each way, aimed at `who` (0: the caller; else a thread id)."""
    cpu = min(os.sched_getaffinity(0))
    ways = {
        "setpriority 19": lambda: os.setpriority(PRIO_PROCESS, who, 19),
        "sched_setscheduler SCHED_IDLE": lambda: os.sched_setscheduler(who, SCHED_IDLE, os.sched_param(0)),
        "sched_setscheduler SCHED_BATCH": lambda: os.sched_setscheduler(who, SCHED_BATCH, os.sched_param(0)),
        "sched_setscheduler SCHED_OTHER": lambda: os.sched_setscheduler(who, SCHED_OTHER, os.sched_param(0)),
        "sched_setparam": lambda: os.sched_setparam(who, os.sched_param(0)),
        "sched_setaffinity one CPU": lambda: os.sched_setaffinity(who, {cpu}),
        "sched_setattr SCHED_IDLE": lambda: syscall(SYS_SCHED_SETATTR, who, sched_attr(SCHED_IDLE, 0), 0) or 1 / 0,
        "sched_setattr SCHED_BATCH": lambda: syscall(SYS_SCHED_SETATTR, who, sched_attr(SCHED_BATCH, 19), 0) or 1 / 0,
        "sched_setattr nice 19": lambda: syscall(SYS_SCHED_SETATTR, who, sched_attr(SCHED_OTHER, 19), 0) or 1 / 0,
        "ioprio_set idle": lambda: syscall(SYS_IOPRIO_SET, 1, who, 3 << 13) or 1 / 0,
        "autogroup nice 19": lambda: write(f"/proc/{who or 'self'}/autogroup", b"19") or 1 / 0,
        "core scheduling cookie": lambda: libc.prctl(PR_SCHED_CORE, 1, who, 0, 0) == 0 or 1 / 0,  # CREATE, PIDTYPE_PID
    }
    if who == 0:
        ways["nice 5"] = lambda: os.nice(5)
    allowed = {}
    for way, call in ways.items():
        try:
            call()
            allowed[f"{way} ({name})"] = True
        except (OSError, ZeroDivisionError):
            pass
    return allowed


def state() -> tuple:
    return os.sched_getscheduler(0), os.getpriority(PRIO_PROCESS, 0), sorted(os.sched_getaffinity(0))


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        before = state()
        allowed = attempts(0, "process")
        seen: dict = {}

        def in_thread() -> None:
            mine = state()
            seen.update(attempts(threading.get_native_id(), "thread"), **attempts(0, "thread as 0"))
            if state() != mine:
                seen["a thread's own state changed"] = True

        thread = threading.Thread(target=in_thread)
        thread.start()
        thread.join()
        changed = [] if state() == before else [f"{before} -> {state()}"]
        raise RuntimeError(f"allowed: {sorted({**allowed, **seen})}; changed: {changed}")
