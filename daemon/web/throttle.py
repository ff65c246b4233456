"""Wrong host passwords on the web page: growing pauses per source and for the page as a whole.

The first FREE_FAILURES wrong passwords of a source cost nothing (a typo); each one after that
makes the source wait twice as long before its next try (from FIRST_PAUSE up to MAX_PAUSE). A
source is an address, but one machine is one source: every 127.x.y.z (and ::1) is the same
loopback, and an IPv6 network hands out a /64 to one machine. Over all sources together the page
allows GLOBAL_BUDGET wrong passwords an hour; past it every try, from anywhere, waits the same
doubling pause. A try during a pause is refused without looking at the password, so guessing
runs at most a few tries an hour however many addresses it comes from.

There is no lock-out: the pauses never pass MAX_PAUSE, so a stranger's failures delay the host
by minutes at most, never shut him out (a 30-minute lock-out that anyone could renew was worse
than the guessing it stopped). The clock is injected; nothing sleeps.
"""
from __future__ import annotations

import ipaddress
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

FREE_FAILURES = 3
FIRST_PAUSE = timedelta(seconds=2)
MAX_PAUSE = timedelta(minutes=5)
GLOBAL_BUDGET = 20                   # wrong passwords an hour over all sources before everyone waits
GLOBAL_WINDOW = timedelta(hours=1)
LOOPBACK = "loopback"


@dataclass
class _Source:
    failures: int = 0
    not_before: datetime | None = None


@dataclass(frozen=True)
class Failure:
    failures: int              # of this source
    wait: timedelta            # before its next try (the longer of its own and the page's pause)
    over_budget: bool          # the page's hourly budget is spent: every source waits


def source_of(address: str) -> str:
    """The machine an address stands for: the loopback whatever its address, an IPv6 /64, or the
    address itself (anything that is no address stands for itself)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    if parsed.is_loopback:
        return LOOPBACK
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _pause(failures: int) -> timedelta:
    """The pause after `failures` counted failures: none for the free ones, then doubling."""
    if failures <= FREE_FAILURES:
        return timedelta(0)
    return min(FIRST_PAUSE * 2 ** min(failures - FREE_FAILURES - 1, 20), MAX_PAUSE)


class LoginThrottle:
    def __init__(self, now: Callable[[], datetime]):
        self.now = now
        self._sources: dict[str, _Source] = {}
        self._recent: deque[datetime] = deque()      # the page's failures in the last GLOBAL_WINDOW
        self._page_not_before: datetime | None = None

    def wait(self, address: str) -> timedelta | None:
        """How long a try from `address` must still wait, or None."""
        now = self.now()
        entry = self._sources.get(source_of(address))
        moments = [moment for moment in (entry and entry.not_before, self._page_not_before) if moment is not None]
        left = max((moment - now for moment in moments), default=timedelta(0))
        return left if left > timedelta(0) else None

    def failed(self, address: str) -> Failure:
        now = self.now()
        entry = self._sources.setdefault(source_of(address), _Source())
        entry.failures += 1
        own = _pause(entry.failures)
        entry.not_before = now + own
        self._recent.append(now)
        while self._recent and now - self._recent[0] > GLOBAL_WINDOW:
            self._recent.popleft()
        beyond = len(self._recent) - GLOBAL_BUDGET
        page = _pause(FREE_FAILURES + beyond) if beyond > 0 else timedelta(0)
        self._page_not_before = now + page if beyond > 0 else None
        return Failure(entry.failures, max(own, page), beyond > 0)

    def succeeded(self, address: str) -> None:
        """The host is in: his source starts afresh (the page's budget is left as it is: the
        failures of others still count)."""
        self._sources.pop(source_of(address), None)
