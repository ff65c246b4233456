"""The host pauses a game (nothing resolves, the page and status say so) and resumes it.

A paused game still reads its thread and PMs and answers order PMs with receipts; a deadline that
passes while it is paused is resolved at the first tick after the host resumes, from the inputs
timed before it (move the deadline first, `forumgm deadline`, to give the players the time back).
"""
from __future__ import annotations

from datetime import datetime

from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.tick.finish import is_finished


def pause_game(store: Store, game_id: str, by: str, now: datetime) -> None:
    if is_finished(store, game_id):
        raise StoreError(f"игра {game_id} закончена: ставить на паузу нечего")
    with store.transaction():
        if not store.set_paused(game_id, by, now):
            raise StoreError(f"игра {game_id} уже на паузе")
        store.audit(by, "game.pause", {"game": game_id})


def resume_game(store: Store, game_id: str, by: str) -> None:
    with store.transaction():
        paused = store.game(game_id) or {}
        if not store.set_paused(game_id, None, None):
            raise StoreError(f"игра {game_id} не на паузе: она и так идёт")
        store.audit(by, "game.resume", {"game": game_id, "paused_at": paused.get("paused_at"),
                                        "paused_by": paused.get("paused_by")})
