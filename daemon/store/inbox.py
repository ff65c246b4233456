"""The host account's PM inbox: every PM read, when the inbox was read whole, the PMs asked to leave it."""
from __future__ import annotations

from datetime import datetime
from typing import Iterable, Sequence

from forumgm.daemon.store.base import StoreBase, StoreError, to_text
from forumgm.parsers.forums.base import PmHeader, PmMessage


class Inbox(StoreBase):
    def record_pm(self, forum_id: str, header: PmHeader, message: PmMessage, seen_at: datetime) -> bool:
        """Stored once; True when this PM was not known before."""
        cursor = self.db.execute(
            "INSERT INTO pms (forum_id, pm_id, sender, sender_id, subject, sent_at, unread, html, text, "
            "text_unquoted, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(forum_id, pm_id) DO NOTHING",
            [forum_id, message.id, message.sender, message.sender_id, message.subject,
             to_text(message.sent_at or header.sent_at), int(header.unread), message.html, message.text,
             message.text_unquoted, to_text(seen_at)],
        )
        return cursor.rowcount == 1

    def known_pm_ids(self, forum_id: str) -> set[str]:
        """Every PM of the inbox already seen: those stored and those the account sent itself."""
        return {row[0] for row in self.db.execute("SELECT pm_id FROM pms WHERE forum_id = ? UNION "
                                                  "SELECT pm_id FROM own_pms WHERE forum_id = ?",
                                                  [forum_id, forum_id])}

    def set_inbox_read(self, forum_id: str, at: datetime | None) -> None:
        """When the inbox was last read whole without a problem; None after a read that failed."""
        self.db.execute("UPDATE forums SET inbox_read_at = ? WHERE id = ?", [to_text(at), forum_id])

    def inbox_read_at(self, forum_id: str) -> datetime | None:
        row = self._one("SELECT inbox_read_at FROM forums WHERE id = ?", [forum_id])
        return row["inbox_read_at"] if row else None

    def record_own_pms(self, forum_id: str, pm_ids: Iterable[str], seen_at: datetime) -> None:
        self.db.conn.executemany("INSERT OR IGNORE INTO own_pms (forum_id, pm_id, seen_at) VALUES (?, ?, ?)",
                                 [(forum_id, pm_id, to_text(seen_at)) for pm_id in pm_ids])

    def removable_pms(self, forum_id: str, pm_ids: Iterable[str], stored_before: datetime | None) -> list[str]:
        """Those of `pm_ids` (in their order) stored with their text, before `stored_before` (None:
        whenever), that no draft answering them waits for: a receipt or a notice of a stray PM
        still pending, approved or being sent. A PM the account sent itself (an approved notice to
        the host's own account: its text is the draft's) goes the same way, by when it was listed."""
        wanted = list(dict.fromkeys(pm_ids))
        if not wanted:
            return []
        marks = ", ".join("?" for _ in wanted)
        rows = self.db.execute(
            f"SELECT pm_id FROM pms WHERE forum_id = ? AND pm_id IN ({marks}) AND text IS NOT NULL "
            "AND html IS NOT NULL AND (? IS NULL OR seen_at <= ?) AND NOT EXISTS (SELECT 1 FROM drafts "
            "WHERE ref IN ('receipt:' || pms.pm_id, 'stray_pm:' || pms.forum_id || ':' || pms.pm_id) "
            "AND status IN ('pending', 'approved', 'sending')) "
            f"UNION SELECT pm_id FROM own_pms WHERE forum_id = ? AND pm_id IN ({marks}) "
            "AND (? IS NULL OR COALESCE(seen_at, '') <= ?)",
            [forum_id, *wanted, to_text(stored_before), to_text(stored_before),
             forum_id, *wanted, to_text(stored_before), to_text(stored_before)])
        found = {row[0] for row in rows}
        return [pm_id for pm_id in wanted if pm_id in found]

    def ask_pm_removal(self, forum_id: str, pm_ids: Iterable[str], action: str, at: datetime) -> list[str]:
        """Inside durably(): note that the board is asked to remove these PMs; the ones stored with
        their text, which alone may be removed (checked again here, in the transaction that goes to
        disk before the board is asked)."""
        if not self.db.conn.in_transaction:
            raise StoreError("ask_pm_removal must run inside Store.durably()")
        stored = self.removable_pms(forum_id, pm_ids, None)
        self.db.conn.executemany(
            "INSERT INTO pm_removals (forum_id, pm_id, action, asked_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(forum_id, pm_id) DO UPDATE SET action = excluded.action, asked_at = excluded.asked_at, "
            "done_at = NULL", [(forum_id, pm_id, action, to_text(at)) for pm_id in stored])
        return stored

    def pm_removals_done(self, forum_id: str, pm_ids: Iterable[str], at: datetime) -> None:
        self.db.conn.executemany("UPDATE pm_removals SET done_at = ? WHERE forum_id = ? AND pm_id = ?",
                                 [(to_text(at), forum_id, pm_id) for pm_id in pm_ids])

    def pm_removals(self, forum_id: str) -> list[dict]:
        return self._rows("SELECT * FROM pm_removals WHERE forum_id = ? ORDER BY asked_at, pm_id", [forum_id])

    def pms(self, forum_id: str, since: datetime | None = None) -> list[dict]:
        if since is None:
            return self._rows("SELECT * FROM pms WHERE forum_id = ? ORDER BY sent_at, seen_at, rowid", [forum_id])
        return self._rows("SELECT * FROM pms WHERE forum_id = ? AND seen_at >= ? ORDER BY sent_at, seen_at, rowid",
                          [forum_id, to_text(since)])

    def unclaimed_pms(self, forum_id: str, game_ids: Sequence[str], since: datetime, ref_prefix: str) -> list[dict]:
        """The forum's PMs sent (or, undated, seen) at or after `since` that none of `game_ids` read as
        an order and that no live draft with reference `ref_prefix` + pm_id answers, in `pms` order."""
        games = list(game_ids)
        marks = ", ".join("?" for _ in games)
        return self._rows(
            "SELECT * FROM pms WHERE forum_id = ? AND COALESCE(sent_at, seen_at) >= ? "
            f"AND pm_id NOT IN (SELECT pm_id FROM orders WHERE game_id IN ({marks})) "
            "AND ? || pm_id NOT IN (SELECT ref FROM drafts WHERE substr(ref, 1, ?) = ? AND status <> 'superseded') "
            "ORDER BY sent_at, seen_at, rowid",
            [forum_id, to_text(since), *games, ref_prefix, len(ref_prefix), ref_prefix])
