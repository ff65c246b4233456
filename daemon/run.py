"""The daemon: wiring from an installation config, and the loop that ticks every poll interval.

`schedule` wakes the loop; SIGTERM/SIGINT set a flag that is checked between ticks, so the
tick in progress finishes (its transactions commit or roll back whole) and the process exits 0.
"""
from __future__ import annotations

import logging
import signal
import threading
from dataclasses import dataclass
from typing import Any, Callable

import schedule as scheduler

from forumgm.config import load_texts
from forumgm.daemon.clock import Clock
from forumgm.daemon.config import Installation
from forumgm.daemon.forum.permalink import post_url_builder
from forumgm.daemon.games import rules_for
from forumgm.daemon.host_actions.replace import current_players, with_replacements
from forumgm.daemon.rules_freeze import runnable
from forumgm.daemon.store import Store
from forumgm.daemon.tick import Edges, GameRun, TickReport, tick

log = logging.getLogger(__name__)


@dataclass
class Daemon:
    installation: Installation
    store: Store
    forum: Any
    clock: Clock
    edges: Edges | None = None

    def __post_init__(self) -> None:
        register(self.store, self.installation)
        self.games = runnable(game_runs(self.installation, self.store), self.store)   # a frozen-rules refusal stops a game

    def tick(self) -> TickReport:
        return tick(self.clock.now(), self.forum, self.store, self.games, self.edges)


def game_runs(installation: Installation, store: Store) -> list[GameRun]:
    """The configured games with the players the host has replaced since (forumgm replace)."""
    forum = installation.forum
    return with_replacements([GameRun(game, rules_for(game.type, game.rules), forum.id, load_texts(game.templates),
                                      account=forum.account, post_url=post_url_builder(forum, game.thread_url),
                                      web_url=installation.web_public_url)
                              for game in installation.games], store)


def register(store: Store, installation: Installation) -> None:
    """The store's copy of the forum and games, refreshed from the config at every start."""
    forum = installation.forum
    store.register_forum(forum.id, forum.engine, forum.base_url, forum.account)
    for game in installation.games:
        store.register_game(game.id, game.type, forum.id, game.thread_url, game.time_zone.key, game.seed,
                            {p.nick: p.aliases for p in current_players(game, store)})


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


def run_loop(daemon: Daemon, poll_interval: float, stop: StopFlag,
             max_ticks: int | None = None, sleep: Callable[[float], None] | None = None) -> int:
    """Tick at once, then every poll interval, until stopped (or after `max_ticks`)."""
    jobs = scheduler.Scheduler()
    ticks = 0

    def job() -> None:
        nonlocal ticks
        try:
            daemon.tick()
        except Exception:   # the daemon keeps running; the next tick retries from the store
            log.exception("tick failed")
        ticks += 1

    jobs.every(poll_interval).seconds.do(job)
    jobs.run_all()
    wait = sleep or stop.wait
    while not stop.stopped and (max_ticks is None or ticks < max_ticks):
        wait(max(0.0, min(jobs.idle_seconds or poll_interval, poll_interval)))
        if not stop.stopped:
            jobs.run_pending()
    log.info("stopped after %d tick(s)", ticks)
    return 0


def configure_logging(level: str) -> None:
    logging.basicConfig(level=getattr(logging, level.upper()),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # urllib3 logs every request line at DEBUG, query included: phpBB's session id is in it
    logging.getLogger("urllib3").setLevel(max(logging.INFO, logging.getLogger().level))
