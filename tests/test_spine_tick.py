"""tick: two mafia game days, each phase resolved once, even across crashes and restarts."""
from __future__ import annotations

from collections import Counter

import pytest

from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges, resolve_once
from localforum_support import msk
from mafia_walk_support import GAME, PMS, STEPS, Crash, walk
from spine_fakes import MemoryForum


def assert_two_days_once(store: Store, forum: MemoryForum) -> None:
    assert [(p["key"], p["status"]) for p in store.phases(GAME)] == \
           [("round-1", "resolved"), ("round-2", "resolved"), ("round-3", "pending")]
    assert Counter(r["phase_key"] for r in store.resolutions(GAME)) == {"round-1": 1, "round-2": 1}
    receipts = [d["ref"] for d in store.drafts(game_id=GAME) if d["kind"] == "receipt"]
    assert sorted(receipts) == sorted(f"receipt:{i}" for i in range(1, len(PMS) + 1))
    assert len(store.orders(GAME, "round-1")) == 7 and len(store.orders(GAME, "round-2")) == 2
    assert [o["sender"] for o in store.orders(GAME, "round-1/late")] == ["Ива"]
    reports = [d for d in store.drafts(game_id=GAME) if d["kind"] == "round_report"]
    assert [d["phase_key"] for d in reports] == ["round-1", "round-2"]
    assert all(d["status"] == "sent" for d in store.drafts(game_id=GAME))
    # each draft once: as many copies of a text went out as drafts hold it
    sent = Counter((item["to"], item["body"]) for item in forum.sent)
    assert sent == Counter((d["target"], d["body"]) for d in store.drafts(game_id=GAME))


def test_two_game_days_resolve_each_phase_once(installation):
    store, forum = walk(installation)
    assert_two_days_once(store, forum)
    jailed = [e["data"]["nick"] for e in store.events(GAME, "round-1") if e["type"] == "jailed"]
    assert jailed == ["Лиса"]
    assert store.phase(GAME, "round-1")["deadline"] == msk(3, 22, 45)
    assert store.phase(GAME, "round-2")["deadline"] == msk(4, 22, 45)


@pytest.mark.parametrize("crash", [
    ("sync_inbox", 2), ("read_orders", 3), ("resolve", 1), ("resolve", 2), ("next_phase", 1), ("publish", 3),
], ids=lambda c: f"{c[0]}#{c[1]}")
def test_a_crash_at_any_step_loses_nothing_and_repeats_nothing(installation, crash):
    where, at_call = crash
    trigger = Crash(at_call)
    store, forum = walk(installation, (where, trigger))
    assert trigger.fired
    assert_two_days_once(store, forum)


def test_a_second_resolution_is_refused_and_a_rerun_supersedes(installation):
    store, forum = walk(installation)
    game = Daemon(installation, store, forum, FixedClock(STEPS[-1]), Edges()).games[0]
    assert resolve_once(game, store, "round-2", msk(4, 22, 45), STEPS[-1]) is False
    before = store.latest_snapshot(GAME)["state"]
    assert resolve_once(game, store, "round-2", msk(4, 22, 45), STEPS[-1], rerun=True) is True
    assert [r["current"] for r in store.resolutions(GAME, "round-2")] == [0, 1]
    assert store.latest_snapshot(GAME)["state"] == before          # same inputs, same seed, same state
    reports = [d for d in store.drafts(game_id=GAME) if d["kind"] == "round_report" and d["phase_key"] == "round-2"]
    assert [d["status"] for d in reports] == ["sent", "pending"]    # what was sent stays on record
