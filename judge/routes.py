"""The commands `python -m judge` hands to a layer below, one entry each with the function that
parses its arguments: the practice commands (coach/), the web page and a class's server (web/,
classroom/). Anything else is a judging (judge/cli.py). Each target is imported only when its
command runs: `python -m judge FILE` loads none of them."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

from coach import COMMANDS as PRACTICE  # a dict of strings: nothing else of the practice layer loads


@dataclass(frozen=True)
class Command:
    """A command: its line of help, the function that parses its arguments and runs it
    ("module:function"), and the commands an option turns it into (serve --class)."""

    help: str
    target: str
    with_name: bool = False  # the function reads the command's name too (coach/cli.py's subcommands)
    options: dict[str, Command] = field(default_factory=dict)

    def function(self) -> Callable[[list[str]], int]:
        module, _, name = self.target.partition(":")
        function: Callable[[list[str]], int] = getattr(importlib.import_module(module), name)
        return function


COMMANDS: dict[str, Command] = {
    **{name: Command(text, "coach.cli:main", with_name=True) for name, text in PRACTICE.items()},
    "serve": Command("the practice web page on this machine (make serve)", "web.cli:main", options={
        "--class": Command("a class's or a contest's server: accounts, submissions, scoreboard", "classroom.cli:serve"),
    }),
    "class": Command("manage a class's accounts (add-users, token)", "classroom.cli:manage"),
    "worker": Command("judge a class's submissions from its queue, on this machine", "classroom.cli:worker"),
}


def route(argv: list[str]) -> Command | None:
    """The command `argv` names (an option may turn it into another), or None: a judging."""
    command = COMMANDS.get(argv[0]) if argv else None
    for option, other in (command.options if command is not None else {}).items():
        probe = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
        probe.add_argument(option, nargs="?", const="")
        given, _ = probe.parse_known_args(argv[1:])
        if getattr(given, option.lstrip("-").replace("-", "_")) is not None:
            return other
    return command


def run(command: Command, argv: list[str]) -> int:
    return command.function()(argv if command.with_name else argv[1:])


def listed() -> dict[str, str]:
    """Every command and option variant with its line of help, for `python -m judge --help`."""
    lines = {}
    for name, command in COMMANDS.items():
        lines[name] = command.help
        lines.update({f"{name} {option}": other.help for option, other in command.options.items()})
    return lines
