"""A forum without private messages (FluxBB): the inbox is not read, the thread still is."""
from __future__ import annotations

import logging

from forum_http_board import BoardServer, FixtureBoard
from forum_http_sites import FLUXBB
from forumgm.daemon.forum import open_forum
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from localforum_support import HOST, PLAYERS, FakeClock


def test_fluxbb_inbox_is_skipped_quietly_and_said_once_while_thread_votes_still_sync(tmp_path, caplog):
    clock = FakeClock()
    board = FixtureBoard(FLUXBB, password="host-secret", member=HOST)
    with BoardServer(board) as server:
        forum = open_forum({"engine": "fluxbb", "base_url": server.url, "username": HOST, "posts_per_page": 5,
                            "timeout": 5, "retries": 0}, "host-secret",
                           clock=clock.monotonic, sleep=clock.sleep, now=clock.now)
        store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
        store.register_forum("flux-only", "fluxbb", server.url, HOST)
        store.register_game("g1", "mafia", "flux-only", server.url + "viewtopic.php?id=2", "UTC", 1,
                            {nick: [] for nick in PLAYERS})
        with caplog.at_level(logging.INFO, logger="forumgm.daemon.tick.sync"):
            reports = [sync_inbox("flux-only", forum, store, clock.now()) for _ in range(3)]
        thread = sync_game(store.game("g1"), forum, store, clock.now())
    assert all(report.ok and report.pages_fetched == 0 for report in reports)
    told = [r.getMessage() for r in caplog.records if "no private messages" in r.getMessage()]
    assert told == ["forum flux-only has no private messages: its inbox is not read, orders cannot come by PM"]
    assert thread.ok and len(store.posts("g1")) == len(thread.new_posts) > 0
