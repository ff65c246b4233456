"""A late rush of orders does not hold a resolution back: once a phase's deadline (plus the grace
for PMs in flight) has passed, publishing stops and the next tick resolves, then sends the rest.

Legends on the local forum over HTTP, the daemon on a fake clock that its polite pauses (1 s a
request) move: 30 PMs sent in the minute before a poll 35 s before the deadline. Reading them takes
that poll a minute; their 30 receipts (about 90 requests) used to take it 90 s more, and the
resolution came only then (Legends drafts 101-109 s after deadline + grace)."""
from __future__ import annotations

from datetime import timedelta

from forumgm.daemon.offline.localforum import LocalForum
from legends_forum_support import PASSWORD_ENV, ROLES, legends_board, msk, start_daemon, tick_at, write_installation
from localforum_support import HOST, FakeClock

GRACE = timedelta(seconds=30)      # [daemon] deadline_grace, the default
RUSH = 30


def test_the_resolution_drafts_come_within_seconds_of_the_deadline_and_the_receipts_after(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        config = write_installation(tmp_path, server, '[approval]\nreceipt = false\n')
        daemon = start_daemon(config, server, clock, publish=True)
        tick_at(daemon, clock, msk(2, 20))                # dealt; the night's deadline is 10:00
        [night] = daemon.store.phases(daemon.games[0].id)
        deadline = night["deadline"]
        nicks = list(ROLES)
        for n in range(RUSH):       # each reaching the board at its own moment of the last minute
            clock.moment = deadline - timedelta(seconds=60) + timedelta(seconds=0.8 * n)
            server.board.send_pm(nicks[n % len(nicks)], HOST, "Ночь 1", f"Шпионаж {nicks[(n + 1) % len(nicks)]}")
        clock.moment = deadline - timedelta(seconds=35)   # a poll near the deadline (every 30 s)
        rush = daemon.tick()        # reads the 30 PMs (a minute at the polite rate), drafts 30 receipts
        assert rush.errors == [] and rush.resolved == []
        receipts = [d for d in daemon.store.drafts(game_id=night["game_id"]) if d["kind"] == "receipt"]
        assert len(receipts) == RUSH
        unsent = [d for d in receipts if d["status"] != "sent"]
        assert unsent, "the rush tick stopped publishing once the phase was due"
        resolving = daemon.tick()                         # at once: the plan's deadline + grace has passed
        assert resolving.resolved == [f"{night['game_id']}/{night['key']}"]
        reports = [d for d in daemon.store.drafts(game_id=night["game_id"]) if d["kind"].endswith("_report")]
        assert reports and max(d["created_at"] for d in reports) <= deadline + GRACE + timedelta(seconds=5)
        while any(d["status"] != "sent" for d in daemon.store.drafts(game_id=night["game_id"]) if d["kind"] == "receipt"):
            assert daemon.tick().errors == []
        assert all(d["status"] == "sent" for d in daemon.store.drafts(game_id=night["game_id"]) if d["kind"] == "receipt")
