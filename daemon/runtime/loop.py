"""The daemon: wiring from an installation config, and the loop that ticks when the plan says.

forumgm.daemon.runtime.wakeups plans the next tick (deadlines, reminders, polling near and far); SIGTERM/SIGINT set a flag that is checked between ticks, so the
tick in progress finishes (its transactions commit or roll back whole) and the process exits 0.
"""
from __future__ import annotations

import logging
import sqlite3
import signal
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

from forumgm.daemon.forum.permalink import post_url_builder
from forumgm.daemon.notify.notifier import notifier_for
from forumgm.daemon.runtime.wakeups import STOPPED, OpenPhase, Polling, Wake, next_wake
from forumgm.daemon.settings.games import game_texts, rules_for
from forumgm.daemon.settings.records import Installation
from forumgm.daemon.store import Store, utc_now
from forumgm.daemon.store.seats import seats_of
from forumgm.daemon.tick.clock import Clock
from forumgm.daemon.tick.finish import is_finished
from forumgm.daemon.tick.flow import Edges, GameRun, TickReport, tick
from forumgm.daemon.tick.rules_freeze import checked

log = logging.getLogger(__name__)
REPLAN = 60.0      # real seconds: the longest the loop sleeps before reading the plan again


@dataclass
class Daemon:
    installation: Installation
    store: Store
    forum: Any
    clock: Clock
    edges: Edges | None = None

    def __post_init__(self) -> None:
        self.drafts_held: datetime | None = None    # the last tick's: when the board's flood pause ends
        self.polling = Polling.of(self.installation)
        register(self.store, self.installation)
        # the rules freeze at every start, then every tick: a game whose [rules] changed is held
        self.games = checked(game_runs(self.installation, self.polling.grace), self.store,
                             self.clock.now())
        self.notifier = notifier_for(self.installation)

    def tick(self) -> TickReport:
        now = self.clock.now()
        self.games = checked(self.games, self.store, now)
        wall = getattr(self.clock, "wall", False)     # a fast or fixed clock runs apart from the board's on purpose
        report = tick(now, self.forum, self.store, self.games, self.edges,
                      board_clock=getattr(self.forum, "board_now", None) if wall else None)
        self.drafts_held = report.drafts_held
        if self.notifier is not None:
            try:
                self.notifier.run(self.store, self.forum, self.games, now)
            except Exception:   # telling the host must never stop the game
                log.exception("notify: the host could not be told")
        return report

    def plan(self, last_tick: datetime) -> Wake:
        """The next tick after one at `last_tick`, from the open phases in the store now; kept for `status`."""
        wake = next_wake(last_tick, open_phases(self.store, self.games), self.polling, self.drafts_held)
        self.keep_plan(last_tick, wake.at, wake.why)
        return wake

    def keep_plan(self, last_tick: datetime, next_tick: datetime, why: str) -> None:
        """The tick after the one at `last_tick`, kept for `status` (which reads the real clock): on a
        fast game clock with the real moment it comes too."""
        speed = speed_of(self.clock)
        due = None if speed == 1 else utc_now() + (next_tick - self.clock.now()) / speed
        self.store.set_tick_plan(last_tick, next_tick, why, speed, due)

    def stopped(self, last_tick: datetime, why: str = "") -> None:
        """No tick follows the one at `last_tick`: kept for `status`, which then says so."""
        self.store.set_tick_plan(last_tick, self.clock.now(), f"{STOPPED}: {why}" if why else STOPPED,
                                 speed_of(self.clock))


def game_runs(installation: Installation, grace: timedelta = timedelta(0)) -> list[GameRun]:
    """The configured games; who holds each seat is read from the store at every tick (GameRun.seats)."""
    forum = installation.forum
    return [GameRun(game, rules_for(game.type, game.rules), forum.id, game_texts(game.templates),
                    account=forum.account, post_url=post_url_builder(forum, game.thread_url),
                    web_url=installation.web_public_url, grace=grace,
                    inbox_full_read=timedelta(seconds=installation.inbox_full_read))
            for game in installation.games]


