"""A box: the uids one judging's runs execute as when the judge is root, its own among every
judging on the machine, as isolate gives each box its own uid. RLIMIT_NPROC counts the tasks of
a uid, so with a uid of its own each run's task cap is its alone: a swarm in one run cannot take
tasks from another lane or another judging. A box is held by an flock on a file under
LOCK_DIRS, which the kernel releases when its judge ends, however it ends."""

from __future__ import annotations

import fcntl
import os
import tempfile

BASE_UID = 2_000_000_000  # above the ranges systemd and container tools hand out, below 2**31
BOXES = 10_000
UIDS_PER_BOX = 3  # the lanes' runs, and the compile and check children beside them
LOCK_DIRS = ("/run/attention-judge", os.path.join(tempfile.gettempdir(), "attention-judge-boxes"))


class Box:
    """The uids of one held box; `close` gives it back."""

    def __init__(self, number: int, fd: int):
        self.number, self._fd = number, fd
        self.uids = [BASE_UID + number * UIDS_PER_BOX + i for i in range(UIDS_PER_BOX)]

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # the flock goes with it
            self._fd = -1


def take_box() -> Box:
    """The first box no other judging holds; OSError when none can be had."""
    folder = _lock_dir()
    for number in range(BOXES):
        fd = os.open(os.path.join(folder, f"box-{number}"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return Box(number, fd)
    raise OSError(f"all {BOXES} boxes in {folder} are held by other judgings")


def _lock_dir() -> str:
    for folder in LOCK_DIRS:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            info = os.stat(folder)
        except OSError:
            continue
        if info.st_uid == os.geteuid() and not info.st_mode & 0o022:  # nobody else may plant or remove locks
            return folder
    raise OSError(f"no private folder for box locks among {', '.join(LOCK_DIRS)}")
