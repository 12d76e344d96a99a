# Issue 24, item 1: every call that names another process's (or group's, or user's) scheduling,
# priority or limits; reading the run's own, by 0 or by its pid, stays allowed (changing its own
# priority or CPUs is refused too: priority_lowering.py).
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
PRIO_PROCESS, PRIO_PGRP, PRIO_USER = 0, 1, 2


def syscall(*args) -> int:
    ctypes.set_errno(0)
    return 0 if libc.syscall(*args) >= 0 else ctypes.get_errno()


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        me, parent = os.getpid(), os.getppid()
        mask, param, attr = ctypes.c_ulong(1), ctypes.c_int(0), ctypes.create_string_buffer(56)
        limit, robust, size = ctypes.create_string_buffer(16), ctypes.c_void_p(), ctypes.c_size_t()
        tests = {}
        for kind, who in ((PRIO_PGRP, 0), (PRIO_USER, 0), (PRIO_USER, os.getuid())):
            tests[f"setpriority {kind} {who}"] = (141, kind, who, 19)
            tests[f"getpriority {kind} {who}"] = (140, kind, who)
        tests["ioprio_get pgrp"] = (252, 2, 0)
        for pid in (parent, 1, ctypes.c_long(0x100000000 + me)):  # the last: the kernel reads me; the high word counts
            pid_name = pid if isinstance(pid, int) else "me+2**32"
            tests[f"setpriority {pid_name}"] = (141, PRIO_PROCESS, pid, 19)
            tests[f"getpriority {pid_name}"] = (140, PRIO_PROCESS, pid)
            tests[f"ioprio_get {pid_name}"] = (252, 1, pid)
            tests[f"sched_setaffinity {pid_name}"] = (203, pid, 8, ctypes.byref(mask))
            tests[f"sched_getaffinity {pid_name}"] = (204, pid, 8, ctypes.byref(mask))
            tests[f"sched_setscheduler {pid_name}"] = (144, pid, 5, ctypes.byref(param))  # SCHED_IDLE
            tests[f"sched_setparam {pid_name}"] = (142, pid, ctypes.byref(param))
            tests[f"sched_getparam {pid_name}"] = (143, pid, ctypes.byref(param))
            tests[f"sched_getscheduler {pid_name}"] = (145, pid)
            tests[f"sched_setattr {pid_name}"] = (314, pid, attr, 0)
            tests[f"sched_getattr {pid_name}"] = (315, pid, attr, 56, 0)
            tests[f"sched_rr_get_interval {pid_name}"] = (148, pid, limit)
            tests[f"prlimit64 read {pid_name}"] = (302, pid, 7, None, limit)
            tests[f"get_robust_list {pid_name}"] = (274, pid, ctypes.byref(robust), ctypes.byref(size))
            tests[f"getpgid {pid_name}"] = (121, pid)
            tests[f"getsid {pid_name}"] = (124, pid)
        allowed = sorted(name for name, args in tests.items() if syscall(*args) == 0)
        own = {"getpriority me": (140, PRIO_PROCESS, me), "sched_getaffinity 0": (204, 0, 8, ctypes.byref(mask)),
               "sched_getaffinity me": (204, me, 8, ctypes.byref(mask)), "prlimit64 read 0": (302, 0, 7, None, limit),
               "getpgid 0": (121, 0)}
        refused = sorted(name for name, args in own.items() if syscall(*args) != 0)
        raise RuntimeError(f"allowed on others: {allowed}; refused on itself: {refused}")
