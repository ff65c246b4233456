"""The game clock: what time it is (injectable) and when each phase opens and closes.

Deadlines are wall-clock times in the game's own zone (Europe/Moscow by default), computed
with zoneinfo, so the server's zone and its DST changes never move them. The phase sequence
comes from the engine (`Rules.first_phase` / `Rules.next_phase`); the calendar only says when a
phase of each kind runs.
"""
from __future__ import annotations

import time as _time
from datetime import date, datetime, time, timedelta, timezone
from typing import Callable, Protocol
from zoneinfo import ZoneInfo

from forumgm.daemon.settings.records import GameConfig, PhaseTimes


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    wall = True     # the machine's own clock: the board's clock may check it (tick/board_clock.py)

    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class FixedClock:
    """Stands still until moved: tests set or advance it between ticks."""

    def __init__(self, at: datetime) -> None:
        self._at = _aware(at)

    def now(self) -> datetime:
        return self._at

    def set(self, at: datetime) -> None:
        self._at = _aware(at)

    def advance(self, delta: timedelta) -> None:
        self._at += delta


class FastClock:
    """Game time running `speed` times faster than real time from `start` (the demo's clock, and
    `forumgm run --start-at`)."""

    def __init__(self, start: datetime, speed: float, monotonic: Callable[[], float] = _time.monotonic) -> None:
        self._start = _aware(start)
        self.speed = speed
        self._monotonic = monotonic
        self._origin = monotonic()
        self._until: datetime | None = None

    def now(self) -> datetime:
        seconds = (self._monotonic() - self._origin) * self.speed
        # compared in seconds first: at a huge speed the running time is past any date a datetime holds
        if self._until is not None and seconds >= (self._until - self._start).total_seconds():
            return self._until
        return self._start + timedelta(seconds=seconds)

    def hold(self, until: datetime | None) -> None:
        """Stop game time at `until` (None: let it run) until held elsewhere; then it catches up.
        The demo holds it at its next scripted act or deadline: on a fast clock one slow tick
        would otherwise carry the game past them unread."""
        self._until = until


def _aware(at: datetime) -> datetime:
    if at.tzinfo is None:
        raise ValueError(f"a clock needs an aware datetime, not {at!r}")
    return at


# ---------------------------------------------------------------- calendar arithmetic

def local_moment(day: date, at: time, zone: ZoneInfo) -> datetime:
    """`day` at wall-clock `at` in `zone`, as an aware UTC datetime.

    A time skipped by a DST jump lands on the same instant shifted forward by the jump; an
    ambiguous one (clocks set back) is the first of the two.
    """
    return datetime.combine(day, at).replace(tzinfo=zone).astimezone(timezone.utc)


def next_local_time(after: datetime, at: time, zone: ZoneInfo, inclusive: bool) -> datetime:
    """The first moment at wall-clock `at` in `zone` at or after (`inclusive`) / after `after`."""
    day = after.astimezone(zone).date() - timedelta(days=1)
    while True:
        candidate = local_moment(day, at, zone)
        if candidate > after or (inclusive and candidate == after):
            return candidate
        day += timedelta(days=1)


def add_wall_time(start: datetime, span: timedelta, zone: ZoneInfo) -> datetime:
    """`start` plus `span` of wall-clock time: a 3-day turn from 12:00 ends at 12:00 across DST."""
    local = start.astimezone(zone).replace(tzinfo=None) + span
    return local.replace(tzinfo=zone).astimezone(timezone.utc)


def phase_window(times: PhaseTimes, zone: ZoneInfo, after: datetime) -> tuple[datetime, datetime]:
    """(opens, deadline) of a phase that may open no earlier than `after` (the previous deadline)."""
    if times.duration is not None:
        return after.astimezone(timezone.utc), add_wall_time(after, times.duration, zone)
    opens = next_local_time(after, times.opens, zone, inclusive=True)
    return opens, next_local_time(opens, times.closes, zone, inclusive=False)


def schedule(game: GameConfig, kind: str, after: datetime) -> tuple[datetime, datetime]:
    """When a phase of `kind` of `game` runs, given the moment the previous one ended."""
    return phase_window(game.calendar[kind], game.time_zone, after)


def due_phases(game: GameConfig, now: datetime, store, grace: timedelta = timedelta(0)) -> list[dict]:
    """Scheduled phases whose deadline (plus the daemon's grace for PMs in flight) has passed and
    that are not resolved, oldest first."""
    return [phase for phase in store.phases(game.id, status="pending") if phase["deadline"] + grace <= now]
