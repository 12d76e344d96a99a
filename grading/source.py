"""A submission's source file as the judge takes it (apart: the web page checks uploads against
the same cap without loading the judging)."""

from __future__ import annotations

from pathlib import Path

MAX_SOURCE_BYTES = 1 << 20  # a larger file is CE before anything parses it


def read_source(path: Path) -> bytes | None:
    """The file's bytes, or None when it is over the cap (read no further)."""
    with open(path, "rb") as f:
        source = f.read(MAX_SOURCE_BYTES + 1)
    return source if len(source) <= MAX_SOURCE_BYTES else None
