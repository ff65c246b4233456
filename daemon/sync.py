"""Incremental sync: a game thread and a forum account's PM inbox into the store.

A poll with nothing new costs one request per thread (the last known page). Pages that hold
posts younger than the edit window are read again so that edits are noticed; the store keeps
every version. Posts gone from a page are marked deleted, never erased. A page the parser does
not understand ends the sync with a message for the host — it is never taken for "no posts".
"""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TextIO

from forumgm.daemon.forum.errors import ForumError
from forumgm.parsers.forums.base import PageLayoutError, Post

DEFAULT_EDIT_WINDOW = timedelta(minutes=60)
PROGRESS_FROM_PAGES = 3      # a progress bar only for a long (first) sync
log = logging.getLogger(__name__)

MAX_INBOX_PAGES = 50
INBOX_NEARLY_FULL = 0.8      # of a folder's limit: the host is warned before new PMs are held back
_TOLD_NO_PMS: set[str] = set()   # forums this process has logged as having no private messages
_TOLD_NEARLY_FULL: set[str] = set()


@dataclass
class SyncReport:
    game_id: str
    pages_fetched: int = 0
    new_posts: list[str] = field(default_factory=list)
    edited_posts: list[str] = field(default_factory=list)
    deleted_posts: list[str] = field(default_factory=list)
    error: str | None = None     # for the host; the game should not resolve on this sync

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class InboxReport:
    forum_id: str
    pages_fetched: int = 0
    new_pms: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def sync_game(game: Any, forum, store, now: datetime, edit_window: timedelta | None = None,
              progress: TextIO | None = None) -> SyncReport:
    game_id, thread_url = _field(game, "id"), _field(game, "thread_url")
    window = edit_window if edit_window is not None else _edit_window(game)
    report = SyncReport(game_id)
    cursor = store.thread_cursor(game_id)
    page_no = _first_page_to_read(store, game_id, cursor["last_page"], now - window)
    bar = _Progress(progress if progress is not None else sys.stderr, game_id)
    shown: list[Post] = []
    first_read = None

    def read(number: int):
        info, posts, html = forum.thread_page(thread_url, number)
        report.pages_fetched += 1
        store.record_page(game_id, thread_url, info.page, html, now)
        _record_page_posts(store, game_id, info.page, posts, now, report)
        shown.extend(posts)
        return info, posts

    try:
        while True:
            info, posts = read(page_no)
            first_read = first_read or (info.page, posts)
            bar.show(info.page, info.pages, first=cursor["last_post_id"] is None)
            if info.page >= info.pages:
                break
            page_no = info.page + 1
        store.set_thread_cursor(game_id, last_page=info.page, pages=info.pages,
                                last_post_id=posts[-1].id if posts else cursor["last_post_id"])
        _mark_vanished(store, game_id, first_read, shown, read, now, report)
    except PageLayoutError as error:
        report.error = (f"the thread page {page_no} of game {game_id} does not look like a "
                        f"{_field(game, 'engine', 'forum')} page any more ({error}); the game waits for the host")
    except ForumError as error:
        report.error = f"the forum did not answer for game {game_id}: {error}"
    finally:
        bar.done()
    return report


def sync_inbox(forum_id: str, forum, store, now: datetime) -> InboxReport:
    """Page by page, newest first as the inbox's own page links lead, until a page shows a PM
    already stored. An inbox that says it holds more PMs than were ever read, or that is full
    (new PMs are held back, unseen), is a problem for the host, never silence. A forum without
    private messages (FluxBB) has no inbox: nothing is read and nothing is wrong (thread votes
    still count)."""
    report = InboxReport(forum_id)
    if not getattr(forum, "pm_supported", True):
        if forum_id not in _TOLD_NO_PMS:   # said once per run, not every tick
            _TOLD_NO_PMS.add(forum_id)
            log.info("forum %s has no private messages: its inbox is not read, orders cannot come by PM",
                     forum_id)
        return report
    known = store.known_pm_ids(forum_id)
    listed: set[str] = set()
    first = None
    try:
        for headers, listing in forum.inbox_pages():
            report.pages_fetched += 1
            first = first or listing
            for header in headers:
                if header.id not in known | listed and store.record_pm(forum_id, header, forum.message(header.id),
                                                                      now):
                    report.new_pms.append(header.id)
            listed |= {h.id for h in headers}
            if any(h.id in known for h in headers) or report.pages_fetched >= MAX_INBOX_PAGES:
                break
        report.error = _inbox_problem(forum_id, first, len(known | listed))
    except PageLayoutError as error:
        report.error = f"the PM inbox of {forum_id} does not look like the forum's inbox any more ({error})"
    except ForumError as error:
        report.error = f"the forum did not answer while reading the PM inbox of {forum_id}: {error}"
    return report


