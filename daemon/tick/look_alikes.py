"""Accounts whose names read as a player's but that are another account than the player's.

forumgm takes a post or a PM as a player's by its account name after Unicode normalisation, so
that an accent stored either way is the same name. Where a board lets a second account register
the other spelling, that account would act as the player: each player's name is bound to the id
of the account first seen with it (store/accounts.py), and an account with that name and another
id is a look-alike. Its PMs are no orders (the host gets the stray PM's notice, saying so), its
thread posts are a non-player's (shown under its name and id), and the host gets one notice per
look-alike account seen in a game's thread. Where the board shows no account ids, names alone
decide, as before.
"""
from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta
from typing import Any, Mapping, Sequence

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.store import Store
from forumgm.daemon.tick.notices import KIND
from forumgm.parsers.names import account_player

TEMPLATE = "common/notice_look_alike.j2"
SUBJECT = "Аккаунт под именем игрока"
RECENT = timedelta(days=1)       # the thread's posts looked at for look-alikes each tick


class Bindings:
    """Each name's own account id on one forum, asked of the store once per name (Mapping.get)."""

    def __init__(self, store: Store, forum_id: str):
        self.store, self.forum_id = store, forum_id
        self._ids: dict[str, str | None] = {}

    def get(self, name: str, default: str | None = None) -> str | None:
        if name not in self._ids:
            self._ids[name] = self.store.first_account_id(self.forum_id, name)
        found = self._ids[name]
        return default if found is None else found


def the_players(bound: Mapping[str, str], name: str, account_id: str | None) -> str | None:
    """The id of the player's own account when `account_id` is another account of the same name;
    None when it is the player's account or nothing tells them apart."""
    own = bound.get(unicodedata.normalize("NFC", name))
    return own if own is not None and account_id and account_id != own else None


def shown_as(name: str, account_id: str) -> str:
    """How a look-alike's posts are named wherever players' names are compared: never the player."""
    return f"{name} (другой аккаунт, id {account_id})"


def draft_look_alike_notices(games: Sequence[Any], store: Store, bound: Mapping[str, str], now: datetime) -> list[int]:
    """One notice for the host per look-alike account that posted in the thread of a game of the forum
    (in the last day: a tick looks at the newest posts only)."""
    made = []
    for game in games:
        roster = game.roster(store)
        for author, author_id in store.thread_accounts(game.id, now - RECENT):
            own = the_players(bound, author, author_id)
            if own is None or account_player(author, roster) is None:
                continue
            body = game.texts.render(TEMPLATE, account=author, account_id=author_id, own_id=own, game=game.id,
                                     player=account_player(author, roster))
            made.append(draft(store, game.id, KIND, game.account, body, approval=game.config.approval,
                              ref=f"look_alike:{game.id}:{author_id}", subject=SUBJECT))
    return made
