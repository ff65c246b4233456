"""Incremental sync: a game thread and a forum account's PM inbox into the store.

A poll with nothing new costs one request per thread (the last known page): edits and deletions
on that page are seen at every poll, an edit dated by the board's own mark. Once per deadline, by
the first poll in its last minute, the pages holding posts written since the phase opened (or
inside the edit window before it, when that is longer) are read again, so that an edit or a
deletion made on an earlier page before then counts, however long after its post (a
forum admin who sees an account reload every recent page each minute bans it); the store keeps
every version. Posts gone from a page are marked deleted, never erased. A page the parser
does not understand ends the sync with a message for the host — it is never taken for "no posts"
— and so does a page that contradicts the store (another page than asked for, posts gone en
masse): the game waits until the forum agrees again or the host accepts.
"""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TextIO

from forumgm.daemon.forum.errors import ForumError
from forumgm.daemon.forum.housekeeping.inbox_cleanup import INBOX_NEARLY_FULL, Cleanup, clean_inbox, confirm_removed
from forumgm.daemon.tick.thread_pages import DatesAhead, ThreadDisagrees, ThreadRead
from forumgm.parsers.forums.base import Listing, PageLayoutError

DEFAULT_EDIT_WINDOW = timedelta(minutes=60)
# a deadline's re-read of the thread's recent pages, as late before it as a poll comes: polls near
# a deadline come every 30 s ([daemon] poll_near), so one falls inside this
REREAD_BEFORE = timedelta(seconds=60)
PROGRESS_FROM_PAGES = 3      # a progress bar only when this many pages are to be read
log = logging.getLogger(__name__)

MAX_INBOX_PAGES = 50
ACCEPTING = 0        # thread_cursors.pages after `forumgm accept-thread`, until the next full read
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
    unread_pms: int | None = None    # what the last page read counts in its header (None: it does not tell)

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
    """Read the thread from the last known page (once per deadline, just before it: from the first
    page holding a post written inside the edit window before it) to the end.

    Each page is stored with its posts and the cursor in one transaction as it arrives, timed by
    its arrival (daemon/tick/thread_pages.py), and only the ids of posts known before that must
    show up again are held: memory stays flat however long the thread, and a sync stopped halfway
    resumes at the page where it stopped.
    """
    game_id, thread_url = _field(game, "id"), _field(game, "thread_url")
    window = edit_window if edit_window is not None else _edit_window(game)
    report = SyncReport(game_id)
    cursor = store.thread_cursor(game_id)
    accepting = cursor["pages"] == ACCEPTING   # the host said the thread is as the forum shows it
    page_no, reread = _first_page_to_read(store, game_id, cursor["last_page"], now, window)
    reading = ThreadRead(game_id, thread_url, forum, store, report, now, _session_values(forum), cursor["pages"])
    reading.expect(page_no)
    bar = _Progress(progress if progress is not None else sys.stderr, game_id, page_no)
    try:
        info = reading.page(page_no).info
        bar.show(info.page, info.pages)
        while info.page < info.pages:
            page_no = info.page + 1
            info = reading.page(page_no).info
            bar.show(info.page, info.pages)
        reading.mark_vanished(checked=not accepting)
        if reread:
            store.set_thread_reread(game_id, now)
        report.unread_pms = _unread_pms(forum, reading.last_html)
    except ThreadDisagrees as error:
        report.error = (f"the thread of game {game_id} disagrees with what was read before: {error}; "
                        "nothing of it is taken as fact, the game waits for the host (if the thread "
                        f"really is so: forumgm accept-thread {game_id})")
    except DatesAhead as error:
        report.error = (f"the thread of game {game_id}: {error}; no post of that page is taken, the game waits "
                        "for the host (votes and deadlines would be judged by wrong times)")
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
    still count). With [forum] inbox_cleanup, stored PMs then leave the inbox (inbox_cleanup.py),
    and the inbox is read once more: PMs the board held back come in, and it shows what went."""
    report = InboxReport(forum_id)
    if not getattr(forum, "pm_supported", True):
        if forum_id not in _TOLD_NO_PMS:   # said once per run, not every tick
            _TOLD_NO_PMS.add(forum_id)
            log.info("forum %s has no private messages: its inbox is not read, orders cannot come by PM",
                     forum_id)
        return report
    try:
        first, listed = _read_inbox(forum_id, forum, store, now, report)
        cleanup = Cleanup.of(getattr(forum, "settings", None))
        kept = ""
        if cleanup is not None and (asked := _clean(forum_id, forum, store, cleanup, listed, first, now)):
            first, again = _read_inbox(forum_id, forum, store, now, report, min_pages=report.pages_fetched)
            left = confirm_removed(forum_id, store, asked, set(again), now)
            kept = f"; the forum kept PMs forumgm asked it to remove: {', '.join(left)}" if left else ""
        problem = _inbox_problem(forum_id, first, len(store.known_pm_ids(forum_id)))
        report.error = problem + kept if problem else None
    except PageLayoutError as error:
        report.error = f"the PM inbox of {forum_id} does not look like the forum's inbox any more ({error})"
    except ForumError as error:
        report.error = f"the forum did not answer while reading the PM inbox of {forum_id}: {error}"
    return report


def _unread_pms(forum, html: str) -> int | None:
    """Counted once per sync, on the last page read (a forum edge without the count: None)."""
    count = getattr(forum, "unread_pms", None)
    return count(html) if count is not None else None


def _read_inbox(forum_id: str, forum, store, now: datetime, report: InboxReport,
                min_pages: int = 1) -> tuple[Listing | None, list[str]]:
    """Store the PMs new to the store; the first page's listing and the ids listed, page order."""
    known = store.known_pm_ids(forum_id)
    listed: list[str] = []
    first = None
    for number, (headers, listing) in enumerate(forum.inbox_pages(), start=1):
        report.pages_fetched += 1
        first = first or listing
        for header in headers:
            if header.id not in known and header.id not in listed and store.record_pm(
                    forum_id, header, forum.message(header.id), now):
                report.new_pms.append(header.id)
        store.record_own_pms(forum_id, listing.own, now)
        for pm_id in listing.own_unread:
            # a notice the account sent itself stays unread (phpBB, MyBB), and the thread pages'
            # count of it would have the inbox read at every poll for ever: opened once, it is read
            forum.message(pm_id)
        on_page = [h.id for h in headers] + list(listing.own)
        listed += on_page
        if (set(on_page) & known and number >= min_pages) or number >= MAX_INBOX_PAGES:
            break
    return first, listed


