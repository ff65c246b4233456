"""The host replaces a player: a new forum account takes over the role, the state and the history.

The game's config keeps the players it was dealt with; the store keeps each replacement, and the
roster the daemon plays with is the config's with the replacements applied. Replacing renames the
player everywhere the game goes on from (every snapshot, orders, votes, the host's vote corrections,
eliminations, drafts not yet sent); what was already sent stays as it was. The old account is no
player any more, so its later PMs reach the host as notices (forumgm.daemon.tick.stray_pms) and its posts
are no votes.
"""
from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any, Sequence

from forumgm.daemon.settings.records import GameConfig, PlayerConfig
from forumgm.daemon.tick.finish import is_finished
from forumgm.daemon.store import Store, StoreError
from forumgm.parsers.names import account_player


def current_players(config: GameConfig, store: Store) -> tuple[PlayerConfig, ...]:
    """The config's players with every replacement applied, in order (a player may be replaced twice)."""
    players = list(config.players)
    for row in store.replacements(config.id):
        players = [PlayerConfig(row["new_nick"], (), p.role) if p.nick == row["old_nick"] else p for p in players]
    return tuple(players)


def with_replacements(games: Sequence[Any], store: Store) -> list[Any]:
    """tick.GameRun-s playing with their current players."""
    return [dataclasses.replace(game, config=dataclasses.replace(game.config,
                                                                 players=current_players(game.config, store)))
            for game in games]


def replace_player(game, store: Store, old: str, new: str, by: str, now: datetime) -> dict:
    """Rename `old` to `new` in the game, in one transaction; what was renamed, as audited."""
    new = new.strip()
    roster = game.roster()
    player = account_player(old, roster)
    if player is None:
        raise StoreError(f"{old!r} is not a player of {game.id} "
                         f"(players: {', '.join(p.nick for p in game.config.players)})")
    if not new or account_player(new, roster) is not None:
        raise StoreError(f"{new!r} cannot take over: name a forum account that is not already a player of {game.id}")
    if is_finished(store, game.id):
        raise StoreError(f"{game.id} is finished; its players can no longer change")
    with store.transaction():
        counts = store.rename_player(game.id, player, new, lambda state: rename_in(state, player, new))
        store.add_replacement(game.id, player, new, by, now)
        detail = {"game": game.id, "old": player, "new": new, **counts}
        store.audit(by, "player.replace", detail)
    return detail


def rename_in(value: Any, old: str, new: str) -> Any:
    """A JSON value with every string and key equal to `old` made `new` (engines keep nicknames whole)."""
    if isinstance(value, dict):
        return {(new if key == old else key): rename_in(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [rename_in(item, old, new) for item in value]
    return new if value == old else value
