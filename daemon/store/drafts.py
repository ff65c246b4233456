"""Drafts and their sending: status from pending to sent (at most once), the host's edits, the sent
copies on the board."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Iterable, Sequence

from forumgm.daemon.store.base import StoreBase, StoreError, to_text

# each status a draft may have, as the host reads it of a draft («черновик №12 — отправлен»)
STATUS_LABELS = {
    "pending": "ждёт решения",
    "approved": "одобрен",
    "sending": "отправляется",
    "sent": "отправлен",
    "rejected": "отклонён",
    "superseded": "заменён",
}
DRAFT_STATUSES = tuple(STATUS_LABELS)
# a draft in one of these may still change; the others are history
OPEN_DRAFT_STATUSES = ("pending", "approved")


class Drafts(StoreBase):
    def insert_draft(self, game_id: str, kind: str, target: str, body: str, phase_key: str | None,
                  needs_approval: bool, ref: str | None = None, subject: str = "",
                  resolution_id: int | None = None, pictures: Sequence[str] = ()) -> int:
        """A new draft, or the live one already drafted for the same `ref` (never twice). `pictures`:
        files it is posted with (daemon/drafts/pictures.py)."""
        if ref is not None:
            existing = self.db.execute("SELECT id FROM drafts WHERE game_id = ? AND ref = ? "
                                       "AND status <> 'superseded'", [game_id, ref]).fetchone()
            if existing:
                return existing[0]
        now = to_text(self.now())
        return self._insert("drafts", {
            "game_id": game_id, "kind": kind, "target": target, "subject": subject, "body": body,
            "phase_key": phase_key, "needs_approval": int(needs_approval),
            "status": "pending" if needs_approval else "approved", "ref": ref,
            "resolution_id": resolution_id, "created_at": now, "updated_at": now,
            **({"pictures": json.dumps([self.kept_path(path) for path in pictures], ensure_ascii=False)}
               if pictures else {}),
        })

    def drafts(self, status: str | None = None, game_id: str | None = None) -> list[dict]:
        where, params = [], []
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        return self._rows(f"SELECT * FROM drafts {clause} ORDER BY id", params)

    def draft(self, draft_id: int) -> dict:
        row = self._one("SELECT * FROM drafts WHERE id = ?", [draft_id])
        if row is None:
            raise StoreError(f"черновика №{draft_id} нет")
        return row

    def draft_edits(self, draft_id: int) -> list[dict]:
        return self._rows("SELECT * FROM draft_edits WHERE draft_id = ? ORDER BY id", [draft_id])

    def _open_draft(self, draft_id: int, action: str) -> dict:
        """The draft, refused unless it may still change; `action` is what the host tried («одобрить»)."""
        row = self.draft(draft_id)
        if row["status"] not in OPEN_DRAFT_STATUSES:
            raise StoreError(f"черновик №{draft_id} уже {STATUS_LABELS[row['status']]}, {action} его больше нельзя")
        return row

    def edit_draft(self, draft_id: int, body: str, by: str) -> None:
        """New body, kept in the edit history; an approved draft goes back to pending when it needs approval."""
        with self.transaction():
            row = self._open_draft(draft_id, "править")
            now = to_text(self.now())
            self._insert("draft_edits", {"draft_id": draft_id, "body_before": row["body"], "body_after": body,
                                         "edited_by": by, "edited_at": now})
            status = "pending" if row["needs_approval"] else row["status"]
            self.db.execute("UPDATE drafts SET body = ?, status = ?, updated_at = ? WHERE id = ?",
                            [body, status, now, draft_id])
            self.audit(by, "draft.edit", {"draft": draft_id})

    def _decide(self, draft_id: int, status: str, by: str, action: str) -> None:
        with self.transaction():
            self._open_draft(draft_id, action)
            self.db.execute("UPDATE drafts SET status = ?, decided_by = ?, updated_at = ? WHERE id = ?",
                            [status, by, to_text(self.now()), draft_id])
            self.audit(by, f"draft.{status}", {"draft": draft_id})

    def approve(self, draft_id: int, by: str) -> None:
        self._decide(draft_id, "approved", by, "одобрить")

    def reject(self, draft_id: int, by: str) -> None:
        self._decide(draft_id, "rejected", by, "отклонить")

    def supersede(self, draft_id: int) -> None:
        self.db.execute("UPDATE drafts SET status = 'superseded', updated_at = ? WHERE id = ?",
                        [to_text(self.now()), draft_id])

    def mark_sending(self, draft_id: int, at: datetime, after: str | None = None) -> None:
        """Before the forum request: a crash after this is reconciled, never blindly re-sent.
        `after`: the newest post or sent-PM id the board showed before (None: not known). On the
        disk before the request goes (durably): lost to a power cut, the draft would be sent again
        as approved instead of looked for."""
        with self.durably():
            row = self.draft(draft_id)
            if row["status"] != "approved":
                raise StoreError(f"черновик №{draft_id} не одобрен: он {STATUS_LABELS[row['status']]}")
            self.db.execute("UPDATE drafts SET status = 'sending', sending_at = ?, sent_after = ?, updated_at = ? "
                            "WHERE id = ?", [to_text(at), after, to_text(at), draft_id])

    def mark_sent(self, draft_id: int, forum_ref: str, at: datetime) -> None:
        """Durably, as mark_sending: the forum's id is what keeps the text from being claimed by another draft."""
        with self.durably():
            self.db.execute("UPDATE drafts SET status = 'sent', forum_ref = ?, sent_at = ?, updated_at = ?, "
                            "send_error = NULL WHERE id = ?", [forum_ref, to_text(at), to_text(at), draft_id])
            self.audit("daemon", "draft.sent", {"draft": draft_id, "forum_ref": forum_ref})

    def mark_refused(self, draft_id: int, error: str, at: datetime) -> None:
        """The forum refused the draft for good (unknown recipient, too long...): back to pending with
        the forum's message, for the host to edit and approve again; it is not retried by itself."""
        with self.transaction():
            self.db.execute("UPDATE drafts SET status = 'pending', send_error = ?, sending_at = NULL, updated_at = ? "
                            "WHERE id = ?", [error, to_text(at), draft_id])
            self.audit("daemon", "draft.refused", {"draft": draft_id, "error": error})

    def mark_waiting(self, draft_id: int, note: str, at: datetime) -> None:
        """The board's flood rule held the draft and took nothing: approved again, to go on a later
        tick, with `note` for the host meanwhile (a pause, not a problem: nothing is audited)."""
        with self.transaction():
            self.db.execute("UPDATE drafts SET status = 'approved', sending_at = NULL, sent_after = NULL, "
                            "send_error = ?, updated_at = ? WHERE id = ? AND status IN ('approved', 'sending')",
                            [note, to_text(at), draft_id])

    def note_send_problem(self, draft_id: int, error: str, at: datetime) -> None:
        """Publishing this draft failed (not a refusal): it keeps its status and is tried again on
        the next tick; the host sees why meanwhile."""
        with self.transaction():
            changed = self.db.execute("UPDATE drafts SET send_error = ?, updated_at = ? WHERE id = ? "
                                      "AND send_error IS NOT ?", [error, to_text(at), draft_id, error]).rowcount
            if changed:    # once per problem, not once per tick
                self.audit("daemon", "draft.send_failed", {"draft": draft_id, "error": error})

    def claimed_posts(self, thread_url: str) -> set[str]:
        """The post ids of the drafts recorded as sent in this thread: a post already one draft's is
        no other's. Boards number posts and PMs apart, so a PM's id says nothing of a post."""
        rows = self.db.execute(
            "SELECT d.forum_ref FROM drafts d JOIN games g ON g.id = d.game_id WHERE g.thread_url = ? "
            "AND d.target = 'thread' AND d.status = 'sent' AND d.forum_ref IS NOT NULL AND d.forum_ref <> ''",
            [thread_url])
        return {row[0] for row in rows}

    def claimed_pms(self, forum_id: str) -> set[str]:
        """The ids of the PMs the forum's account is recorded to have sent (drafts and the host's
        notices): a PM already one text's is no other's. Another board's PMs, or this board's
        posts, are numbered apart and say nothing of it."""
        rows = self.db.execute(
            "SELECT d.forum_ref FROM drafts d JOIN games g ON g.id = d.game_id WHERE g.forum_id = ? "
            "AND d.target <> 'thread' AND d.status = 'sent' AND d.forum_ref IS NOT NULL AND d.forum_ref <> '' "
            "UNION SELECT pm_id FROM notice_pms WHERE forum_id = ?", [forum_id, forum_id])
        return {row[0] for row in rows}

    def sending_drafts(self) -> list[dict]:
        return self.drafts(status="sending")

    def sent_copies(self, forum_id: str, sent_before: datetime | None, limit: int) -> list[str]:
        """The forum ids of the forum's PM drafts recorded as sent (with an id), and of the host's
        notices by PM, whose copy in the sent folder is not deleted yet, sent before `sent_before`
        (None: any), the oldest first."""
        before = to_text(sent_before)
        rows = self.db.execute(
            "SELECT ref FROM (SELECT d.forum_ref AS ref, d.sent_at AS at FROM drafts d JOIN games g ON g.id = d.game_id "
            "WHERE g.forum_id = ? AND d.target <> 'thread' AND d.status = 'sent' AND d.forum_ref IS NOT NULL "
            "AND d.forum_ref <> '' AND d.copy_removed_at IS NULL AND (? IS NULL OR d.sent_at < ?) "
            "UNION ALL SELECT pm_id, sent_at FROM notice_pms WHERE forum_id = ? AND copy_removed_at IS NULL "
            "AND (? IS NULL OR sent_at < ?)) ORDER BY at, ref LIMIT ?",
            [forum_id, before, before, forum_id, before, before, limit])
        return [row[0] for row in rows]

    def sent_copies_removed(self, forum_id: str, forum_refs: Iterable[str], at: datetime) -> None:
        refs = list(forum_refs)
        marks = ", ".join("?" for _ in refs)
        with self.transaction():
            self.db.execute(
                f"UPDATE drafts SET copy_removed_at = ? WHERE forum_ref IN ({marks}) "
                "AND target <> 'thread' AND game_id IN (SELECT id FROM games WHERE forum_id = ?)",
                [to_text(at), *refs, forum_id])
            self.db.execute(f"UPDATE notice_pms SET copy_removed_at = ? WHERE forum_id = ? AND pm_id IN ({marks})",
                            [to_text(at), forum_id, *refs])

    def record_notice_copies(self, forum_id: str, pm_ids: Iterable[str], at: datetime) -> None:
        """The sent-folder copies of notices just sent to the host by PM."""
        self.db.conn.executemany("INSERT OR IGNORE INTO notice_pms (forum_id, pm_id, sent_at) VALUES (?, ?, ?)",
                                 [(forum_id, pm_id, to_text(at)) for pm_id in pm_ids])

    def set_sent_space(self, forum_id: str, fill: float | None, note: str | None) -> None:
        """How full the board says the account's sent PMs are (a share of its limit), and what the
        host is to know of it (None: nothing)."""
        self.db.execute("UPDATE forums SET sent_fill = ?, sent_note = ? WHERE id = ?", [fill, note, forum_id])

    def sent_space_notes(self) -> dict[str, str]:
        """forum id -> what the host is to know of its sent PMs' space, for the forums that have a note."""
        rows = self.db.execute("SELECT id, sent_note FROM forums WHERE sent_note IS NOT NULL ORDER BY id")
        return {row[0]: row[1] for row in rows}

    def approved_drafts(self) -> list[dict]:
        return self.drafts(status="approved")

    def set_earlier_edit(self, draft_id: int, body: str) -> None:
        """The host's edit of the draft this one replaces (a re-run's), for him to compare."""
        self.db.execute("UPDATE drafts SET earlier_edit = ?, updated_at = ? WHERE id = ?",
                        [body, to_text(self.now()), draft_id])

    def set_draft_body(self, draft_id: int, body: str) -> None:
        """The daemon's own rewrite of a draft it just made (not a host edit: no edit history)."""
        self.db.execute("UPDATE drafts SET body = ?, updated_at = ? WHERE id = ?",
                        [body, to_text(self.now()), draft_id])
