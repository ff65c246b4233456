"""One sync's reading of a game thread, page by page, each page timed by when it arrived.

A page shows the thread as it was when the board rendered it, somewhere between the request and
the answer: what it shows is known from the moment the answer arrived, not from the tick's start.
A sync that starts before a deadline and reaches a page after it must not date an edit or a
deletion that page shows before the deadline. The moment is the tick's `now` plus the time the
sync has taken on the forum client's own clock (a test's fake clock moves it as well).

Deletions are forum life: a member deleting his own post, a moderator cleaning up. A thread
shorter than before is read from its new last page on, and the posts missing from the pages read
are recorded as deleted at the arrival of the page that no longer shows them. Only what cannot
be a deletion by hand — many players' posts gone at once, or every post of a page — stops the
game until the host has looked; a non-player's posts never do (he may delete all of his own).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

from forumgm.parsers.forums.base import PageInfo, PastLastPage, Post
from forumgm.parsers.forums.scrub import scrub_page
from forumgm.parsers.names import Roster, account_player

MASS_DELETION = 5    # more players' posts gone in one sync than a player or a moderator removes by hand
# Zones differ by half an hour or more; a board's clock a few minutes fast is no reason to stop.
DATES_AHEAD = timedelta(minutes=15)


class ThreadDisagrees(Exception):
    """What the forum shows contradicts what the store knows of the thread: more likely a page
    read wrong (a theme without its page list, a proxy's error page) than the thread itself."""


class DatesAhead(Exception):
    """The forum dates a post after the moment it was read."""


@dataclass(frozen=True)
class Page:
    """A page read: where it is, its lowest and highest numbered post (post ids grow along the
    thread), when it arrived. Its posts are in the store, not held (a first sync of a long thread
    keeps its memory flat)."""
    info: PageInfo
    low: int | None
    top: int | None
    arrived: datetime

    @classmethod
    def of(cls, info: PageInfo, posts: list[Post], arrived: datetime) -> "Page":
        numbers = [int(p.id) for p in posts if p.id.isdigit()]
        return cls(info, min(numbers, default=None), max(numbers, default=None), arrived)


def arrival_clock(forum, now: datetime) -> Callable[[], datetime]:
    """`now` moved on by the time passed since, on the forum client's clock (a forum without an
    HTTP client, a test's stand-in, takes no time)."""
    clock = getattr(getattr(forum, "client", None), "clock", None)
    if clock is None:
        return lambda: now
    started = clock()
    return lambda: now + timedelta(seconds=clock() - started)


class ThreadRead:
    """Stores each page with its posts (and, reading forward, the cursor) as it arrives; holds
    only the ids of posts known before that have yet to show up again."""

    def __init__(self, game_id: str, thread_url: str, forum, store, report, now: datetime,
                 session_values: list[str], known_pages: int):
        self.game_id, self.thread_url, self.forum, self.store, self.report = game_id, thread_url, forum, store, report
        self.clock = arrival_clock(forum, now)
        self.session_values = session_values
        self.known: dict[str, int | None] = {}      # posts known before, by the page they were on
        self.missing: dict[str, int | None] = {}    # of those, the ones not seen again yet
        self.pages: list[Page] = []                 # in the order read
        self.seen: set[str] = set()                 # the ids of the posts read
        self.last_html = ""
        self.known_pages = known_pages
        self.shrunk = False     # the thread is shorter than before: its cursor waits for mark_vanished
        self.last_post_id: str | None = None    # the last post read forward

    def expect(self, from_page: int, to_page: int | None = None) -> None:
        """The posts the store knows on these pages must show up again (or be gone)."""
        found = self.store.live_post_pages(self.game_id, from_page=from_page, to_page=to_page)
        self.known.update(found)
        self.missing.update({pid: page for pid, page in found.items() if pid not in self.seen})

    def page(self, number: int, forward: bool = True) -> Page:
        """Page `number`, or — when the thread no longer reaches it — its new last page, which the
        board answers with (phpBB, MyBB), or shows page 1 instead (FluxBB), or a page without
        posts (SMF). Another page than asked of a thread that still has the page asked for is a
        page read wrong."""
        try:
            info, posts, html = self.forum.thread_page(self.thread_url, number)
        except PastLastPage:
            if number <= 1:
                raise
            self.report.pages_fetched += 1
            self.shrunk = True
            self.expect(number - 1, number - 1)
            return self.page(number - 1, forward)
        arrived = self.clock()
        self.report.pages_fetched += 1
        if info.page != number:
            if info.pages >= number:
                raise ThreadDisagrees(f"page {number} was asked for and the forum showed page {info.page} of {info.pages}")
            self.shrunk = True
            self.expect(info.pages, number - 1)     # shorter now: those pages' posts moved or went
            if info.page != info.pages:
                return self.page(info.pages, forward)
        self.shrunk = self.shrunk or info.pages < self.known_pages
        _check_dates(posts, arrived)
        self._take(info, posts, html, arrived, forward)
        page = Page.of(info, posts, arrived)
        self.pages.append(page)
        return page

    def _take(self, info: PageInfo, posts: list[Post], html: str, arrived: datetime, forward: bool) -> None:
        store, game_id = self.store, self.game_id
        self.last_html = html
        with store.transaction():
            store.record_page(game_id, self.thread_url, info.page, scrub_page(html, self.session_values), arrived)
            for post in posts:
                verdict = store.record_post(game_id, post, info.page, arrived)
                if verdict == "new":
                    self.report.new_posts.append(post.id)
                elif verdict == "edited":
                    self.report.edited_posts.append(post.id)
            if forward and posts:
                self.last_post_id = posts[-1].id
            if forward and not self.shrunk:
                self._move_cursor(info, posts[-1].id if posts else None)
        for post in posts:
            self.missing.pop(post.id, None)
            self.seen.add(post.id)

    def _move_cursor(self, info: PageInfo, last_post_id: str | None) -> None:
        last_post_id = last_post_id or self.store.thread_cursor(self.game_id)["last_post_id"]
        self.store.set_thread_cursor(self.game_id, last_page=info.page, pages=info.pages, last_post_id=last_post_id)

    def mark_vanished(self, checked: bool) -> None:
        """Known posts after the first post read that did not show up are gone (everything after it
        was read), and on page 1 every known post it does not show. A known post of a page read that
        sits before the first post read may only have moved back a page
        when an earlier post was deleted: the previous page is read once to tell. Deletions that
        look like a page read wrong stop the sync, unless the host has accepted the thread as it is
        (`checked` False)."""
        first = self.pages[0]
        low, first_page = first.low, first.info.page
        vanished: list[str] = []
        if low is not None:
            if first_page == 1:
                low = 0     # nothing comes before page 1: a known post it does not show is gone
            moved_or_gone = [pid for pid, page in self.missing.items() if int(pid) < low and (page or 0) >= first_page]
            if moved_or_gone and first_page > 1:
                self.expect(first_page - 1, first_page - 1)
                low = self.page(first_page - 1, forward=False).low or low
            vanished = sorted((pid for pid in self.missing if int(pid) > low), key=int)
        gone_at = {post_id: self._gone_at(int(post_id)) for post_id in vanished}
        if checked:
            try:
                _check_vanished(self._players_posts(vanished), self.known)
            except ThreadDisagrees:
                # not taken as fact; but should the host accept the thread as it is, these pages
                # proved the posts gone when they arrived (a vote deleted before a deadline)
                self.store.note_missing(self.game_id, gone_at)
                raise
        by_time: dict[datetime, list[str]] = {}
        for post_id, at in gone_at.items():
            by_time.setdefault(at, []).append(post_id)
        with self.store.transaction():
            for at, ids in sorted(by_time.items()):
                self.store.mark_deleted(self.game_id, ids, at)
            if self.shrunk:     # a page read wrong would have set the cursor back: only now is it a fact
                self._move_cursor(max(self.pages, key=lambda page: page.info.page).info, self.last_post_id)
        self.report.deleted_posts += vanished

    def _gone_at(self, post_id: int) -> datetime:
        """The arrival of the page where the post would be: the first page (by its posts) holding
        a later one, else the thread's last page read."""
        shown = [(page.top, page.arrived) for page in self.pages if page.top is not None]
        later = [(top, at) for top, at in shown if top > post_id]
        return min(later)[1] if later else max(shown)[1]

    def _players_posts(self, post_ids: list[str]) -> list[str]:
        """The posts of the game's players (and of the host) among these: a non-player's posts are
        his to delete, however many, and never stop a game."""
        players = self.store.players(self.game_id)
        roster = Roster(tuple(p["nick"] for p in players),
                        {alias: p["nick"] for p in players for alias in p["aliases"] or ()})
        host = (self.store.forum_account(self.game_id) or "").casefold()
        authors = self.store.post_authors(self.game_id, post_ids)
        return [pid for pid in post_ids
                if account_player(authors.get(pid, ""), roster) is not None or authors.get(pid, "").casefold() == host]


def _check_dates(posts: list[Post], arrived: datetime) -> None:
    """A post dated well after it was read was not written yet: the board shows its dates in another
    zone than `[forum] time_zone` reads them in (MyBB, SMF and FluxBB show the account's wall clock),
    or its clock runs ahead. Every vote would then be timed hours off and a late one counted."""
    for post in posts:
        dates = [when for when in (post.posted_at, post.edited_at) if isinstance(when, datetime)]
        if dates and max(dates) > arrived + DATES_AHEAD:
            ahead = (max(dates) - arrived).total_seconds() / 3600
            raise DatesAhead(f"the forum dates post {post.id} {max(dates).isoformat()}, {ahead:.1f} h after it was "
                             f"read ({arrived.isoformat()}): [forum] time_zone is not the zone the board shows the "
                             "account's dates in (its profile's setting), or the board's clock runs ahead")


def _check_vanished(vanished: list[str], known: dict[str, int | None]) -> None:
    """Posts are deleted one or two at a time; many at once, or every post the store had on a
    page, is a page read wrong until the host has looked."""
    if len(vanished) > MASS_DELETION:
        raise ThreadDisagrees(f"{len(vanished)} players' posts are gone at once ({', '.join(vanished)})")
    gone = set(vanished)
    by_page: dict[int, list[str]] = {}
    for post_id, page in known.items():
        by_page.setdefault(page or 0, []).append(post_id)
    for page, ids in sorted(by_page.items()):
        if len(ids) >= 2 and gone.issuperset(ids):
            raise ThreadDisagrees(f"all {len(ids)} posts known on page {page} are gone "
                                  f"({', '.join(sorted(ids, key=lambda i: (len(i), i)))})")
