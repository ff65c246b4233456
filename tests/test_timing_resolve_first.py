"""A late rush of orders does not hold a resolution back: once a phase's deadline has passed,
nothing is published until the tick at deadline + grace (the grace is for PMs in flight) has
resolved it; the receipts go after.

Legends on the local forum over HTTP, the daemon on a fake clock that its polite pauses (1 s a
request) move: 30 PMs sent in the minute before a poll 35 s before the deadline. Reading them takes
that poll a minute; their 30 receipts (about 90 requests) used to take it 90 s more, and the
resolution came only then (Legends drafts 101-109 s after deadline + grace).

With bench/soak.py's two games on one forum: a game with nothing due is read after the other's
resolution (its thread a second at the polite rate), games due at one moment are both read first."""
from __future__ import annotations

import dataclasses
import sys
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.settings.records import DEADLINE_GRACE
from legends_forum_support import PASSWORD_ENV, ROLES, legends_board, msk, start_daemon, tick_at, write_installation
from localforum_support import HOST, FakeClock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from soak import OUTSIDERS, RUSH as SOAK_RUSH, START, Soak, VirtualClock, apply, legends_script, mafia_script, soak_board  # noqa: E402,I001

GRACE = timedelta(seconds=DEADLINE_GRACE)      # [daemon] deadline_grace, the default
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


# ---------------------------------------------------------------- two games on one forum

@contextmanager
def two_games(tmp_path, pace):
    """bench/soak.py's Legends (30 players, topic 2) and Mafia (8, topic 3) on one local forum, every
    order PM of a phase in its last 3 s; each GET the daemon makes noted with the phases' state then."""
    clock = VirtualClock(SimpleNamespace(value=START.timestamp()))
    board = soak_board(clock.now, legends_script().players + mafia_script().players + list(OUTSIDERS))
    with LocalForum(board) as server:
        run = Soak(tmp_path, server.url, clock, lambda action: apply(board, action), 1, pace)
        store, client = run.daemon.store, run.daemon.forum.client
        real_get, seen = client.get, []

        def get(url, *args, **kwargs):
            seen.append((url, {game.id: [p["key"] for p in store.phases(game.id, status="resolved")]
                               for game in run.daemon.games}))
            return real_get(url, *args, **kwargs)
        client.get = get
        run.players.plan_chatter(START, 0, 0)
        yield run, seen
        store.close()


def deadline_of(run, game_id: str) -> datetime:
    [phase] = run.daemon.store.phases(game_id, status="pending")
    return phase["deadline"]


def test_a_game_with_nothing_due_is_read_after_the_other_games_resolution(tmp_path):
    with two_games(tmp_path, dataclasses.replace(SOAK_RUSH, rush=3)) as (run, seen):
        run.daemon.tick()                       # both games dealt, their first phases planned
        deadline = deadline_of(run, "legends-soak")
        assert deadline < deadline_of(run, "mafia-soak")
        run.advance((deadline + GRACE - run.clock.now()).total_seconds())   # the rush, all unread
        del seen[:]
        assert run.daemon.tick().resolved == ["legends-soak/night-1"]
        before = [url for url, resolved in seen if not resolved["legends-soak"]]
        after = [url for url, resolved in seen if resolved["legends-soak"]]
        # Legends' thread and the inbox read after the deadline, then the night resolved, then Mafia's thread
        assert any("t=2" in url for url in before) and any("folder=inbox" in url for url in before)
        assert not any("t=3" in url for url in before) and any("t=3" in url for url in after)
        orders = run.daemon.store.orders("legends-soak", "night-1")
        assert len(orders) == len(run.players.scripts[0].pms[("night", 1)])     # every PM of the rush counted


def test_games_resolving_at_one_moment_are_both_read_before_either_resolves(tmp_path):
    # Legends' night of 8 h and Mafia's round of 6 h end at one moment (05:00 Moscow time)
    with two_games(tmp_path, dataclasses.replace(SOAK_RUSH, legends_night="8h", mafia_round="6h", rush=3)) as (run, seen):
        run.daemon.tick()
        deadline = deadline_of(run, "legends-soak")
        assert deadline == deadline_of(run, "mafia-soak")
        run.advance((deadline + GRACE - run.clock.now()).total_seconds())
        del seen[:]
        assert sorted(run.daemon.tick().resolved) == ["legends-soak/night-1", "mafia-soak/round-1"]
        before = [url for url, resolved in seen if not any(resolved.values())]
        assert all(any(part in url for url in before) for part in ("t=2", "t=3", "folder=inbox"))
