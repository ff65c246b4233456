"""When the daemon ticks next: at deadlines and reminder times, often near a deadline, seldom far from one.

Pure: the loop (forumgm.daemon.runtime.loop) hands in the open phases read from the store at that
moment, so a deadline the host moves takes effect at the next look, whatever was planned.

    a deadline + grace        the phase resolves then (orders sent just before it are in the inbox)
    a deadline - reminder     the reminder of missing votes is drafted then
    a deadline - near window  from then on the thread and inbox are read every `near` seconds
    the last `near` before it twice as often: a late rush of orders is read as it comes, not all
                              after the deadline (30 PMs cost 30 requests at the polite rate)
    otherwise                 every `far` seconds after the last tick
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterable

from forumgm.daemon.settings.records import DEADLINE_GRACE


@dataclass(frozen=True)
class Polling:
    far: timedelta = timedelta(minutes=10)       # no deadline near
    near: timedelta = timedelta(seconds=30)      # within `window` of a deadline
    window: timedelta = timedelta(hours=1)
    grace: timedelta = timedelta(seconds=DEADLINE_GRACE)     # after a deadline, before it resolves

    @classmethod
    def of(cls, installation) -> "Polling":
        return cls(far=timedelta(seconds=installation.poll_interval),
                   near=timedelta(seconds=installation.poll_near),
                   window=timedelta(seconds=installation.near_deadline),
                   grace=timedelta(seconds=installation.deadline_grace))


@dataclass(frozen=True)
class OpenPhase:
    """A game's open phase as the scheduler needs it."""

    deadline: datetime
    reminder_before: timedelta | None = None


@dataclass(frozen=True)
class Wake:
    at: datetime
    why: str        # "deadline", "reminder", "near a deadline", "flood pause" or "poll": for the log and `status`


# the plan's reason once no tick follows (the loop ended: a signal, --once, the demo's end), so that
# `status` says the daemon stopped instead of waiting for a tick; "stopped: why" when there is more to say
STOPPED = "stopped"


def polling_text(polling: Polling) -> str:
    """How often the daemon reads the forum, for its start-up log line: the rate near a deadline only
    where it is faster than the usual one (`next_wake` never polls slower near a deadline)."""
    far, near = _seconds(polling.far), _seconds(polling.near)
    if polling.window <= timedelta(0):
        return f"poll every {far}s"
    if polling.near >= polling.far:
        return f"poll every {far}s, near a deadline too"
    return f"poll every {far}s (every {near}s within {_seconds(polling.window)}s of a deadline)"


def _seconds(span: timedelta) -> str:
    return f"{span.total_seconds():g}"


def next_wake(last_tick: datetime, phases: Iterable[OpenPhase], polling: Polling,
              drafts_held: datetime | None = None) -> Wake:
    """The first moment after `last_tick` the daemon must tick; `drafts_held`: when the board's
    flood pause that holds approved drafts ends (they go on the tick then, not at the next poll)."""
    phases = list(phases)
    near = any(p.deadline - polling.window <= last_tick < p.deadline + polling.grace for p in phases)
    wakes = []
    for phase in phases:
        wakes.append(Wake(phase.deadline + polling.grace, "deadline"))
        wakes.append(Wake(phase.deadline - polling.window, "near a deadline"))
        if phase.reminder_before is not None:
            wakes.append(Wake(phase.deadline - phase.reminder_before, "reminder"))
    if drafts_held is not None:
        wakes.append(Wake(drafts_held, "flood pause"))
    every = min(polling.near, polling.far) if near else polling.far
    if any(p.deadline - every <= last_tick < p.deadline for p in phases):
        every = every / 2       # the last call: what arrives now must be read before deadline + grace
    wakes.append(Wake(last_tick + every, "poll"))   # last: a tie names the deadline
    # a moment already passed at the last tick was handled by it (or missed for good: catch-up
    # resolves late deadlines at once)
    return min((w for w in wakes if w.at > last_tick), key=lambda w: w.at)
