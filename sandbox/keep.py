"""Writing what the judge keeps between judgings (the seccomp program, the tests as the wire's
bytes): whole or not at all, since other judgings, in other processes or threads, may be reading
it at that moment; where it cannot be written (a read-only checkout) nothing is kept, and the
next judging makes it again."""

from __future__ import annotations

import os
import threading
from pathlib import Path


def keep(path: Path, data: bytes) -> None:
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(exist_ok=True)
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink()
        except OSError:
            pass