def _inbox_problem(forum_id: str, listing, seen: int) -> str | None:
    """What the inbox's first page says that the PMs read do not show."""
    if listing is None:
        return None
    if listing.limit and listing.stored is not None and listing.stored >= listing.limit:
        return (f"the PM inbox of {forum_id} is full ({listing.stored} of {listing.limit}): the forum holds new "
                "PMs back unseen; delete old PMs on the forum (they are kept in forumgm's store)")
    if listing.total is not None and listing.total > seen:
        return (f"the PM inbox of {forum_id} says it holds {listing.total} PMs but only {seen} were read; "
                "some orders would be missed")
    nearly = listing.limit and listing.stored is not None and listing.stored >= listing.limit * INBOX_NEARLY_FULL
    if nearly and forum_id not in _TOLD_NEARLY_FULL:    # once per run, not every tick
        _TOLD_NEARLY_FULL.add(forum_id)
        log.warning("the PM inbox of %s is nearly full (%d of %d): delete old PMs on the forum before it "
                    "holds new ones back", forum_id, listing.stored, listing.limit)
    return None


def _record_page_posts(store, game_id: str, page_no: int, posts: list[Post], now: datetime,
                       report: SyncReport) -> None:
    for post in posts:
        verdict = store.record_post(game_id, post, page_no, now)
        if verdict == "new":
            report.new_posts.append(post.id)
        elif verdict == "edited":
            report.edited_posts.append(post.id)


def _mark_vanished(store, game_id: str, first_read, shown: list[Post], read, now: datetime,
                   report: SyncReport) -> None:
    """Known posts after the first post read that were not shown are gone (everything after it
    was read). A known post from a page read that sits before it may only have moved back a page
    when an earlier post was deleted: the previous page is read once to tell."""
    first_page, first_posts = first_read
    numbered = [int(p.id) for p in first_posts if p.id.isdigit()]
    if not numbered:
        return
    low = min(numbered)
    known = [row for row in store.posts(game_id) if row["post_id"].isdigit() and not row.get("deleted_at")]
    seen = {p.id for p in shown}
    moved_or_gone = [r for r in known if int(r["post_id"]) < low and (r.get("page_no") or 0) >= first_page
                     and r["post_id"] not in seen]
    if moved_or_gone and first_page > 1:
        _, earlier = read(first_page - 1)
        seen |= {p.id for p in earlier}
        low = min([int(p.id) for p in earlier if p.id.isdigit()] or [low])
    vanished = [r["post_id"] for r in known if int(r["post_id"]) > low and r["post_id"] not in seen]
    if vanished:
        store.mark_deleted(game_id, vanished, now)
        report.deleted_posts += vanished


def _first_page_to_read(store, game_id: str, last_page: int, edits_since: datetime) -> int:
    """The last known page, or an earlier one holding a post still inside the edit window."""
    recent = [row["page_no"] for row in store.posts(game_id)
              if row.get("page_no") and not row.get("deleted_at") and _after(row.get("posted_at"), edits_since)]
    return max(1, min([last_page, *recent]))


def _after(posted_at, moment: datetime) -> bool:
    if not posted_at:
        return False
    when = posted_at if isinstance(posted_at, datetime) else datetime.fromisoformat(posted_at)
    return when >= moment


def _edit_window(game: Any) -> timedelta:
    """The game config's `edit_window`; a game known only from the store gets the default."""
    window = _field(game, "edit_window", None)
    return window if isinstance(window, timedelta) else DEFAULT_EDIT_WINDOW


def _field(game: Any, name: str, default: Any = ...) -> Any:
    value = game.get(name, default) if isinstance(game, dict) else getattr(game, name, default)
    if value is ...:
        raise KeyError(f"the game has no {name}")
    return value


class _Progress:
    """`sync game: page 7/120` on a terminal's stderr, for a long first sync only."""

    def __init__(self, stream: TextIO, game_id: str):
        self.stream = stream
        self.game_id = game_id
        self.shown = False

    def show(self, page: int, pages: int, first: bool) -> None:
        if not (first and pages >= PROGRESS_FROM_PAGES and self.stream.isatty()):
            return
        filled = int(30 * page / pages)
        self.stream.write(f"\rsync {self.game_id}: [{'#' * filled}{'.' * (30 - filled)}] page {page}/{pages}")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
