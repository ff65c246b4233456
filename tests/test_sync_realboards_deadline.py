"""A sync against pages saved on the real boards (phpBB 3.3.10, SMF 2.1.4, FluxBB 1.5.11, MyBB 1.8.37,
tests/fixtures/forums/*/README.md "A vote alone on the last page"): what a page shows is timed by
when that page arrived, and a thread that lost its last page's only post is read on, not refused.

The fixture board swaps the pages it serves while a sync runs, as the real board changed them
while forumgm read (an edit or a deletion made between two page loads of one sync)."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from forum_http_board import BoardServer, FixtureBoard
from forum_http_sites import FLUXBB, MYBB, PHPBB, SMF
from forumgm.daemon.forum import open_forum
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game
from forumgm.daemon.tick.votes import vote_versions
from forumgm.engines.tally import VoteRules, count_votes
from forumgm.parsers.names import Roster
from localforum_support import HOST, FakeClock

SITES = {"phpbb": PHPBB, "smf": SMF, "fluxbb": FLUXBB, "mybb": MYBB}
THREADS = {"phpbb": "viewtopic.php?t=2", "smf": "index.php?topic=2.0", "fluxbb": "viewtopic.php?id=2",
           "mybb": "showthread.php?tid=1"}
PLAYERS = ("Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума")
LONE = {"phpbb": "53", "smf": "31", "fluxbb": "31", "mybb": "30"}    # Кума's vote, alone on page 2
BEFORE = ("real_thread_lone_page1.html", "real_thread_lone_page2.html")
EDITED = ("real_thread_lone_page1.html", "real_thread_lone_page2_edited.html")
DELETED = ("real_thread_lone_deleted_page1.html",)
# SMF answers a page past the last with the topic's frame and no post in it
PAST_END = {"smf": "real_thread_lone_deleted_page2.html"}
# the pages were saved a few minutes before this: the first sync reads them then
READ_AT = datetime(2026, 12, 1, 16, 55, tzinfo=timezone.utc)


class Thread:
    """The saved thread on the fixture board, the host's forum and a store with the game."""

    def __init__(self, engine: str, tmp_path):
        self.engine, self.clock = engine, FakeClock(READ_AT)
        self.board = FixtureBoard(self.site(BEFORE), password="host-secret", member=HOST, clock=self.clock.monotonic)
        self.server = BoardServer(self.board).__enter__()
        self.forum = open_forum({"engine": engine, "base_url": self.server.url, "username": HOST, "posts_per_page": 5,
                                 "timeout": 5, "retries": 0}, "host-secret", clock=self.clock.monotonic,
                                sleep=self.clock.sleep, now=self.clock.now)
        self.store = Store(tmp_path / "forumgm.sqlite", now=self.clock.now)
        self.store.register_forum("main", engine, self.server.url, HOST)
        self.store.register_game("g1", "mafia", "main", self.server.url + THREADS[engine], "UTC", 1,
                                 {nick: [] for nick in PLAYERS})

    def site(self, pages: tuple[str, ...]):
        return replace(SITES[self.engine], thread_pages=pages, thread_past_end=PAST_END.get(self.engine))

    def show(self, pages: tuple[str, ...]) -> None:
        self.board.site = self.site(pages)

    def sync(self, before_page: dict[int, callable] | None = None):
        """One sync started now; `before_page` runs just before the sync asks for that page."""
        forum = _Hooked(self.forum, before_page or {})
        return sync_game(self.store.game("g1"), forum, self.store, self.clock.now(), edit_window=timedelta(0))

    def tally(self, deadline: datetime):
        rules = VoteRules(colors=frozenset({"#0000ff"}), voters=frozenset(PLAYERS), candidates=frozenset(PLAYERS))
        tally = count_votes(vote_versions(self.store, "g1", None, deadline, HOST), Roster(PLAYERS), rules, deadline)
        return {vote.voter: vote.target for vote in tally.counted}

    def close(self) -> None:
        self.server.__exit__(None, None, None)
        self.store.close()


class _Hooked:
    def __init__(self, forum, before_page):
        self.forum, self.before_page = forum, dict(before_page)

    def thread_page(self, url, number):
        if (hook := self.before_page.pop(number, None)) is not None:
            hook()
        return self.forum.thread_page(url, number)

    def __getattr__(self, name):
        return getattr(self.forum, name)


