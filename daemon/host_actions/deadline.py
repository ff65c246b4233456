"""The host moves the open phase's deadline: later by a span, earlier by a negative one, or to a time.

The deadline lives in the store's phase calendar, where the scheduler and the tick read it; the
phases after it are scheduled from the deadline they follow, so they move with it by the game's
calendar (a phase that has a fixed opening time opens at the next such time).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.settings.games import shipped_rules
from forumgm.daemon.settings.local_time import shown
from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.tick.finish import is_finished


@dataclass(frozen=True)
class DeadlineMove:
    phase: str
    old: datetime
    new: datetime


def move_deadline(store: Store, game_id: str, by: str, now: datetime, zone: ZoneInfo, *,
                  extend: timedelta | None = None, to: datetime | None = None) -> DeadlineMove:
    """Move the open phase's deadline (and any later scheduled one by the same span), audited.
    A refusal speaks in the game's zone (`zone`), named."""
    if (extend is None) == (to is None):
        raise StoreError("укажите либо на сколько сдвинуть дедлайн (2ч, -30 мин), либо новое время")
    if is_finished(store, game_id):
        raise StoreError(f"игра {game_id} закончена: дедлайна больше нет")
    with store.transaction():
        pending = store.phases(game_id, status="pending")
        if not pending:
            raise StoreError(f"у игры {game_id} нет открытой фазы (игра ещё не началась или все фазы подведены)")
        phase = pending[0]
        try:
            new = to if to is not None else phase["deadline"] + extend
        except OverflowError:
            raise StoreError(f"дедлайн {shown(phase['deadline'], zone)} так далеко не сдвинуть: новое время "
                             "дальше любого календаря") from None
        named = f"{game_id}, {phase_label(shipped_rules(store.game(game_id)['type']), phase['key'])}"
        if new <= now:
            raise StoreError(f"{named}: новый дедлайн {shown(new, zone)} уже прошёл "
                             f"(сейчас {shown(now, zone)}); фаза закрылась бы сразу")
        if phase["opens_at"] is not None and new <= phase["opens_at"]:
            raise StoreError(f"{named}: новый дедлайн {shown(new, zone)} раньше начала фазы "
                             f"({shown(phase['opens_at'], zone)})")
        delta = new - phase["deadline"]
        store.move_deadline(game_id, phase["key"], phase["opens_at"], new)
        for later in pending[1:]:
            store.move_deadline(game_id, later["key"], later["opens_at"] and later["opens_at"] + delta,
                                later["deadline"] + delta)
        store.audit(by, "deadline.move", {"game": game_id, "phase": phase["key"], "old": phase["deadline"],
                                          "new": new})
    return DeadlineMove(phase["key"], phase["deadline"], new)
