"""The game thread as fetched: raw pages (the newest kept), posts and each version of them, the read
cursor."""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from datetime import datetime
from typing import Any, Iterable

from forumgm.daemon.store.base import StoreBase, StoreError, from_text, to_text
from forumgm.parsers.forums.base import Post


def _fragments(fragments: Iterable) -> str:
    return json.dumps([asdict(f) for f in fragments], ensure_ascii=False)


def _version_digest(post: Post) -> str:
    """What makes two sightings of a post the same version: body, votes, edit mark, and whether the
    board shows it hidden (only then: the digests of posts never hidden stay as they were)."""
    edited = post.edited_at if isinstance(post.edited_at, bool) or post.edited_at is None else to_text(post.edited_at)
    material = json.dumps(
        [post.html, post.text, _fragments(post.colored), _fragments(post.flagged), edited] + (["hidden"] * post.hidden),
        ensure_ascii=False,
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class Thread(StoreBase):
    def record_page(self, game_id: str, url: str, page_no: int, html: str, fetched_at: datetime) -> int:
        """Keeps the newest `raw_pages_kept` pages of the game: they are for looking back at what
        the forum showed, and would otherwise grow without bound (18 MB in one small game)."""
        with self.transaction():
            page_id = self._insert("raw_pages", {"game_id": game_id, "url": url, "page_no": page_no,
                                                 "html": html, "fetched_at": to_text(fetched_at)})
            self.db.execute("DELETE FROM raw_pages WHERE game_id = ? AND id NOT IN "
                            "(SELECT id FROM raw_pages WHERE game_id = ? ORDER BY id DESC LIMIT ?)",
                            [game_id, game_id, self.raw_pages_kept])
        return page_id

    def raw_pages(self, game_id: str) -> list[dict]:
        return self._rows("SELECT * FROM raw_pages WHERE game_id = ? ORDER BY id", [game_id])

    def record_post(self, game_id: str, post: Post, page_no: int | None, seen_at: datetime) -> str:
        """'new', 'edited' (a version not seen before) or 'same'; every distinct version is kept."""
        digest = _version_digest(post)
        seen = to_text(seen_at)
        with self.transaction():
            known = self._one("SELECT post_id FROM posts WHERE game_id = ? AND post_id = ?", [game_id, post.id])
            if known is None:
                self._insert("posts", {"game_id": game_id, "post_id": post.id, "author": post.author,
                                       "author_id": post.author_id, "posted_at": to_text(post.posted_at),
                                       "page_no": page_no, "first_seen_at": seen, "last_seen_at": seen,
                                       "hidden": int(post.hidden)})
                verdict = "new"
            else:
                self.db.execute("UPDATE posts SET last_seen_at = ?, deleted_at = NULL, missing_at = NULL, "
                                "page_no = COALESCE(?, page_no), hidden = ? WHERE game_id = ? AND post_id = ?",
                                [seen, page_no, int(post.hidden), game_id, post.id])
                latest = self.db.execute("SELECT digest FROM post_versions WHERE game_id = ? AND post_id = ? "
                                         "ORDER BY id DESC LIMIT 1", [game_id, post.id]).fetchone()
                if latest and latest[0] == digest:
                    return "same"
                verdict = "edited"
            edited_at = post.edited_at if isinstance(post.edited_at, datetime) else None
            self._insert("post_versions", {
                "game_id": game_id, "post_id": post.id, "digest": digest, "author": post.author,
                "posted_at": to_text(post.posted_at), "edited_at": to_text(edited_at),
                "edited": int(bool(post.edited_at)), "edited_by": post.edited_by, "html": post.html,
                "text": post.text, "text_unquoted": post.text_unquoted,
                "colored": _fragments(post.colored), "flagged": _fragments(post.flagged), "seen_at": seen,
                "hidden": int(post.hidden),
            })
            return verdict

    def posts(self, game_id: str, posted_since: datetime | None = None) -> list[dict]:
        """The thread's posts in the order first seen; only those written at or after `posted_since` if given."""
        if posted_since is None:
            return self._rows("SELECT * FROM posts WHERE game_id = ? ORDER BY first_seen_at, rowid", [game_id])
        return self._rows("SELECT * FROM posts WHERE game_id = ? AND posted_at >= ? ORDER BY first_seen_at, rowid",
                          [game_id, to_text(posted_since)])

    def post_authors(self, game_id: str, post_ids: Iterable[str]) -> dict[str, str]:
        ids = list(post_ids)
        marks = ", ".join("?" for _ in ids)
        return {row[0]: row[1] for row in self.db.execute(
            f"SELECT post_id, author FROM posts WHERE game_id = ? AND post_id IN ({marks})", [game_id, *ids])}

    def forum_account(self, game_id: str) -> str | None:
        """The account the game's forum is read as (the host's)."""
        row = self.db.execute("SELECT f.account FROM games g JOIN forums f ON f.id = g.forum_id WHERE g.id = ?",
                              [game_id]).fetchone()
        return row[0] if row else None

    def hidden_post_ids(self, game_id: str) -> set[str]:
        """Posts the board shows to the host only (soft-deleted by a moderator, awaiting approval)."""
        return {row[0] for row in self.db.execute("SELECT post_id FROM posts WHERE game_id = ? AND hidden = 1",
                                                  [game_id])}

    def deleted_post_ids(self, game_id: str, until: datetime) -> set[str]:
        """Posts marked deleted at or before `until`."""
        return {row[0] for row in self.db.execute(
            "SELECT post_id FROM posts WHERE game_id = ? AND deleted_at IS NOT NULL AND deleted_at <= ?",
            [game_id, to_text(until)])}

    def live_post_pages(self, game_id: str, from_page: int, to_page: int | None = None) -> dict[str, int | None]:
        """{post id: page} of the posts with a numeric id, not deleted, last seen on these pages
        (or on no known page): those a sync reading the pages must see again."""
        live = ("SELECT post_id, page_no FROM posts WHERE game_id = ? AND deleted_at IS NULL "
                "AND post_id != '' AND post_id NOT GLOB '*[^0-9]*' AND ")
        # two selects, not one with OR: each reads only its pages through the (game, page) index
        return {row[0]: row[1] for row in self.db.execute(
            live + "page_no >= ? AND page_no <= ? UNION ALL " + live + "page_no IS NULL",
            [game_id, from_page, to_page if to_page is not None else 2**62, game_id])}

    def first_page_posted_since(self, game_id: str, since: datetime) -> int | None:
        """The first page holding a post (not deleted) written at or after `since`; None if there is none."""
        row = self.db.execute("SELECT MIN(page_no) FROM posts WHERE game_id = ? AND deleted_at IS NULL "
                              "AND posted_at >= ?", [game_id, to_text(since)]).fetchone()
        return row[0] if row else None

    def post_versions(self, game_id: str, post_id: str | None = None) -> list[dict]:
        """Versions of one post, or of every post of the game when post_id is None; oldest first."""
        if post_id is None:
            return self._rows("SELECT * FROM post_versions WHERE game_id = ? ORDER BY id", [game_id])
        return self._rows("SELECT * FROM post_versions WHERE game_id = ? AND post_id = ? ORDER BY id",
                          [game_id, post_id])

    def recent_post_versions(self, game_id: str, seen_since: datetime) -> list[dict]:
        """Every version of each post with a version seen at or after `seen_since`, oldest first."""
        return self._rows("SELECT * FROM post_versions WHERE game_id = ? AND post_id IN "
                          "(SELECT post_id FROM post_versions WHERE game_id = ? AND seen_at >= ?) ORDER BY id",
                          [game_id, game_id, to_text(seen_since)])

    def mark_deleted(self, game_id: str, post_ids: Iterable[str], seen_at: datetime) -> None:
        """Posts gone from the thread keep their versions; they are only marked, gone since `seen_at`
        or since an earlier page showed them missing (note_missing)."""
        seen = to_text(seen_at)
        with self.transaction():
            for post_id in post_ids:
                self.db.execute("UPDATE posts SET deleted_at = CASE WHEN missing_at < ? THEN missing_at ELSE ? END "
                                "WHERE game_id = ? AND post_id = ? AND deleted_at IS NULL", [seen, seen, game_id, post_id])

    def note_missing(self, game_id: str, missing_at: dict[str, datetime]) -> None:
        """Posts a page no longer showed, in a sync that stopped (too many at once): not deleted yet,
        but if the host accepts the thread as it is, gone since then. Seen again, it is forgotten."""
        with self.transaction():
            for post_id, at in missing_at.items():
                self.db.execute("UPDATE posts SET missing_at = ? WHERE game_id = ? AND post_id = ? "
                                "AND deleted_at IS NULL AND missing_at IS NULL", [to_text(at), game_id, post_id])

    def thread_reread_at(self, game_id: str) -> datetime | None:
        """The last re-read of the thread's recent pages after a deadline (sync.py)."""
        row = self.db.execute("SELECT reread_at FROM thread_cursors WHERE game_id = ?", [game_id]).fetchone()
        return from_text(row[0]) if row else None

    def set_thread_reread(self, game_id: str, at: datetime) -> None:
        self.set_thread_cursor(game_id)      # the row exists
        self.db.execute("UPDATE thread_cursors SET reread_at = ? WHERE game_id = ?", [to_text(at), game_id])

    def thread_cursor(self, game_id: str) -> dict:
        row = self._one("SELECT last_page, pages, last_post_id FROM thread_cursors WHERE game_id = ?", [game_id])
        return row or {"last_page": 1, "pages": 1, "last_post_id": None}

    def set_thread_cursor(self, game_id: str, **values: Any) -> None:
        unknown = set(values) - {"last_page", "pages", "last_post_id"}
        if unknown:
            raise StoreError(f"unknown thread cursor fields: {sorted(unknown)}")
        merged = {**self.thread_cursor(game_id), **values}
        self.db.execute(
            "INSERT INTO thread_cursors (game_id, last_page, pages, last_post_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(game_id) DO UPDATE SET last_page=excluded.last_page, pages=excluded.pages, "
            "last_post_id=excluded.last_post_id",
            [game_id, merged["last_page"], merged["pages"], merged["last_post_id"]],
        )