@pytest.fixture
def thread(request, tmp_path):
    made = Thread(request.param, tmp_path)
    yield made
    made.close()


def _later(thread: Thread, seconds: float, pages: tuple[str, ...]):
    """A hook: the board takes `seconds` to answer the next page, and meanwhile shows `pages`."""
    def hook():
        thread.clock.sleep(seconds)
        thread.show(pages)
    return hook


@pytest.mark.parametrize("thread", ["phpbb", "smf"], indirect=True)
def test_an_edit_the_board_leaves_unmarked_is_timed_by_the_page_that_showed_it(thread):
    """phpBB marks no edit of the topic's last post, SMF none within 90 s of posting: the edited
    vote is known from the page that showed it, which arrived after the deadline although the
    sync began before it. The vote before the edit stands."""
    assert thread.sync().ok
    deadline = thread.clock.now() + timedelta(seconds=30)
    report = thread.sync(before_page={2: _later(thread, 40, EDITED)})
    assert report.ok and report.edited_posts == [LONE[thread.engine]]
    [_, edited] = thread.store.post_versions("g1", LONE[thread.engine])
    assert edited["edited_at"] is None and edited["seen_at"] > deadline
    assert thread.tally(deadline)["Кума"] == "Аскон"


@pytest.mark.parametrize("thread", ["phpbb", "smf"], indirect=True)
def test_an_unmarked_edit_seen_by_a_page_read_before_the_deadline_counts(thread):
    assert thread.sync().ok
    deadline = thread.clock.now() + timedelta(seconds=90)
    assert thread.sync(before_page={2: _later(thread, 10, EDITED)}).ok
    assert thread.tally(deadline)["Кума"] == "Robozik"


@pytest.mark.parametrize("thread", ["phpbb", "smf", "fluxbb"], indirect=True)
def test_a_vote_deleted_while_the_sync_ran_past_the_deadline_still_counts(thread):
    """The page that no longer shows the vote arrived after the deadline: the vote was cast and
    stood at the deadline as far as anything read before it shows."""
    assert thread.sync().ok
    deadline = thread.clock.now() + timedelta(seconds=30)
    report = thread.sync(before_page={2: _later(thread, 40, DELETED)})
    assert report.ok, report.error
    assert report.deleted_posts == [LONE[thread.engine]]
    [row] = [r for r in thread.store.posts("g1") if r["post_id"] == LONE[thread.engine]]
    assert row["deleted_at"] > deadline
    assert thread.tally(deadline)["Кума"] == "Аскон"


@pytest.mark.parametrize("thread", ["phpbb", "smf", "fluxbb"], indirect=True)
def test_a_member_deleting_the_only_post_of_the_last_page_stops_nothing(thread):
    """SMF and FluxBB let any member delete his own post, phpBB his last one: the thread is a page
    shorter. The sync reads the page the board has now, records the post as deleted when that page
    came, and the game goes on; a vote deleted so before the deadline is gone."""
    assert thread.sync().ok
    thread.show(DELETED)
    deadline = thread.clock.now() + timedelta(minutes=5)
    report = thread.sync()
    assert report.ok, report.error
    assert report.deleted_posts == [LONE[thread.engine]]
    assert thread.store.thread_cursor("g1")["pages"] == 1
    assert "Кума" not in thread.tally(deadline)
    assert thread.tally(deadline) == {"Аскон": "Кума", "Robozik": "Кума"}
    again = thread.sync()
    assert again.ok and again.deleted_posts == [] and again.pages_fetched == 1


@pytest.mark.parametrize("thread", ["mybb"], indirect=True)
def test_mybb_shows_a_members_own_deletion_to_the_host_as_a_hidden_post(thread):
    """MyBB 1.8 soft-deletes a member's own post: the host still sees it, marked, on its page."""
    assert thread.sync().ok
    thread.show(("real_thread_lone_deleted_page1.html", "real_thread_lone_deleted_page2.html"))
    report = thread.sync()
    assert report.ok and report.deleted_posts == []
    assert LONE["mybb"] in thread.store.hidden_post_ids("g1")
    assert "Кума" not in thread.tally(thread.clock.now() + timedelta(minutes=5))
