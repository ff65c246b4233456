"""A notice approved to the host's own account lands in his inbox unread (phpBB and MyBB count it in
the thread page's header): the inbox read opens it once, so the next polls skip the inbox again."""
from __future__ import annotations

from datetime import timedelta

from forumgm.daemon.forum.housekeeping.inbox_check import DEFAULT_FULL_READ, inbox_reason
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from localforum_support import HOST, CountingForum, FakeClock, game_store, host_forum, seeded_board


def test_a_notice_to_the_hosts_own_account_is_opened_once_and_the_inbox_left_alone_after(tmp_path):
    clock = FakeClock()
    with LocalForum(seeded_board(clock, replies=3)) as server:
        store, forum = game_store(tmp_path, server, clock), host_forum(server, clock)
        assert sync_game(store.game("g1"), forum, store, clock.now()).unread_pms == 0
        forum.send_pm(HOST, "Заметка", "Ведущему: проверьте черновики")
        assert sync_game(store.game("g1"), forum, store, clock.now()).unread_pms == 1
        assert sync_inbox("local", forum, store, clock.now()).ok
        assert store.pms("local") == []                    # no order, no stored PM of a player
        counted = sync_game(store.game("g1"), forum, store, clock.now()).unread_pms
        assert counted == 0
        assert inbox_reason([counted], clock.now(), clock.now() + timedelta(minutes=10), DEFAULT_FULL_READ,
                            False) is None
