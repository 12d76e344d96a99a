"""Sign-in throttling, so that guessing a password is slow and cannot load the server, and so that
the throttle itself cannot keep a student out of a contest (docs/classroom.md states the figures).

Two counts of failed sign-ins, kept in memory (a restart forgets them):
- per account, across addresses: from the ACCOUNT_FREE-th failure in a row on, the next try waits
  1 s, 2 s, 4 s, ... from the last failure, capped at MAX_DELAY_S; a success ends the run. The wait
  applies only to addresses that failed for this account in the last WINDOW_S: a correct password
  from any other address is checked at once, so nobody can lock a student out from elsewhere.
- per address, across accounts (guessing many accounts, and the scrypt each check costs): from
  the ADDRESS_FREE-th failure in WINDOW_S on, the same growing wait, capped at MAX_DELAY_S; and at most
  ADDRESS_CHECKS checks of one address at a time.
A try that must wait is answered 429 with Retry-After before any password is checked, and counts
for nothing. No wait is ever longer than MAX_DELAY_S, so an admin, too, is never locked out.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

ACCOUNT_FREE = 5
ADDRESS_FREE = 20
MAX_DELAY_S = 60.0
WINDOW_S = 15 * 60.0
ADDRESS_CHECKS = 2
MAX_KEYS = 100_000  # the oldest forgotten beyond: memory stays bounded whatever is sent


def delay(failures: int, free: int) -> float:
    """The wait after `failures` failures: none below `free`, then 1, 2, 4, ... s, at most MAX_DELAY_S."""
    if failures < free:
        return 0.0
    return min(MAX_DELAY_S, 2.0 ** min(failures - free, 16))


@dataclass
class _Count:
    failures: list[float] = field(default_factory=list)  # the times of recent failures, oldest first

    def recent(self, now: float) -> list[float]:
        while self.failures and self.failures[0] < now - WINDOW_S:
            self.failures.pop(0)
        return self.failures


class Throttle:
    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self._lock = threading.Lock()
        self._accounts: OrderedDict[str, _Count] = OrderedDict()  # consecutive failures (a success clears)
        self._pairs: OrderedDict[tuple[str, str], float] = OrderedDict()  # (account, address): last failure
        self._addresses: OrderedDict[str, _Count] = OrderedDict()
        self._checking: dict[str, int] = {}

    def begin(self, account: str, address: str) -> float:
        """0 when this try may be checked now (then call end), else the seconds to wait."""
        account = account.strip().lower()[:320]  # a name or an email: longer ones are one key
        with self._lock:
            now = self.clock()
            wait = 0.0
            by_address = self._addresses.get(address)
            if by_address is not None:
                failures = by_address.recent(now)
                if failures:
                    wait = max(wait, failures[-1] + delay(len(failures), ADDRESS_FREE) - now)
            by_account = self._accounts.get(account)
            failed_here = self._pairs.get((account, address))
            if by_account is not None and failed_here is not None and failed_here >= now - WINDOW_S:
                failures = by_account.recent(now)
                if failures:
                    wait = max(wait, failures[-1] + delay(len(failures), ACCOUNT_FREE) - now)
            if wait <= 0 and self._checking.get(address, 0) >= ADDRESS_CHECKS:
                wait = 1.0
            if wait > 0:
                return wait
            self._checking[address] = self._checking.get(address, 0) + 1
            return 0.0

    def end(self, account: str, address: str, succeeded: bool | None) -> bool:
        """Record the try's outcome (None: the check never ended, nothing to count); True when this
        failure started the account's waits (worth a log line)."""
        account = account.strip().lower()[:320]  # a name or an email: longer ones are one key
        with self._lock:
            now = self.clock()
            left = self._checking.get(address, 1) - 1
            if left > 0:
                self._checking[address] = left
            else:
                self._checking.pop(address, None)
            if succeeded is None:
                return False
            if succeeded:
                self._accounts.pop(account, None)
                self._pairs.pop((account, address), None)
                return False
            _remember(self._addresses, address, _Count).failures.append(now)
            count = _remember(self._accounts, account, _Count)
            count.failures.append(now)
            self._pairs[(account, address)] = now
            self._pairs.move_to_end((account, address))
            _bound(self._pairs)
            return len(count.recent(now)) == ACCOUNT_FREE


def _remember(table: OrderedDict, key, make):
    found = table.get(key)
    if found is None:
        found = table[key] = make()
    table.move_to_end(key)
    _bound(table)
    return found


def _bound(table: OrderedDict) -> None:
    while len(table) > MAX_KEYS:
        table.popitem(last=False)
