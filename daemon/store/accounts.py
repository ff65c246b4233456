"""Which forum account a name stands for: the board's id first seen with it.

A board may let two accounts have names that read the same (one written with precomposed letters,
«Лёва», one with «е» and a combining diaeresis): forumgm compares names after Unicode
normalisation, so both would act as the player. The id the board gave the account first seen
under the name (in a game's thread or in the inbox) is the player's; an account with another id
is a look-alike (daemon/tick/look_alikes.py).
"""
from __future__ import annotations

import unicodedata

from forumgm.daemon.store.base import StoreBase


class Accounts(StoreBase):
    def first_account_ids(self, forum_id: str) -> dict[str, str]:
        """Each account name seen on the forum (NFC) -> the id of the first account seen with it; names
        the board showed without an id are left out (nothing to tell accounts apart by)."""
        rows = self.db.execute(
            "SELECT author, author_id, MIN(first_seen_at) FROM posts JOIN games ON games.id = posts.game_id "
            "WHERE games.forum_id = ? AND COALESCE(author_id, '') <> '' GROUP BY author, author_id "
            "UNION ALL "
            "SELECT sender, sender_id, MIN(seen_at) FROM pms WHERE forum_id = ? AND COALESCE(sender_id, '') <> '' "
            "GROUP BY sender, sender_id", [forum_id, forum_id])
        first: dict[str, tuple[str, str]] = {}
        for name, account_id, seen in rows:
            key = unicodedata.normalize("NFC", name)
            if key not in first or (seen, account_id) < first[key]:
                first[key] = (seen, account_id)
        return {name: account_id for name, (_, account_id) in first.items()}

    def thread_accounts(self, game_id: str) -> list[tuple[str, str]]:
        """(name, id) of every account seen posting in the game's thread with an id."""
        return [tuple(row) for row in self.db.execute(
            "SELECT DISTINCT author, author_id FROM posts WHERE game_id = ? AND COALESCE(author_id, '') <> '' "
            "ORDER BY author, author_id", [game_id])]

    def post_account_ids(self, game_id: str) -> dict[str, str]:
        """post id -> the id of the account that wrote it, where the board showed one."""
        return dict(self.db.execute("SELECT post_id, author_id FROM posts WHERE game_id = ? "
                                    "AND COALESCE(author_id, '') <> ''", [game_id]))
