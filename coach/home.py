"""Where a user's practice data lives: $JUDGE_HOME, else $XDG_DATA_HOME/attention-judge, else
~/.local/share/attention-judge (the XDG default)."""

from __future__ import annotations

import os
from pathlib import Path


def judge_home() -> Path:
    explicit = os.environ.get("JUDGE_HOME")
    if explicit:
        return Path(explicit)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "attention-judge"
