# Item 2: write forged bytes on the result descriptor and leave. The test replaces PAYLOAD.
import os

PAYLOAD = b""
WHEN = "call"  # or "import": forge from module level, in the import check


def forge():
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("/memfd:result"):
                os.write(int(fd), PAYLOAD)
        except OSError:
            pass
    os._exit(0)


if WHEN == "import":
    forge()


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        forge()
