"""A game that cannot go on stops, and the host sees why (`forumgm status`, the web page).

Mostly its forum pages cannot be read; sometimes its engine fails on what was read.

A page the parser does not understand, or a forum that does not answer, must never pass for "no
new votes": the game waits, its problem is kept in the store with the time it started, and the log
says so once when it starts (again once after a restart of the daemon, at DEBUG every tick) and
once when a later sync of the game succeeds.
"""
from __future__ import annotations

import logging
from datetime import datetime

from forumgm.daemon.store import Store

log = logging.getLogger(__name__)

_TOLD: set[str] = set()   # stopped games this process has logged


def note_sync(store: Store, game_id: str, error: str | None, now: datetime) -> None:
    """Record the outcome of a game's sync this tick: its problem, or that it has none any more."""
    if error:
        if store.set_problem(game_id, error, now) or game_id not in _TOLD:
            log.error("game %s stopped: %s", game_id, error)
        else:
            log.debug("game %s still waits: %s", game_id, error)
        _TOLD.add(game_id)
        return
    _TOLD.discard(game_id)
    cleared = store.clear_problem(game_id)
    if cleared is not None:
        log.info("game %s runs again: its forum pages are read (it had stopped: %s)", game_id, cleared)
