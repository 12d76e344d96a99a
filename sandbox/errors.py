"""What can go wrong around a run that is not the run's verdict."""

from __future__ import annotations


class SandboxError(Exception):
    """The sandbox itself failed before any submission code could be blamed: a judging error."""


class SandboxUnavailable(SandboxError):
    """No sandbox with the walls the judge requires can be had here: refuse, naming what is missing."""


class SandboxLost(SandboxError):
    """The fork server died, stopped or answered nonsense during a task: the run's doing."""

    def __init__(self, message: str, timed_out: bool = False):
        super().__init__(message)
        self.timed_out = timed_out


class MachineBusy(Exception):
    """A run reached the wall-clock cap without reaching any limit: the machine gave it too little
    CPU to judge it. Not a verdict: the judging stops, nothing is recorded, a rerun is asked for."""

    MESSAGE = "the machine is too busy to judge this run: rerun"
