"""Which forum account a name stands for: the board's id first seen with it.

A board may let two accounts have names that read the same (one written with precomposed letters,
«Лёва», one with «е» and a combining diaeresis): forumgm compares names after Unicode
normalisation, so both would act as the player. The id the board gave the account first seen
under the name (in a game's thread of the forum or in its inbox) is the player's; an account with
another id is a look-alike (daemon/tick/look_alikes.py). Each lookup is by the name's index, so a
tick's work does not grow with the threads.
"""
from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Iterable

from forumgm.daemon.store.base import StoreBase, to_text


def spellings(name: str) -> tuple[str, ...]:
    """The ways a board may have stored a name that reads as `name`: composed and decomposed."""
    return tuple(dict.fromkeys((name, unicodedata.normalize("NFC", name), unicodedata.normalize("NFD", name))))


class Accounts(StoreBase):
    def first_account_id(self, forum_id: str, name: str) -> str | None:
        """The id of the first account seen on the forum under a name that reads as `name`; None when
        the board showed none with an id."""
        seen = []
        for written in spellings(name):
            seen += self.db.execute(
                "SELECT p.first_seen_at, p.author_id FROM posts p JOIN games g ON g.id = p.game_id "
                "WHERE p.author = ? AND g.forum_id = ? AND COALESCE(p.author_id, '') <> '' "
                "ORDER BY p.first_seen_at LIMIT 1", [written, forum_id]).fetchall()
            seen += self.db.execute(
                "SELECT seen_at, sender_id FROM pms WHERE sender = ? AND forum_id = ? AND COALESCE(sender_id, '') <> '' "
                "ORDER BY seen_at LIMIT 1", [written, forum_id]).fetchall()
        return min(seen)[1] if seen else None

    def thread_accounts(self, game_id: str, posted_since: datetime) -> list[tuple[str, str]]:
        """(name, id) of every account with an id that posted in the game's thread since `posted_since`."""
        return [tuple(row) for row in self.db.execute(
            "SELECT DISTINCT author, author_id FROM posts WHERE game_id = ? AND posted_at >= ? "
            "AND COALESCE(author_id, '') <> '' ORDER BY author, author_id", [game_id, to_text(posted_since)])]

    def post_account_ids(self, game_id: str, post_ids: Iterable[str]) -> dict[str, str]:
        """post id -> the id of the account that wrote it, where the board showed one."""
        found = {}
        for post_id in post_ids:
            row = self.db.execute("SELECT author_id FROM posts WHERE game_id = ? AND post_id = ?",
                                  [game_id, post_id]).fetchone()
            if row and row[0]:
                found[post_id] = row[0]
        return found
