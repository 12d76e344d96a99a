"""SHA-256 without OpenSSL: `hashlib` loads libcrypto, ~3.5 ms of CPU at every judging's start
(measured: 3.9 ms for `_hashlib` against 0.4-0.6 ms for CPython's own `_sha256`). The digests
here key caches and name a judged file's bytes; CPython's own implementation hashes those fast
enough, and `hashlib` is the fallback where it is not built."""

from __future__ import annotations

try:
    from _sha2 import sha256  # Python 3.12+
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:
        from hashlib import sha256

__all__ = ["sha256"]
