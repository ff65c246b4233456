"""The reminder before the deadline: living players who have no valid day vote yet."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Sequence

from forumgm.engines.base import OrderPm, OutgoingPm, Phase
from forumgm.engines.mafia.orders import collect
from forumgm.engines.mafia.state import MafiaState
from forumgm.engines.texts import Texts

POST = "mafia/reminder_post.j2"
PM = "mafia/reminder.j2"
# Past this many minutes the time left is told to the nearest five: the daemon drafts on its
# poll after the window opens and the host approves later still, so "58 minutes" would be a
# false precision where "1 hour" is what the config meant.
EXACT_BELOW = 15
ROUND_TO = 5


@dataclass(frozen=True)
class Reminder:
    missing: tuple[str, ...]
    post: str                       # one text listing them (for the host or the thread)
    pms: tuple[OutgoingPm, ...]     # one PM to each of them


def missing_votes(state: MafiaState, phase: Phase, orders: Sequence[OrderPm]) -> tuple[str, ...]:
    collected = collect(state, phase, orders)
    return tuple(p.nick for p in state.living() if collected.of(p.nick).vote is None)


def minutes_left(left: timedelta) -> int:
    """Whole minutes to tell the players (at least one), to the nearest five from EXACT_BELOW up."""
    minutes = max(1, int(left.total_seconds() / 60 + 0.5))
    if minutes < EXACT_BELOW:
        return minutes
    return (minutes + ROUND_TO // 2) // ROUND_TO * ROUND_TO


def reminder(state: MafiaState, phase: Phase, orders: Sequence[OrderPm], texts: Texts,
             left: timedelta) -> Reminder | None:
    """`left` is the time until the phase's deadline when the reminder is drafted."""
    missing = missing_votes(state, phase, orders)
    if not missing:
        return None
    minutes = minutes_left(left)
    pms = tuple(OutgoingPm(nick, "reminder", texts.render(PM, nick=nick, round=phase.number, minutes=minutes,
                                                          missed=state.player(nick).missed_votes,
                                                          limit=state.rules.missed_votes_out),
                           subject="Напоминание: дневной голос") for nick in missing)
    return Reminder(missing, texts.render(POST, missing=list(missing), round=phase.number, minutes=minutes), pms)
