"""The reminder an hour before the deadline: living players who have no valid day vote yet."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from forumgm.engines.base import OrderPm, OutgoingPm, Phase
from forumgm.engines.mafia.orders import collect
from forumgm.engines.mafia.state import MafiaState
from forumgm.engines.texts import Texts

POST = "mafia/reminder_post.j2"
PM = "mafia/reminder.j2"


@dataclass(frozen=True)
class Reminder:
    missing: tuple[str, ...]
    post: str                       # one text listing them (for the host or the thread)
    pms: tuple[OutgoingPm, ...]     # one PM to each of them


def missing_votes(state: MafiaState, phase: Phase, orders: Sequence[OrderPm]) -> tuple[str, ...]:
    collected = collect(state, phase, orders)
    return tuple(p.nick for p in state.living() if collected.of(p.nick).vote is None)


def reminder(state: MafiaState, phase: Phase, orders: Sequence[OrderPm], texts: Texts) -> Reminder | None:
    missing = missing_votes(state, phase, orders)
    if not missing:
        return None
    pms = tuple(OutgoingPm(nick, "reminder", texts.render(PM, nick=nick, round=phase.number,
                                                          missed=state.player(nick).missed_votes,
                                                          limit=state.rules.missed_votes_out),
                           subject="Напоминание: дневной голос") for nick in missing)
    return Reminder(missing, texts.render(POST, missing=list(missing), round=phase.number), pms)
