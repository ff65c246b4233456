"""PMs that reach the host after a deadline (docs/mafia.md, "Late PMs").

A game day may close before the next one opens (mafia: 22:45 → 23:00). A PM timed in that gap
missed the phase that just closed; an engine with `late_verdicts` answers it with a receipt
saying so, and the PM is filed under `<phase>/late`, where no resolution ever reads it: it
never becomes an order of the next phase. Engines without `late_verdicts` keep the plain rule
(a PM belongs to the first phase whose deadline it beat).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from forumgm.engines.base import Phase

LATE_SUFFIX = "/late"


def late_key(phase_key: str) -> str:
    return phase_key + LATE_SUFFIX


def missed_phase(game: Any, store, phase: Phase, at: datetime) -> str | None:
    """The key of the resolved phase a PM timed `at` came too late for, or None when it is on time
    for `phase` (the open one) or the engine files late PMs into the next phase."""
    if getattr(game.rules, "late_verdicts", None) is None:
        return None
    opens = store.phase(game.id, phase.key)["opens_at"]
    if opens is None or at >= opens:
        return None
    missed = [row["key"] for row in store.phases(game.id, status="resolved") if row["deadline"] <= at]
    return missed[-1] if missed else None