def _clean(forum_id: str, forum, store, cleanup: Cleanup, listed: list[str], first: Listing | None,
           now: datetime) -> list[str]:
    """The PMs the board was asked to remove; a board that refused is logged, the sync goes on
    (an inbox that fills up says so by itself)."""
    try:
        return clean_inbox(forum_id, forum, store, cleanup, listed, first, now)
    except ForumError as error:
        log.warning("forum %s: the stored PMs could not be removed from the inbox: %s", forum_id, error)
        return []


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


def _session_values(forum) -> list[str]:
    """The forum session's cookie values: a stored page must not carry them anywhere."""
    client = getattr(forum, "client", None)
    session = getattr(client, "session", None)
    return [cookie.value for cookie in session.cookies if cookie.value] if session is not None else []


def accept_thread(store, game_id: str, by: str) -> None:
    """The host has looked: the thread really is as the forum shows it now (a moderator removed
    posts). The next sync reads it from page 1 and takes it as it is, deletions included."""
    with store.transaction():
        store.set_thread_cursor(game_id, last_page=1, pages=ACCEPTING)
        store.audit(by, "thread.accept", {"game": game_id})


def _first_page_to_read(store, game_id: str, last_page: int, now: datetime, window: timedelta) -> tuple[int, bool]:
    """The last known page; and whether this read is a deadline's one re-read of the recent pages,
    which starts at the first page holding a post written since the phase opened (a vote of it may
    be edited however long after it was written, and off the last page no idle poll sees that), or
    inside the edit window before the deadline when that reaches further back: the first poll in
    the last REREAD_BEFORE before the deadline makes it (or, none having come, the first after it)."""
    near = [phase for phase in store.phases(game_id, status="pending") if phase["deadline"] - REREAD_BEFORE <= now]
    if not near:
        return last_page, False
    phase = min(near, key=lambda row: row["deadline"])
    deadline = phase["deadline"]
    reread = store.thread_reread_at(game_id)
    if reread is not None and reread >= deadline - REREAD_BEFORE:
        return last_page, False
    since = min(deadline - window, phase["opens_at"] or deadline - window)
    earliest = store.first_page_posted_since(game_id, since)
    return max(1, min(last_page, earliest or last_page)), True


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
    """`sync game: [###...] page 7/120` on a terminal's stderr, for a long read only (a first sync, a resumed one)."""

    def __init__(self, stream: TextIO, game_id: str, from_page: int):
        self.stream = stream
        self.game_id = game_id
        self.from_page = from_page
        self.shown = False

    def show(self, page: int, pages: int) -> None:
        if not (pages - self.from_page + 1 >= PROGRESS_FROM_PAGES and self.stream.isatty()):
            return
        filled = int(30 * page / pages)
        self.stream.write(f"\rsync {self.game_id}: [{'#' * filled}{'.' * (30 - filled)}] page {page}/{pages}")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
