"""A poll with nothing new costs one request per thread: the thread page's header counts the
host's unread PMs, and the PM inbox is read only when it counts one, when a deadline has passed, after a
read that failed, or at the periodic whole read (`[daemon] inbox_full_read`), which also finds a PM
someone opened on the board before forumgm did. The local forum over real HTTP, a Legends game."""
from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from forumgm.daemon.forum.housekeeping.inbox_check import inbox_reason
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.sync import InboxReport
from legends_forum_support import (
    GAME, PASSWORD_ENV, Player, legends_board, msk, requests_of, start_daemon, tick_at, write_installation,
)
from localforum_support import FakeClock, host_forum

NIGHT_1 = "night-1"     # opens 2 March 21:00 Moscow time, deadline 3 March 10:00, grace 60 s


@pytest.fixture
def game(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 21))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        daemon = start_daemon(write_installation(tmp_path, server), server, clock)
        yield server, clock, daemon
        daemon.store.close()


def senders(daemon) -> list[str]:
    return [pm["sender"] for pm in daemon.store.pms("local")]


def read_in_a_browser(server, clock, pm_id: str) -> None:
    """The host opens the PM on the board, logged in as the game's account in his own browser."""
    host_forum(server, clock).message(pm_id)


def test_an_idle_poll_reads_the_thread_page_only_and_a_pm_is_read_when_the_page_counts_it(game):
    server, clock, daemon = game
    tick_at(daemon, clock, msk(2, 21, 5))             # the first tick reads the inbox whole
    assert requests_of(daemon, clock, msk(2, 21, 10)) == 1
    assert requests_of(daemon, clock, msk(2, 21, 20)) == 1
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    # the thread page's header counts 1 unread: the inbox's page and the PM's own page follow
    assert requests_of(daemon, clock, msk(2, 21, 30)) == 3
    assert senders(daemon) == ["Аскон"]
    assert [o["sender"] for o in daemon.store.orders(GAME, NIGHT_1)] == ["Аскон"]
    assert requests_of(daemon, clock, msk(2, 21, 40)) == 1     # forumgm opened it: nothing unread again


def test_a_pm_opened_on_the_board_before_forumgm_saw_it_is_found_by_the_periodic_whole_read(game):
    server, clock, daemon = game
    tick_at(daemon, clock, msk(2, 21, 5))
    pm_id = Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    read_in_a_browser(server, clock, pm_id)
    assert requests_of(daemon, clock, msk(2, 21, 10)) == 1     # the page counts nothing unread
    assert senders(daemon) == []
    assert requests_of(daemon, clock, msk(2, 21, 34)) == 1     # 29 minutes after the last whole read
    # 30 minutes after it ([daemon] inbox_full_read): the inbox page and the PM's page
    assert requests_of(daemon, clock, msk(2, 21, 35)) == 3
    assert senders(daemon) == ["Аскон"]
    assert [o["sender"] for o in daemon.store.orders(GAME, NIGHT_1)] == ["Аскон"]
    assert requests_of(daemon, clock, msk(2, 21, 40)) == 1


def test_a_pm_opened_on_the_board_just_before_the_deadline_counts_at_the_resolution(game):
    server, clock, daemon = game
    tick_at(daemon, clock, msk(3, 9, 50))
    pm_id = Player(server, clock, "Кума").pm("Ночь 1", "Шпионаж Аскон")
    read_in_a_browser(server, clock, pm_id)
    assert requests_of(daemon, clock, msk(3, 9, 59)) == 1
    assert senders(daemon) == []
    report = tick_at(daemon, clock, msk(3, 10) + daemon.polling.grace)      # deadline + grace: read whole
    assert report.resolved == [f"{GAME}/{NIGHT_1}"]
    assert [o["sender"] for o in daemon.store.orders(GAME, NIGHT_1)] == ["Кума"]


def test_after_a_read_that_failed_the_inbox_is_read_again_and_the_game_waits_till_it_reads(game):
    server, clock, daemon = game
    tick_at(daemon, clock, msk(2, 21, 5))
    edges = daemon.edges
    problem = "the forum did not answer while reading the PM inbox of local: HTTP 502"
    daemon.edges = replace(edges, sync_inbox=lambda forum_id, *rest: InboxReport(forum_id, error=problem))
    clock.moment = msk(3, 10, 1)       # the deadline is due: a whole read, and it fails
    assert daemon.tick().errors == [problem]
    assert daemon.store.game(GAME)["problem"] == problem
    daemon.edges = edges
    # the page counts nothing unread, and no whole read is due by the clock: read all the same
    assert requests_of(daemon, clock, msk(3, 10, 2)) >= 2
    assert daemon.store.game(GAME)["problem"] is None


def test_a_board_whose_pages_show_no_count_has_its_inbox_read_at_every_poll(game):
    server, clock, daemon = game
    daemon.forum.unread_pms = lambda html: None      # as a theme without the header's PM link
    tick_at(daemon, clock, msk(2, 21, 5))
    assert [requests_of(daemon, clock, msk(2, 21, minute)) for minute in (10, 20)] == [2, 2]


@pytest.mark.parametrize("counts, read_ago, due, why", [
    ([0], 10, False, None),
    ([0, 0], 29, False, None),
    ([0], 30, False, "the periodic whole read"),
    ([0], None, False, "no read of the inbox that went well yet"),
    ([0], 10, True, "a deadline has passed"),
    ([0, 2], 10, False, "2 unread PM(s)"),
    ([0, None], 10, False, "the pages read show no unread count"),
    ([], 10, False, "the pages read show no unread count"),       # every game of the forum held
])
def test_why_the_inbox_is_read(counts, read_ago, due, why):
    now = msk(3, 12)
    read_at = None if read_ago is None else now - timedelta(minutes=read_ago)
    assert inbox_reason(counts, read_at, now, timedelta(minutes=30), due) == why
