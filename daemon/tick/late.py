"""PMs that reach the host after a deadline (docs/mafia.md, "Late PMs"), or before the game opened.

A game day may close before the next one opens (mafia: 22:45 → 23:00). A PM timed in that gap
missed the phase that just closed; an engine whose `late_verdicts` answers it gives the receipt
saying so, and the PM is filed under `<phase>/late`, where no resolution ever reads it: it
never becomes an order of the next phase. Engines that give no late verdicts (Rules' default)
keep the plain rule (a PM belongs to the first phase whose deadline it beat).

A PM sent after the roles went out but before the first phase opened belongs to no phase, in
every game: it is answered that the game has not started and filed under `<phase>/early`.
"""
from __future__ import annotations

from datetime import datetime
from forumgm.engines.base import Phase

LATE_SUFFIX = "/late"
EARLY_SUFFIX = "/early"
NOT_STARTED_TEMPLATE = "common/receipt_not_started.j2"
LATE_TEMPLATE = "receipt_late"           # the game's own, else common/ (engines.receipts.receipt_template)
NOT_STARTED = "игра ещё не началась"      # the reason each line of such a PM is refused with


def late_key(phase_key: str) -> str:
    return phase_key + LATE_SUFFIX


def early_key(phase_key: str) -> str:
    return phase_key + EARLY_SUFFIX


def before_start(store, game_id: str, phase: Phase, at: datetime) -> datetime | None:
    """When the game opens, for a PM timed `at` before its first phase opened; else None."""
    if store.phases(game_id, status="resolved"):
        return None
    opens = store.phase(game_id, phase.key)["opens_at"]
    return opens if opens is not None and at < opens else None


def missed_phase(store, game_id: str, phase: Phase, at: datetime) -> str | None:
    """The key of the resolved phase whose deadline a PM timed `at` came after, before `phase` (the
    open one) opened; None when it is on time for `phase`. Whether it is answered as late is the
    engine's (forumgm.daemon.tick.phase_play.read_pm)."""
    opens = store.phase(game_id, phase.key)["opens_at"]
    if opens is None or at >= opens:
        return None
    missed = [row["key"] for row in store.phases(game_id, status="resolved") if row["deadline"] <= at]
    return missed[-1] if missed else None
