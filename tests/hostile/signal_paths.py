# Item 3: every path a signal can take to another process: the fork server is the parent.
import ctypes
import fcntl
import os
import signal

libc = ctypes.CDLL(None, use_errno=True)


def syscall(*args) -> int:
    ctypes.set_errno(0)
    return 0 if libc.syscall(*args) == 0 else ctypes.get_errno()


class SigInfo(ctypes.Structure):
    _fields_ = [("signo", ctypes.c_int), ("errno", ctypes.c_int), ("code", ctypes.c_int),
                ("pad", ctypes.c_byte * 116)]


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        parent = os.getppid()
        info = SigInfo(signal.SIGKILL, 0, -1)
        results = {}
        for target in (parent, 1):
            results[f"rt_sigqueueinfo {target}"] = syscall(129, target, signal.SIGKILL, ctypes.byref(info))
            results[f"rt_tgsigqueueinfo {target}"] = syscall(297, target, target, signal.SIGKILL, ctypes.byref(info))
            results[f"tkill {target}"] = syscall(200, target, signal.SIGSTOP)
            results[f"tgkill {target}"] = syscall(234, target, target, signal.SIGSTOP)
            results[f"pidfd_open {target}"] = syscall(434, target, 0)
            results[f"setpriority {target}"] = syscall(141, 0, target, 19)
            results[f"sched_setaffinity {target}"] = syscall(203, target, 8, ctypes.byref(ctypes.c_ulong(1)))
        results["pidfd_send_signal"] = syscall(424, 0, signal.SIGKILL, None, 0)
        r, w = os.pipe()
        for name, command, arg in (("F_SETOWN", 8, parent), ("F_SETSIG", 10, signal.SIGKILL),
                                   ("F_SETOWN_EX", 15, 0)):
            try:
                fcntl.fcntl(r, command, arg)
                results[name] = 0
            except OSError as exc:
                results[name] = exc.errno
        try:
            fcntl.ioctl(r, 0x8901, ctypes.c_int(parent))  # FIOSETOWN
            results["FIOSETOWN"] = 0
        except OSError as exc:
            results["FIOSETOWN"] = exc.errno
        flags = fcntl.fcntl(r, fcntl.F_GETFL)
        fcntl.fcntl(r, fcntl.F_SETFL, flags | os.O_ASYNC)
        os.write(w, b"x")  # would raise SIGIO/F_SETSIG at the owner, if one had been set
        allowed = sorted(name for name, err in results.items() if err == 0)
        raise RuntimeError(f"allowed: {allowed}")
