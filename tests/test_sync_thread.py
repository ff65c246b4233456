"""Incremental sync of a game thread and the PM inbox from the local forum over HTTP."""
import io
import re
from datetime import timedelta

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from forumgm.parsers.forums.base import PageLayoutError
from localforum_support import (
    HOST, CountingForum, FakeClock, game_store, host_forum, seeded_board,
)

NO_WINDOW = timedelta(0)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def server(clock):
    with LocalForum(seeded_board(clock, replies=11)) as running:   # 12 posts: pages of 5, 5, 2
        yield running


@pytest.fixture
def store(tmp_path, server, clock):
    return game_store(tmp_path, server, clock)


@pytest.fixture
def forum(server, clock):
    return CountingForum(host_forum(server, clock))


def game(store):
    return store.game("g1")


def test_first_sync_reads_every_page_and_stores_raw_pages(store, forum, clock):
    report = sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    assert report.ok and forum.pages == [1, 2, 3]
    assert len(report.new_posts) == 12 and len(store.posts("g1")) == 12
    assert [row["page_no"] for row in store.raw_pages("g1")] == [1, 2, 3]
    assert store.thread_cursor("g1") == {"last_page": 3, "pages": 3, "last_post_id": report.new_posts[-1]}


def test_a_poll_with_nothing_new_costs_one_request(store, forum, clock):
    sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    forum.pages.clear()
    report = sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    assert forum.pages == [3]
    assert (report.new_posts, report.edited_posts, report.deleted_posts) == ([], [], [])


def test_new_posts_are_read_from_the_last_known_page_on(store, forum, server, clock):
    sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    forum.pages.clear()
    added = [server.board.reply("Кума", 2, f"Голосую за [color=blue]Аскон[/color] {n}").id for n in range(5)]
    report = sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    assert forum.pages == [3, 4]
    assert report.new_posts == [str(i) for i in added]


def test_an_edit_on_an_earlier_page_is_read_once_just_before_the_deadline_and_both_versions_kept(
        store, forum, server, clock):
    """An idle poll reads the last page only (one request per thread). The first poll in the last
    minute before a deadline reads again the pages holding posts written inside the edit window
    before it, once: the edit made there is seen before the deadline."""
    window = timedelta(minutes=6)                     # posts are a minute apart; 12 minutes so far
    sync_game(game(store), forum, store, clock.now(), edit_window=window)
    early = server.board.visible_posts(2)[6]          # page 2, posted 6 minutes before now
    server.board.edit_post(early.id, "Голосую за [color=blue]Robozik[/color]")
    clock.sleep(60)
    forum.pages.clear()
    assert sync_game(game(store), forum, store, clock.now(), edit_window=window).edited_posts == []
    assert forum.pages == [3]
    store.ensure_phase("g1", "day-1", "day", 1, None, clock.now() + timedelta(seconds=100))
    forum.pages.clear()
    sync_game(game(store), forum, store, clock.now(), edit_window=window)
    assert forum.pages == [3]                         # 100 s before the deadline: not yet
    clock.sleep(50)
    forum.pages.clear()
    report = sync_game(game(store), forum, store, clock.now(), edit_window=window)
    assert forum.pages == [2, 3]
    assert report.edited_posts == [str(early.id)]
    versions = store.post_versions("g1", str(early.id))
    assert len(versions) == 2
    assert "Robozik" in versions[-1]["text"] and versions[-1]["edited_by"] == server.board.users[early.author_id].name
    forum.pages.clear()
    sync_game(game(store), forum, store, clock.now() + timedelta(seconds=30), edit_window=window)
    assert forum.pages == [3]


def test_a_vote_edited_hours_after_it_was_posted_off_the_last_page_is_read_before_the_deadline(
        store, forum, server, clock):
    """A vote changed 4 h after it was posted, on a page no idle poll reads: the deadline's one
    re-read starts at the first page holding a post of the phase (written since it opened), not only
    at those written inside the edit window, and the edit, dated by the board's mark, counts."""
    opened = clock.now() - timedelta(minutes=15)          # the seeded posts are the phase's, a minute apart
    window = timedelta(minutes=2)
    sync_game(game(store), forum, store, clock.now(), edit_window=window)
    early = server.board.visible_posts(2)[2]              # page 1
    clock.sleep(4 * 3600)
    server.board.edit_post(early.id, "Голосую за [color=blue]Robozik[/color]")
    store.ensure_phase("g1", "day-1", "day", 1, opened, clock.now() + timedelta(seconds=40))
    forum.pages.clear()
    report = sync_game(game(store), forum, store, clock.now(), edit_window=window)
    assert forum.pages == [1, 2, 3]
    assert report.edited_posts == [str(early.id)]
    assert "Robozik" in store.post_versions("g1", str(early.id))[-1]["text"]
    forum.pages.clear()
    clock.sleep(10)
    sync_game(game(store), forum, store, clock.now(), edit_window=window)
    assert forum.pages == [3]                              # once per deadline: the idle poll's one request


def test_a_reread_that_failed_is_made_at_the_next_poll(store, forum, server, clock):
    sync_game(game(store), forum, store, clock.now(), edit_window=timedelta(minutes=30))
    store.ensure_phase("g1", "day-1", "day", 1, None, clock.now())
    forum.pages.clear()
    real = forum.forum.thread_page
    forum.forum.thread_page = lambda url, page: real(url, 99)    # another page than asked for
    assert not sync_game(game(store), forum, store, clock.now(), edit_window=timedelta(minutes=30)).ok
    forum.forum.thread_page = real
    forum.pages.clear()
    assert sync_game(game(store), forum, store, clock.now(), edit_window=timedelta(minutes=30)).ok
    assert forum.pages == [1, 2, 3]


