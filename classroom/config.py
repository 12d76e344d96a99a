"""The class's settings, from `class.toml` in its folder (every key optional):

    title = "Attention, spring term"
    mode = "contest"                  # or "class": no scoreboard
    start = 2026-12-01T09:00:00Z      # a contest's window (students submit only inside it)
    end = 2026-12-01T14:00:00Z
    freeze_minutes = 60               # the last hour's results hidden from students' scoreboard
    reveal = false                    # true: the frozen results shown (after the contest)
    problems = ["gqa", "mha"]         # default: every problem
    submissions_per_minute = 6        # per user
    runs_per_minute = 6               # Runs (sample or own input, not submissions) per student
    hints = true                      # hints on a Run's Wrong Answer (default: on in a class; in a
                                      # contest off until it ends)
    editorial = true                  # the accepted solutions, with the same default as hints
    hosts = ["class.example.edu"]     # names the server answers for besides localhost and --host
    store_quota_mib = 64              # code stored per student, in all (413 beyond)
    store_mib_per_hour = 16           # code stored per student in the last hour (429 beyond)
    feedback = "verdict"              # a hidden test's result: its verdict and number only (a
                                      # contest's default), or "full" (a class's default)
    visible_tests = ["gqa/002-*", "*/003-*"]  # tests shown in full as the sample is, whatever
                                      # feedback says: globs over "<slug>/<test name>" (default:
                                      # only the sample); each must name a test of the class
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

from classroom.feedback import test_key
from problems import Problem, all_problems

CONFIG_NAME = "class.toml"
HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
KEYS = {"title", "mode", "start", "end", "freeze_minutes", "reveal", "problems", "submissions_per_minute",
        "runs_per_minute", "hints", "editorial", "hosts", "store_quota_mib", "store_mib_per_hour", "feedback",
        "visible_tests"}


class ConfigError(Exception):
    pass


@dataclass
class ClassConfig:
    title: str = "Attention judge: class"
    mode: str = "class"
    start: float | None = None
    end: float | None = None
    freeze_minutes: int = 0
    reveal: bool = False
    problems: list[str] = field(default_factory=list)
    submissions_per_minute: int = 6
    runs_per_minute: int = 6
    hints: bool | None = None  # None: the mode's default
    editorial: bool | None = None  # None: the mode's default
    hosts: list[str] = field(default_factory=list)
    store_quota_mib: int = 64
    store_mib_per_hour: int = 16
    feedback: str = ""  # "full" or "verdict"; "" until loaded: the mode's default
    visible_tests: list[str] = field(default_factory=list)  # globs over "<slug>/<test name>"

    @property
    def full_feedback(self) -> bool:
        """Whether a student reads a hidden test's message, output and the traceback it caused."""
        return (self.feedback or ("verdict" if self.mode == "contest" else "full")) == "full"

    @property
    def scoreboard(self) -> bool:
        return self.mode == "contest"

    def hints_now(self, now: float) -> bool:
        """Whether a student may ask for a hint now: class.toml's hints, else on in a class, and in a
        contest once it has ended."""
        return self._open(self.hints, now)

    def editorial_now(self, now: float) -> bool:
        """Whether a student may read the editorial now (as hints_now, from class.toml's editorial)."""
        return self._open(self.editorial, now)

    def _open(self, given: bool | None, now: float) -> bool:
        if given is not None:
            return given
        return self.mode != "contest" or (self.end is not None and now >= self.end)

    def freeze_at(self) -> float | None:
        if self.end is None or not self.freeze_minutes or self.reveal:
            return None
        return self.end - self.freeze_minutes * 60

    def closed(self, now: float) -> str | None:
        """Why a student cannot submit now, or None."""
        if self.start is not None and now < self.start:
            return "the contest has not started"
        if self.end is not None and now >= self.end:
            return "the contest is over"
        return None


