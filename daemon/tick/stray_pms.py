"""PMs to the host that no game of the forum takes: a notice for the host instead of silence.

The games of a forum read their orders from one inbox, and each skips a sender who is not its
player (he may play another game there). A PM whose sender is the player of no game of the forum
(a guest, a spectator, an account spelt with look-alike letters, another account with a name that
reads as a player's (look_alikes.py), a player of a game the host has finished, a player the host
replaced by another account) would be read by nobody: the
host gets one notice draft for it, addressed to his own account and always waiting for his
approval. PMs sent before the daemon first watched the forum's games are old mail, not game input.
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Mapping, Sequence

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.settings.local_time import shown
from forumgm.daemon.store import Store
from forumgm.daemon.tick.finish import is_finished
from forumgm.daemon.tick.look_alikes import Bindings, the_players
from forumgm.daemon.tick.notices import KIND
from forumgm.parsers.names import account_player

log = logging.getLogger(__name__)

TEMPLATE = "common/notice_stray_pm.j2"
SUBJECT = "ЛС не от игрока"


def stray_ref(forum_id: str, pm_id: str) -> str:
    return f"stray_pm:{forum_id}:{pm_id}"


def draft_stray_pms(games: Sequence[Any], store: Store, bound: Mapping[str, str] | None = None) -> list[int]:
    """One notice per PM of the forum no game takes; `games` are every game of one forum (tick.GameRun),
    `bound`: each name's own account id (look_alikes.py; None: read from the store).
    The notices belong to the forum's first game by id; the ids of the drafts made now."""
    owner = min(games, key=lambda game: game.id)
    forum_id = owner.forum_id
    since = _watched_since(store, games)
    if since is None:
        return []
    running = [game for game in games if not is_finished(store, game.id)]
    rosters = [game.roster(store) for game in running]
    bound = Bindings(store, forum_id) if bound is None else bound
    made = []
    # a PM some game read (while it ran, or before a replacement) or one a notice answers is settled:
    # the store leaves those out, so a tick's work does not grow with the month's mail
    for pm in store.unclaimed_pms(forum_id, [game.id for game in games], since, stray_ref(forum_id, "")):
        at = pm["sent_at"] or pm["seen_at"]
        ref = stray_ref(forum_id, pm["pm_id"])
        look_alike = the_players(bound, pm["sender"], pm["sender_id"])
        if not look_alike and any(account_player(pm["sender"], roster, at) for roster in rosters):
            continue
        zone = owner.config.time_zone
        finished = sorted(game.id for game in games
                          if game not in running and account_player(pm["sender"], game.roster(store), at))
        body = owner.texts.render(TEMPLATE, sender=pm["sender"], subject=pm["subject"], text=pm["text"],
                                  time=shown(at, zone),
                                  games=sorted(game.id for game in games), finished=finished,
                                  replaced=_replaced(store, games, pm["sender"]),
                                  look_alike={"id": pm["sender_id"], "own_id": look_alike} if look_alike else None)
        made.append(draft(store, owner.id, KIND, owner.account, body, approval=owner.config.approval, ref=ref,
                          subject=SUBJECT))
        log.info("forum %s: PM %s from %s is no player's; a notice is drafted for the host",
                 forum_id, pm["pm_id"], pm["sender"])
    return made


def _watched_since(store: Store, games: Sequence[Any]) -> datetime | None:
    registered = [row["registered_at"] for row in map(store.game, (game.id for game in games)) if row]
    return min(registered, default=None)


def _replaced(store: Store, games: Sequence[Any], sender: str) -> list[dict]:
    """The games in which the host gave the sender's place to another account (forumgm replace)."""
    return [{"game": row["game_id"], "by": row["new_nick"]} for game in games for row in store.replacements(game.id)
            if row["old_nick"].casefold() == sender.casefold()]