def test_an_edit_outside_the_window_waits_for_a_later_full_read(store, forum, server, clock):
    sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    server.board.edit_post(server.board.visible_posts(2)[1].id, "Передумал")
    report = sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    assert report.edited_posts == []


@pytest.mark.parametrize("index", [-2, -1, 3])   # first and last of the last page, and one on page 1
def test_a_deleted_post_is_marked_not_erased(store, forum, server, clock, index):
    sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    gone = server.board.visible_posts(2)[index]
    server.board.delete_post(gone.id)
    report = sync_game(game(store), forum, store, clock.now(), edit_window=NO_WINDOW)
    # a deletion on page 1 pulls one post back from page 3: it moved, it was not deleted
    expected = [] if index == 3 else [str(gone.id)]
    assert report.deleted_posts == expected
    if not expected:
        return
    row = next(r for r in store.posts("g1") if r["post_id"] == str(gone.id))
    assert row["deleted_at"] and store.post_versions("g1", str(gone.id))


def test_a_page_the_parser_does_not_understand_stops_the_game_with_a_message(store, forum, clock):
    def broken(url, page):
        raise PageLayoutError("no post containers (div.post.has-profile)")

    forum.forum.thread_page = broken
    report = sync_game(game(store), forum, store, clock.now())
    assert not report.ok and "div.post.has-profile" in report.error and "host" in report.error
    assert report.new_posts == [] and store.posts("g1") == []


def test_progress_bar_only_on_a_terminal(store, forum, clock):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    shown = Terminal()
    sync_game(game(store), forum, store, clock.now(), progress=shown)
    assert "page 3/3" in shown.getvalue()
    quiet = io.StringIO()
    sync_game(game(store), forum, store, clock.now(), progress=quiet)
    assert quiet.getvalue() == ""


def test_inbox_is_read_until_known_messages_and_each_pm_stored_once(store, forum, server, clock):
    server.board.send_pm("Аскон", HOST, "Ночной ход", "Атака 5 gosha100")
    server.board.send_pm("Кума", HOST, "Ход", "Лечение Аскон")
    first = sync_inbox("local", forum, store, clock.now())
    assert first.ok and first.new_pms == ["2", "1"]
    server.board.send_pm("Robozik", HOST, "Ночь 1", "Атака 10 gosha100")
    second = sync_inbox("local", forum, store, clock.now())
    assert second.new_pms == ["3"]
    stored = {row["pm_id"]: row for row in store.pms("local")}
    assert sorted(stored) == ["1", "2", "3"] and stored["1"]["text"] == "Атака 5 gosha100"


def test_a_pm_quoting_the_hosts_message_keeps_the_senders_own_words_apart(store, forum, server, clock):
    server.board.send_pm("Кума", HOST, "Re: квитанция",
                         "[quote=Ведущий]Принято:\nубить Аскона[/quote]\nлечить gosha100")
    assert sync_inbox("local", forum, store, clock.now()).ok
    (row,) = store.pms("local")
    assert "убить Аскона" in row["text"] and "лечить gosha100" in row["text"]
    assert row["text_unquoted"] == "лечить gosha100"


def test_the_edit_window_comes_from_the_game_config(tmp_path):
    from forumgm.config import data_path
    from forumgm.daemon.settings.game import load_game
    from forumgm.daemon.tick.sync import DEFAULT_EDIT_WINDOW, _edit_window

    text = data_path("games", "legends.example.toml").read_text(encoding="utf-8")
    path = tmp_path / "game.toml"
    path.write_text(text.replace('# edit_window = "1h"', 'edit_window = "3h"'), encoding="utf-8")
    assert _edit_window(load_game(path)) == timedelta(hours=3)
    assert _edit_window(load_game(data_path("games", "legends.example.toml"))) == DEFAULT_EDIT_WINDOW


@pytest.mark.parametrize("time_zone, stops", [("America/New_York", True), ("UTC", False)])
def test_a_thread_dated_hours_ahead_stops_the_game_and_is_not_taken(tmp_path, time_zone, stops):
    """The real MyBB thread shows the account's wall clock (UTC there). Read with a [forum] time_zone
    five hours west, every post comes out dated hours after it was read, and every vote would be timed
    so: a vote posted up to five hours after the deadline counted. Nothing of it is taken; the game
    stops with the reason. Read in the zone the board shows, the same thread is taken whole."""
    from forum_http_board import BoardServer, FixtureBoard
    from forum_http_sites import MYBB
    from forum_parser_fixtures import CAPTURED
    from forumgm.daemon.forum import open_forum
    from forumgm.daemon.store import Store
    with BoardServer(FixtureBoard(MYBB, password="host-secret", member=HOST)) as board:
        forum = open_forum({"engine": "mybb", "base_url": board.url, "username": HOST, "time_zone": time_zone,
                            "retries": 0, "min_interval": 0.1}, "host-secret", now=lambda: CAPTURED)
        store = Store(tmp_path / "forumgm.sqlite", now=lambda: CAPTURED)
        store.register_forum("main", "mybb", board.url, HOST)
        store.register_game("g1", "legends", "main", board.url + "showthread.php?tid=1", "UTC", 1, {"Кума": []})
        report = sync_game(store.game("g1"), forum, store, CAPTURED)
    if stops:
        assert report.error.startswith("the thread of game g1: the forum dates post ")
        # read when the page arrived: the polite pauses of the log-in have passed since the tick began
        assert re.search(r"h after it was read \(2026-11-30T04:45:[0-9.]+\+00:00\): \[forum\] time_zone is not "
                         "the zone the board shows the account's dates in", report.error)
        assert store.posts("g1") == []
    else:
        assert report.ok and len(store.posts("g1")) == 13
