"""The host moves the open phase's deadline: later by a span, earlier by a negative one, or to a time.

The deadline lives in the store's phase calendar, where the scheduler and the tick read it; the
phases after it are scheduled from the deadline they follow, so they move with it by the game's
calendar (a phase that has a fixed opening time opens at the next such time).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.tick.finish import is_finished

_SPAN = re.compile(r"(\d+)\s*(d|h|m)")
_UNITS = {"d": "days", "h": "hours", "m": "minutes"}
SET_FORMAT = "%Y-%m-%d %H:%M"


@dataclass(frozen=True)
class DeadlineMove:
    phase: str
    old: datetime
    new: datetime


def parse_span(text: str) -> timedelta:
    """"2h", "1d 6h", "90m", "-30m" (earlier) -> a timedelta; anything else is refused."""
    cleaned = text.strip().lower()
    sign = -1 if cleaned.startswith("-") else 1
    body = cleaned.lstrip("+-").strip()
    parts = _SPAN.findall(body)
    if not parts or _SPAN.sub("", body).strip():
        raise ValueError(f"{text!r} is not a span of time (expected e.g. 2h, 90m, 1d 6h, -30m)")
    try:
        span = sum((timedelta(**{_UNITS[unit]: int(number)}) for number, unit in parts), timedelta())
    except (OverflowError, ValueError):     # past timedelta's days, or past int's digits
        raise ValueError(f"{text!r} is longer than any calendar (expected e.g. 2h, 90m, 1d 6h, -30m)") from None
    return sign * span


def parse_local(text: str, zone: ZoneInfo) -> datetime:
    """"YYYY-MM-DD HH:MM" in the game's zone -> an aware datetime."""
    try:
        local = datetime.strptime(text.strip(), SET_FORMAT)
    except ValueError:
        raise ValueError(f"{text!r} is not a time as YYYY-MM-DD HH:MM (in {zone.key})") from None
    return local.replace(tzinfo=zone)


def move_deadline(store: Store, game_id: str, by: str, now: datetime, *, extend: timedelta | None = None,
                  to: datetime | None = None) -> DeadlineMove:
    """Move the open phase's deadline (and any later scheduled one by the same span), audited."""
    if (extend is None) == (to is None):
        raise StoreError("give either a span to extend by or a new deadline")
    if is_finished(store, game_id):
        raise StoreError(f"{game_id} is finished; it has no deadline to move")
    with store.transaction():
        pending = store.phases(game_id, status="pending")
        if not pending:
            raise StoreError(f"{game_id} has no open phase (not started yet, or every phase is resolved)")
        phase = pending[0]
        try:
            new = to if to is not None else phase["deadline"] + extend
        except OverflowError:
            raise StoreError(f"the deadline {phase['deadline'].isoformat()} moved so far is past any calendar") from None
        if new <= now:
            raise StoreError(f"{game_id} {phase['key']}: the new deadline {new:%Y-%m-%d %H:%M} UTC has passed; "
                             "it would close the phase at once")
        if phase["opens_at"] is not None and new <= phase["opens_at"]:
            raise StoreError(f"{game_id} {phase['key']}: the new deadline is before the phase opens "
                             f"({phase['opens_at']:%Y-%m-%d %H:%M} UTC)")
        delta = new - phase["deadline"]
        store.move_deadline(game_id, phase["key"], phase["opens_at"], new)
        for later in pending[1:]:
            store.move_deadline(game_id, later["key"], later["opens_at"] and later["opens_at"] + delta,
                                later["deadline"] + delta)
        store.audit(by, "deadline.move", {"game": game_id, "phase": phase["key"], "old": phase["deadline"],
                                          "new": new})
    return DeadlineMove(phase["key"], phase["deadline"], new)