def open_phases(store: Store, games: list[GameRun]) -> list[OpenPhase]:
    """Each running game's open phase, as the store has it now (a host's new deadline included)."""
    phases = []
    for game in games:
        if is_finished(store, game.id):
            continue
        pending = store.phases(game.id, status="pending")
        if pending:
            phases.append(OpenPhase(pending[0]["deadline"], game.config.reminder_before))
    return phases


def register(store: Store, installation: Installation) -> None:
    """The store's copy of the forum and games, refreshed from the config at every start."""
    forum = installation.forum
    store.register_forum(forum.id, forum.engine, forum.base_url, forum.account)
    for game in installation.games:
        store.register_game(game.id, game.type, forum.id, game.thread_url, game.time_zone.key, game.seed,
                            {seat.id: seat.aliases for seat in seats_of(((p.nick, p.aliases) for p in game.players),
                                                                        store.replacements(game.id)).seats},
                            {"web_url": installation.web_public_url} if installation.web_public_url else None)


class StopFlag:
    """Set by SIGTERM/SIGINT; the loop checks it between ticks and while it sleeps."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def install(self) -> None:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, self._on_signal)

    def _on_signal(self, signum, frame) -> None:
        log.info("signal %s: stopping after the current tick", signal.Signals(signum).name)
        self._event.set()

    def set(self) -> None:
        self._event.set()

    @property
    def stopped(self) -> bool:
        return self._event.is_set()

    def wait(self, seconds: float) -> None:
        self._event.wait(seconds)


def run_loop(daemon: Daemon, stop: StopFlag, max_ticks: int | None = None,
             sleep: Callable[[float], None] | None = None) -> int:
    """Tick at once, then whenever the plan says (forumgm.daemon.runtime.wakeups), until stopped.

    The plan is read again from the store at least every REPLAN real seconds while waiting, so
    a deadline the host moves or a phase that opens meanwhile is honoured without a forum request.
    """
    wait = sleep or stop.wait
    ticks = 0
    told: str | None = None      # the store failure already logged
    while not stop.stopped and (max_ticks is None or ticks < max_ticks):
        last = daemon.clock.now()
        try:
            daemon.tick()
            told = _store_recovered(told)
        except sqlite3.Error as error:   # a full disk, a read-only file: one line, not a traceback a tick
            told = _store_failed(daemon, error, told)
        except Exception:   # the daemon keeps running; the next tick retries from the store
            log.exception("tick failed")
        ticks += 1
        if max_ticks is not None and ticks >= max_ticks:
            break
        while not stop.stopped:
            wake = daemon.plan(last)
            left = (wake.at - daemon.clock.now()).total_seconds() / speed_of(daemon.clock)
            if left <= 0:
                break
            wait(min(left, REPLAN))
    if ticks:
        try:
            daemon.stopped(last)
        except sqlite3.Error as error:     # the store failed already (logged above): the exit goes on
            log.debug("the stop is not recorded: %s", error)
    log.info("stopped after %d tick(s)", ticks)
    return 0


def _store_failed(daemon: Daemon, error: sqlite3.Error, told: str | None) -> str:
    """Logged once per kind of failure; every tick tries again and nothing is lost (each write is
    a transaction that rolled back whole)."""
    if str(error) != told:
        log.error("the store %s cannot be written (%s): the games wait; nothing is lost, every tick tries "
                  "again — free disk space or make the file and its folder writable", daemon.store.path, error)
    else:
        log.debug("the store still cannot be written: %s", error)
    return str(error)


def _store_recovered(told: str | None) -> None:
    if told is not None:
        log.info("the store is written again (it had failed: %s)", told)
    return None


def speed_of(clock: Clock) -> float:
    """Game seconds per real second: an accelerated clock (demo, soak bench) sleeps that much less."""
    return getattr(clock, "speed", 1.0)


def configure_logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level.upper()),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # urllib3 logs every request line at DEBUG, query included: phpBB's session id is in it
    logging.getLogger("urllib3").setLevel(max(logging.INFO, logging.getLogger().level))
