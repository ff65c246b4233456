"""A late rush of orders does not hold a resolution back: once a phase's deadline has passed,
nothing is published until the tick at deadline + grace (the grace is for PMs in flight) has
resolved it; the receipts go after.

Legends on the local forum over HTTP, the daemon on a fake clock that its polite pauses (1 s a
request) move: 30 PMs sent in the minute before a poll 35 s before the deadline. Reading them takes
that poll a minute; their 30 receipts (about 90 requests) used to take it 90 s more, and the
resolution came only then (Legends drafts 101-109 s after deadline + grace)."""
from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

from forumgm.daemon.offline.localforum import LocalForum
from legends_forum_support import PASSWORD_ENV, ROLES, legends_board, msk, start_daemon, tick_at, write_installation
from localforum_support import HOST, FakeClock

GRACE = timedelta(seconds=30)      # [daemon] deadline_grace, the default
RUSH = 30


@contextmanager
def receipts_unapproved(tmp_path, monkeypatch):
    """A Legends game on the local forum whose receipts go out with no approval, not yet dealt."""
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        config = write_installation(tmp_path, server, '[approval]\nreceipt = false\n')
        yield server, clock, start_daemon(config, server, clock, publish=True)


def test_the_resolution_drafts_come_within_seconds_of_the_deadline_and_the_receipts_after(tmp_path, monkeypatch):
    with receipts_unapproved(tmp_path, monkeypatch) as (server, clock, daemon):
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
        assert unsent, "the rush tick stopped publishing once the deadline had passed"
        clock.moment = max(clock.moment, deadline + GRACE)     # the plan's tick at deadline + grace
        resolving = daemon.tick()
        assert resolving.resolved == [f"{night['game_id']}/{night['key']}"]
        reports = [d for d in daemon.store.drafts(game_id=night["game_id"]) if d["kind"].endswith("_report")]
        assert reports and max(d["created_at"] for d in reports) <= deadline + GRACE + timedelta(seconds=5)
        while any(d["status"] != "sent" for d in daemon.store.drafts(game_id=night["game_id"]) if d["kind"] == "receipt"):
            assert daemon.tick().errors == []
        assert all(d["status"] == "sent" for d in daemon.store.drafts(game_id=night["game_id"]) if d["kind"] == "receipt")


def test_a_rush_read_inside_the_grace_is_answered_only_after_the_resolution(tmp_path, monkeypatch):
    with receipts_unapproved(tmp_path, monkeypatch) as (server, clock, daemon):
        tick_at(daemon, clock, msk(2, 20))
        [night] = daemon.store.phases(daemon.games[0].id)
        deadline = night["deadline"]
        nicks = list(ROLES)
        for n in range(10):         # the last 20 s, after the last poll before the deadline
            clock.moment = deadline - timedelta(seconds=20) + timedelta(seconds=2 * n)
            server.board.send_pm(nicks[n % len(nicks)], HOST, "Ночь 1", f"Шпионаж {nicks[(n + 1) % len(nicks)]}")
        inside = tick_at(daemon, clock, deadline + timedelta(seconds=1))    # the plan's tick at the deadline
        assert inside.resolved == []
        read = [pm for pm in daemon.store.pms(daemon.games[0].forum_id) if pm["sent_at"] >= deadline - 2 * GRACE]
        assert len(read) == 10
        assert not [pm for pm in server.board.pms.values() if pm.sent_at > deadline]    # read, not answered yet
        assert clock.moment < deadline + GRACE          # (and read while the grace ran)
        clock.moment = deadline + GRACE
        assert daemon.tick().resolved == [f"{night['game_id']}/{night['key']}"]
        while any(d["status"] != "sent" for d in daemon.store.drafts(game_id=night["game_id"]) if d["kind"] == "receipt"):
            assert daemon.tick().errors == []
        drafts = daemon.store.drafts(game_id=night["game_id"])
        drafted = max(d["created_at"] for d in drafts if d["resolution_id"] is not None)
        answered = [server.board.pms[int(d["forum_ref"])].sent_at for d in drafts if d["kind"] == "receipt"]
        assert len(answered) == 10 and drafted <= min(answered)
