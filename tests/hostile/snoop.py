# Items 8 and 10: what a run can see of the judge: its tests, environment, command lines, keys,
# the checkout. The test replaces CHECKOUT and SUBMISSION with real paths.
import glob
import os

CHECKOUT = ""
SUBMISSION = ""


def readable(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            f.read(1)
        return True
    except OSError:
        return False


class Solution:
    def grouped_query_attention(self, X, W_Q, b_Q, W_K, b_K, W_V, b_V, h_q, h_k, W_O, b_O):
        seen = []
        seen += glob.glob(CHECKOUT + "/problems/*/tests/*.json")
        seen += [p for p in ("/root/.ssh/id_rsa", os.path.expanduser("~/.ssh/id_rsa"), CHECKOUT + "/README.md",
                             SUBMISSION) if readable(p)]
        for pid in [p for p in os.listdir("/proc") if p.isdigit()] if readable("/proc/self/stat") else []:
            for part in ("cmdline", "environ"):
                try:
                    text = open(f"/proc/{pid}/{part}", "rb").read().decode(errors="replace")
                except OSError:
                    continue
                if CHECKOUT in text or os.path.dirname(SUBMISSION) in text:
                    seen.append(f"/proc/{pid}/{part}")
        for target in (CHECKOUT + "/pwned", "/tmp/pwned"):
            try:
                open(target, "w").write("x")
                seen.append("wrote " + target)
            except OSError:
                pass
        try:
            import pytest  # noqa: F401  (the judge's venv: not the interpreter's needs)
            seen.append("imported pytest")
        except Exception:  # ImportError, or PermissionError where Landlock hides it
            pass
        raise RuntimeError(f"seen: {seen}")
