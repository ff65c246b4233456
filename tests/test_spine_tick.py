"""tick: two mafia game days, each phase resolved once, even across crashes and restarts."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import pytest

from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges, resolve_once
from localforum_support import msk
from spine_fakes import MemoryForum, ScriptedPm

GAME = "mafia-example"


# Two game days of the example mafia game (round 1: 2 March 23:00 -> 3 March 22:45, round 2 -> 4 March).
PMS = [
    ScriptedPm("Аскон", "голос: Лиса\nпроверить Бука", msk(3, 10)),
    ScriptedPm("Хан", "голос: Лиса\nлечить Аскона", msk(3, 11)),
    ScriptedPm("Лиса", "голос: Аскон\nубить Хана", msk(3, 12)),
    ScriptedPm("Бук", "голос: Аскон", msk(3, 12, 30)),
    ScriptedPm("Тора", "голос: Лиса", msk(3, 13)),
    ScriptedPm("Эф", "голос: Лиса", msk(3, 14)),
    ScriptedPm("Гор", "голос: Бук", msk(3, 15)),
    ScriptedPm("Ива", "голос: Лиса", msk(3, 22, 50)),        # after the deadline: a late receipt, no order
    ScriptedPm("Аскон", "голос: Бук", msk(4, 10)),
    ScriptedPm("Бук", "голос: Аскон", msk(4, 11)),
]
STEPS = [msk(3, 0), msk(3, 12, 15), msk(3, 22, 46), msk(3, 23, 5), msk(4, 9), msk(4, 22, 50), msk(5, 1)]


class Killed(BaseException):
    """A crash: propagates through every `except Exception`, as a killed process would stop."""


@dataclass
class Crash:
    """Raises Killed at the n-th call of the wrapped function, once."""

    at_call: int
    calls: int = 0
    fired: bool = False

    def wrap(self, function):
        def wrapped(*args, **kwargs):
            self.calls += 1
            if not self.fired and self.calls == self.at_call:
                self.fired = True
                raise Killed(function.__name__)
            return function(*args, **kwargs)
        return wrapped


def approve_everything(store: Store) -> None:
    for draft in store.drafts(status="pending"):
        store.approve(draft["id"], by="host")


def start(installation, clock, forum, crash: tuple[str, Crash] | None = None) -> Daemon:
    """A freshly started daemon process on the installation's store file."""
    from forumgm.daemon.drafts.publish import publish_approved
    from forumgm.daemon.tick.sync import sync_game, sync_inbox

    edges = Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved)
    store = Store(installation.storage)
    daemon = Daemon(installation, store, forum, clock, edges)
    if crash is not None:
        where, trigger = crash
        if where in ("sync_inbox", "publish"):
            daemon.edges = replace(edges, **{where: trigger.wrap(getattr(edges, where))})
        else:     # a method of the engine: read_orders, resolve, next_phase, ...
            game = daemon.games[0]
            rules = _Patched(game.rules, where, trigger.wrap(getattr(game.rules, where)))
            daemon.games = [replace(game, rules=rules)]
    return daemon


class _Patched:
    def __init__(self, rules, name, function):
        self._rules, self._name, self._function = rules, name, function

    def __getattr__(self, name):
        return self._function if name == self._name else getattr(self._rules, name)


def walk(installation, crash: tuple[str, Crash] | None = None) -> tuple[Store, MemoryForum]:
    clock = FixedClock(STEPS[0])
    forum = MemoryForum(clock, pms=list(PMS))
    daemon = start(installation, clock, forum, crash)
    for at in STEPS:
        clock.set(at)
        for _attempt in range(2):
            try:
                daemon.tick()
                approve_everything(daemon.store)
                break
            except Killed:
                daemon.store.close()
                daemon = start(installation, clock, forum)      # restarted without the fault
    return Store(installation.storage), forum


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