def _time(name: str, value) -> float:
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise ConfigError(f"{CONFIG_NAME}: {name} = {value}: give a time zone (e.g. Z or +08:00)")
        return value.timestamp()
    raise ConfigError(f"{CONFIG_NAME}: {name}: a date and time such as 2026-12-01T09:00:00Z")


def load_config(folder: Path) -> ClassConfig:
    path = folder / CONFIG_NAME
    if not path.is_file():
        return ClassConfig()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    unknown = set(data) - KEYS
    if unknown:
        raise ConfigError(f"{path}: unknown key {sorted(unknown)[0]!r} (known: {', '.join(sorted(KEYS))})")
    config = ClassConfig()
    if "title" in data:
        config.title = str(data["title"])
    mode = data.get("mode", "class")
    if mode not in ("class", "contest"):
        raise ConfigError(f"{path}: mode = {mode!r}: class or contest")
    config.mode = mode
    config.start = _time("start", data["start"]) if "start" in data else None
    config.end = _time("end", data["end"]) if "end" in data else None
    if config.start is not None and config.end is not None and config.end <= config.start:
        raise ConfigError(f"{path}: end is not after start")
    for key in ("freeze_minutes", "submissions_per_minute", "runs_per_minute", "store_quota_mib", "store_mib_per_hour"):
        if key in data:
            if type(data[key]) is not int or data[key] < 0:
                raise ConfigError(f"{path}: {key} = {data[key]!r}: a whole number >= 0")
            setattr(config, key, data[key])
    if config.scoreboard and config.start is None:
        raise ConfigError(f"{path}: a contest needs start (penalty minutes count from it)")
    config.reveal = bool(data.get("reveal", False))
    for key in ("hints", "editorial"):
        if key in data:
            if type(data[key]) is not bool:
                raise ConfigError(f"{path}: {key} = {data[key]!r}: true or false")
            setattr(config, key, data[key])
    feedback = data.get("feedback", "")
    if feedback not in ("", "full", "verdict"):
        raise ConfigError(f"{path}: feedback = {feedback!r}: full or verdict")
    config.feedback = feedback
    names = data.get("problems", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"{path}: problems: a list of problem slugs")
    known = {p.slug for p in all_problems()}
    for name in names:
        if name not in known:
            raise ConfigError(f"{path}: no problem {name!r} (known: {', '.join(sorted(known))})")
    config.problems = names
    hosts = data.get("hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) and HOST.fullmatch(h) for h in hosts):
        raise ConfigError(f"{path}: hosts: a list of host names (such as \"class.example.edu\" or \"x.org:8443\")")
    config.hosts = hosts
    config.visible_tests = _visible_tests(path, data.get("visible_tests", []), class_problems(config))
    return config


def _visible_tests(path: Path, patterns: object, problems: dict[str, Problem]) -> list[str]:
    """visible_tests checked: a list of "<slug glob>/<test glob>", each naming a test of the class
    (a pattern that names none is a typo that would hide what the teacher meant to show)."""
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise ConfigError(f'{path}: visible_tests: a list of globs such as "gqa/002-*" or "*/003-*"')
    keys = [test_key(p.slug, f.stem) for p in problems.values() for f in p.test_files()]
    for pattern in patterns:
        if pattern.count("/") != 1 or "" in pattern.split("/"):
            raise ConfigError(f"{path}: visible_tests: {pattern!r} is not \"<problem>/<test>\" (such as \"gqa/002-*\")")
        if not any(fnmatchcase(key, pattern) for key in keys):
            raise ConfigError(f"{path}: visible_tests: {pattern!r} names no test of this class's problems "
                              f"(tests are named as {keys[0] if keys else 'gqa/002-edge'})")
    return patterns


def class_problems(config: ClassConfig) -> dict[str, Problem]:
    found = {p.slug: p for p in all_problems()}
    return {slug: found[slug] for slug in config.problems} if config.problems else found
