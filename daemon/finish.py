"""The host ends a game: the winner he names is recorded, no later phase resolves, and a final
announcement is drafted for the thread (every game type; the engine is not asked)."""
from __future__ import annotations

from datetime import datetime

from forumgm.daemon.store import Store, StoreError

KIND = "final_announcement"
TEMPLATE = "common/final_announcement.j2"


def finish_game(game, store: Store, winner: str, by: str, now: datetime) -> int:
    """Record the end and draft the announcement in one transaction; the draft id."""
    winner = winner.strip()
    if not winner:
        raise StoreError("name the winner (e.g. --winner \"Клан Хаоса\")")
    with store.transaction():
        if not store.finish_game(game.id, winner, by, now):
            raise StoreError(f"{game.id} is already finished (winner: {store.game(game.id)['winner']})")
        snapshot = store.latest_snapshot(game.id)
        alive = game.rules.alive(game.rules.load(snapshot["state"])) if snapshot else []
        body = game.texts.render(TEMPLATE, winner=winner, alive=alive)
        return store.add_draft(game.id, KIND, "thread", body, None, game.config.needs_approval(KIND), ref=KIND)


def is_finished(store: Store, game_id: str) -> bool:
    row = store.game(game_id)
    return bool(row and row.get("finished_at"))
