"""A quiet poll costs one request per thread on the engines whose pages were written after their
published templates, too: Invision Community 4's fixture board (tests/forum_http_board.py) counts the
PMs it delivers in the user bar of every page, as its userBar template does, until they are opened.
The daemon hosts a Legends game on the board's topic over real HTTP."""
from __future__ import annotations

from datetime import datetime

import pytest

from forum_http_board import BoardServer, FixtureBoard
from forum_http_sites import IPB4_MAILBOX
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.forum import open_forum
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from forumgm.daemon.tick.flow import Edges
from legends_forum_support import (
    HOST_PASSWORD, MSK, PASSWORD_ENV, ROLES, requests_of, tick_at, write_installation,
)
from localforum_support import HOST, FakeClock

TOPIC = "topic/7-igra-1-den-1/"


def msk(hour: int, minute: int = 0) -> datetime:
    """30 November, Moscow time: the day after the night the saved pages were written in."""
    return datetime(2026, 11, 30, hour, minute, tzinfo=MSK)


@pytest.fixture
def game(tmp_path, monkeypatch):
    clock = FakeClock(msk(16))
    monkeypatch.setenv(PASSWORD_ENV, HOST_PASSWORD)
    board = FixtureBoard(IPB4_MAILBOX, password=HOST_PASSWORD, member=HOST, members=tuple(ROLES), clock=clock.monotonic)
    with BoardServer(board) as server:
        installation = load_installation(write_installation(tmp_path, server, engine="ipb4", thread=TOPIC,
                                                            start="2026-11-29T21:00:00"))
        forum = open_forum({"engine": "ipb4", "base_url": server.url, "username": HOST, "posts_per_page": 4},
                           HOST_PASSWORD, clock=clock.monotonic, sleep=clock.sleep, now=clock.now)
        daemon = Daemon(installation, Store(installation.storage, now=clock.now), forum, clock,
                        Edges(sync_game=sync_game, sync_inbox=sync_inbox))
        yield board, clock, daemon
        daemon.store.close()


def test_an_idle_poll_reads_the_topic_page_only_and_the_inbox_when_its_count_rises(game):
    board, clock, daemon = game
    tick_at(daemon, clock, msk(16, 5))       # the first tick logs in and reads the topic and the messenger whole
    assert len(daemon.store.pms("local")) == 2
    assert [requests_of(daemon, clock, msk(16, minute)) for minute in (10, 20)] == [1, 1]
    pm_id = board.deliver("Аскон", "Ночь 1", "Шпионаж Кума")
    # the user bar counts 1: the messenger's page and the conversation's own page follow
    assert requests_of(daemon, clock, msk(16, 30)) == 3
    assert [(pm["pm_id"], pm["sender"], pm["text"]) for pm in daemon.store.pms("local")][-1:] == [
        (pm_id, "Аскон", "Шпионаж Кума")]
    assert board.unread == 0
    assert requests_of(daemon, clock, msk(16, 40)) == 1     # forumgm opened it: nothing unread again

