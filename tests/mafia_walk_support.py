"""Two game days of the shipped example Mafia game walked by the daemon on a memory forum (each
draft approved as it comes): tests/test_spine_tick.py walks them across crashes, and the `played`
fixture (tests/conftest.py) gives the command-line tests a copy of the store they leave."""
from __future__ import annotations

from dataclasses import dataclass, replace

from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges
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
