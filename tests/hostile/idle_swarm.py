# Issue 33: a run that starves itself. 41 threads pinned to one CPU at SCHED_IDLE, each waking every
# 50 ms: once their waits for a CPU were summed over the threads, the run looked starved by the
# machine, reached the wall-clock cap and was "too busy to judge" (JE in a class), never TLE.
import os
import threading
import time

THREADS = 41
PERIOD_S = 0.05


def idle() -> None:
    for call in (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}),
                 lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))):
        try:
            call()
        except OSError:
            pass
    while True:
        time.sleep(PERIOD_S)


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        threading.stack_size(256 << 10)  # 41 default stacks would not fit the address-space limit
        for _ in range(THREADS - 1):
            threading.Thread(target=idle, daemon=True).start()
        idle()
