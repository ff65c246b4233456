"""Drafts before a deadline: the reminder of missing day votes and the host's discipline digest.

`reminder_before` (game config, default 1h) ahead of a phase's deadline the engine's reminder
(players without a valid vote) is drafted once per phase: a thread post and a PM to each of them,
telling the time actually left (a daemon started late in the window does not claim the full
offset); the host keeps what he wants. A game whose thread has rules of its own (Mafia's
discipline) has the engine's `host_digest` drafted for the host then and once more at the
deadline, from the stored posts of that game day. Each draft has a ref, so a tick
repeated inside the window drafts nothing twice; a window missed while the daemon was down is
not drafted late (the deadline digest is: the host still needs it).
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.store.orders import order_pms
from forumgm.daemon.store.posts import stored_posts
from forumgm.engines.base import Phase


def draft_before_deadline(game: Any, store, state: Any, phase: Phase, phase_row: dict, now: datetime) -> None:
    deadline = phase_row["deadline"]
    before = game.config.reminder_before
    if before is None:
        return
    if deadline - before <= now < deadline:
        draft_reminder(game, store, state, phase, deadline - now)
        draft_digest(game, store, state, phase, phase_row, now, "before")
    elif now >= deadline:
        draft_digest(game, store, state, phase, phase_row, deadline, "deadline")


def draft_reminder(game: Any, store, state: Any, phase: Phase, left: timedelta) -> None:
    reminder = game.rules.reminder(state, phase, order_pms(store.orders(game.id, phase.key), game.seats(store)), game.texts, left)
    if reminder is None:
        return
    with store.transaction():
        draft(store, game.id, "reminder", "thread", reminder.post, phase.key, approval=game.config.approval,
              ref=f"reminder:{phase.key}")
        for pm in reminder.pms:
            draft(store, game.id, pm.kind, pm.to, pm.text, phase.key, approval=game.config.approval,
                  ref=f"reminder:{phase.key}:{pm.to}", subject=pm.subject)


def draft_digest(game: Any, store, state: Any, phase: Phase, phase_row: dict, end: datetime, when: str) -> None:
    host = game.account
    if not host:
        return
    opens = phase_row["opens_at"]
    pm = game.rules.host_digest(state, phase, stored_posts(store, game.id, opens), opens, end, host, game.texts)
    if pm is None:
        return      # a game whose thread has no rules of its own
    if when == "deadline" and _drafted_before(store, game.id, f"{pm.kind}:{phase.key}:before", pm.text):
        return      # nothing changed since the digest before the deadline: the host has read it
    draft(store, game.id, pm.kind, pm.to, pm.text, phase.key, approval=game.config.approval,
          ref=f"{pm.kind}:{phase.key}:{when}", subject=pm.subject)


def _drafted_before(store, game_id: str, ref: str, body: str) -> bool:
    return any(d["ref"] == ref and d["status"] != "superseded" and d["body"] == body
               for d in store.drafts(game_id=game_id))
