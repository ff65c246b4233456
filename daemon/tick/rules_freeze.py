"""The rules freeze at every start of the daemon (docs/mafia.md, "Rules freeze").

A running game whose [rules] table no longer matches the rules it was dealt under is not run:
the daemon stops it with a message for the host, who either restores the table or accepts the
change (`forumgm rules --config F GAME --accept-change`); an accepted change is kept in a new
snapshot and the next report says the rules changed.
"""
from __future__ import annotations

import logging
from typing import Any, Sequence

from forumgm.daemon.tick.stops import RULES_CHANGED
from forumgm.engines.base import RulesFrozen

log = logging.getLogger(__name__)

ACCEPTED = "rules"      # the phase key of the snapshot an accepted change is kept in


def refusal(game: Any, store) -> str | None:
    """Why `game` may not run under its configured rules, or None when it may."""
    freeze = getattr(game.rules, "freeze_rules", None)
    snapshot = store.latest_snapshot(game.id)
    if freeze is None or snapshot is None:
        return None
    try:
        freeze(game.rules.load(snapshot["state"]))
    except RulesFrozen:
        return (f"game {game.id}: the [rules] table in {game.config.source} changed after the game started; "
                f"the game is stopped. Restore the table, or accept the change with "
                f"`forumgm rules --config <forumgm.toml> {game.id} --accept-change` (the next report says so)")
    return None


def runnable(games: Sequence[Any], store) -> list[Any]:
    """The games that may run; each refused one is logged, audited and held for the host to see
    (`forumgm status`, the page); a game whose table was restored is released."""
    kept = []
    for game in games:
        problem = refusal(game, store)
        if problem is None:
            store.release_game(game.id, RULES_CHANGED)
            kept.append(game)
            continue
        log.error("%s", problem)
        store.hold_game(game.id, RULES_CHANGED, problem, store.now())
        store.audit("daemon", "rules.refused", {"game": game.id, "message": problem})
    return kept


def accept_change(game: Any, store) -> bool:
    """Run the game under its configured rules from now on; False when nothing changed."""
    snapshot = store.latest_snapshot(game.id)
    if snapshot is None or refusal(game, store) is None:
        return False
    state = game.rules.freeze_rules(game.rules.load(snapshot["state"]), force=True)
    with store.transaction():
        store.add_snapshot(game.id, ACCEPTED, game.rules.dump(state))
        store.release_game(game.id, RULES_CHANGED, by="host")
        store.audit("host", "rules.accept_change", {"game": game.id})
    return True
