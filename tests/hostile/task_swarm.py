# Issue 24, item 2: as many tasks as the machine allows (threads on small stacks cost no memory
# to speak of); every one sleeps, so the swarm holds its pids until the run is killed. It reports
# the cap it ran under (RLIMIT_NPROC, which a run may read) beside what it started.
import resource
import threading
import time

WANTED = 5000


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        threading.stack_size(32 << 10)
        started = 0
        try:
            while started < WANTED:
                threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
                started += 1
        except RuntimeError:
            pass
        raise RuntimeError(f"started {started} threads under a cap of {resource.getrlimit(resource.RLIMIT_NPROC)[0]}")
