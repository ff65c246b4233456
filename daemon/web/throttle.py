"""Wrong host passwords on the web page, counted per client address: growing pauses, then a lock-out.

The first FREE_FAILURES wrong passwords cost nothing (a typo); each one after that makes the
address wait twice as long before its next try (from FIRST_PAUSE up to MAX_PAUSE), and
LOCKOUT_AFTER wrong passwords in a row lock the address out for LOCKOUT. A try during a pause is
refused without looking at the password, so guessing runs at most a few tries an hour. The
clock is injected; nothing sleeps.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

FREE_FAILURES = 3
FIRST_PAUSE = timedelta(seconds=2)
MAX_PAUSE = timedelta(minutes=5)
LOCKOUT_AFTER = 10
LOCKOUT = timedelta(minutes=30)


@dataclass
class _Address:
    failures: int = 0
    not_before: datetime | None = None


@dataclass(frozen=True)
class Failure:
    failures: int
    wait: timedelta            # before the next try
    locked_out: bool           # this failure started a lock-out


class LoginThrottle:
    def __init__(self, now: Callable[[], datetime]):
        self.now = now
        self._addresses: dict[str, _Address] = {}

    def wait(self, address: str) -> timedelta | None:
        """How long `address` must still wait before it may try a password, or None."""
        entry = self._addresses.get(address)
        if entry is None or entry.not_before is None:
            return None
        left = entry.not_before - self.now()
        return left if left > timedelta(0) else None

    def failed(self, address: str) -> Failure:
        entry = self._addresses.setdefault(address, _Address())
        entry.failures += 1
        locked_out = entry.failures >= LOCKOUT_AFTER
        if entry.failures >= LOCKOUT_AFTER:
            pause = LOCKOUT
        elif entry.failures > FREE_FAILURES:
            pause = min(FIRST_PAUSE * 2 ** (entry.failures - FREE_FAILURES - 1), MAX_PAUSE)
        else:
            pause = timedelta(0)
        entry.not_before = self.now() + pause
        return Failure(entry.failures, pause, locked_out)

    def succeeded(self, address: str) -> None:
        self._addresses.pop(address, None)
