"""A long thread's first sync: pages stream to the store, memory stays flat, a restart resumes."""
from __future__ import annotations

import gc
import io
import weakref
from datetime import timedelta

from forumgm.daemon.forum.errors import ForumError
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.sync import sync_game
from localforum_support import CountingForum, game_store, host_forum, seeded_board

NO_WINDOW = timedelta(0)


class FailingAt(CountingForum):
    """The forum stops answering at one page, as a daemon killed there would stop reading."""

    def __init__(self, forum, page: int):
        super().__init__(forum)
        self.fail_at = page

    def thread_page(self, url, page):
        if page == self.fail_at:
            raise ForumError(f"connection reset on page {page}")
        return super().thread_page(url, page)


def thread_of(tmp_path, clock, replies: int):
    server = LocalForum(seeded_board(clock, replies=replies)).start()
    store = game_store(tmp_path, server, clock)
    return server, store


def test_a_sync_stopped_halfway_resumes_at_the_page_where_it_stopped(tmp_path, clock):
    server, store = thread_of(tmp_path, clock, replies=39)          # 40 posts: 8 pages of 5
    try:
        broken = FailingAt(host_forum(server, clock), page=5)
        report = sync_game(store.game("g1"), broken, store, clock.now(), edit_window=NO_WINDOW)
        assert not report.ok and broken.pages == [1, 2, 3, 4]
        assert len(store.posts("g1")) == 20                         # four whole pages kept
        assert store.thread_cursor("g1")["last_page"] == 4

        again = CountingForum(host_forum(server, clock))
        report = sync_game(store.game("g1"), again, store, clock.now(), edit_window=NO_WINDOW)
        assert report.ok and again.pages == [4, 5, 6, 7, 8]        # the last stored page is re-read, no more
        assert len(report.new_posts) == 20 and len(store.posts("g1")) == 40
        assert store.thread_cursor("g1") == {"last_page": 8, "pages": 8, "last_post_id": report.new_posts[-1]}
        assert report.deleted_posts == []
    finally:
        server.stop()


def test_a_resumed_sync_still_notices_a_post_deleted_on_the_pages_it_rereads(tmp_path, clock):
    server, store = thread_of(tmp_path, clock, replies=19)           # 20 posts: 4 pages
    try:
        sync_game(store.game("g1"), FailingAt(host_forum(server, clock), page=4), store, clock.now(),
                  edit_window=NO_WINDOW)
        gone = server.board.visible_posts(2)[-6]                      # the last post of page 3
        server.board.delete_post(gone.id)
        report = sync_game(store.game("g1"), CountingForum(host_forum(server, clock)), store, clock.now(),
                           edit_window=NO_WINDOW)
        assert report.ok and report.deleted_posts == [str(gone.id)]
    finally:
        server.stop()


def test_the_progress_bar_shows_a_resumed_long_read_too(tmp_path, clock):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    server, store = thread_of(tmp_path, clock, replies=39)
    try:
        sync_game(store.game("g1"), FailingAt(host_forum(server, clock), page=3), store, clock.now(),
                  edit_window=NO_WINDOW, progress=io.StringIO())
        shown = Terminal()
        sync_game(store.game("g1"), host_forum(server, clock), store, clock.now(), edit_window=NO_WINDOW,
                  progress=shown)
        assert "page 2/8" in shown.getvalue() and "page 8/8" in shown.getvalue()
        assert shown.getvalue().endswith("\n")
    finally:
        server.stop()


class Watched(CountingForum):
    """Counts, when the last page is asked for, how many of the posts it handed out are still alive."""

    def __init__(self, forum, last_page: int):
        super().__init__(forum)
        self.last_page = last_page
        self.handed_out: list[weakref.ref] = []
        self.alive_at_last_page: int | None = None

    def thread_page(self, url, page):
        if page == self.last_page:
            gc.collect()
            self.alive_at_last_page = sum(1 for ref in self.handed_out if ref() is not None)
        info, posts, html = super().thread_page(url, page)
        self.handed_out += [weakref.ref(post) for post in posts]
        return info, posts, html


def test_a_first_sync_holds_no_more_than_a_page_of_posts_however_long_the_thread(tmp_path, clock):
    server, store = thread_of(tmp_path, clock, replies=40 * 5 - 1)        # 40 pages
    try:
        forum = Watched(host_forum(server, clock), last_page=40)
        report = sync_game(store.game("g1"), forum, store, clock.now(), edit_window=NO_WINDOW)
        assert report.ok and len(report.new_posts) == 200
        # the first page read (deletions are told from it) and the page before this one: 10 of 200
        assert forum.alive_at_last_page is not None and forum.alive_at_last_page <= 10
    finally:
        server.stop()
