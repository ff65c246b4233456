"""A game hosted by the daemon on the local forum, on a fast clock: what `forumgm demo` and
`forumgm rehearse` share.

The local forum runs over real HTTP; the daemon logs in to it with the host's account like on any
phpBB board, syncs the thread and the inbox, resolves the phases at their deadlines and drafts
every text; the host's page is served beside it. A `Script` says what the players do and where the
clock waits: at each of its stops the clock stands still until the daemon has ticked, so however
long a tick takes against the fast clock, every act happens at its own game time and is read
before the deadline after it resolves.
"""
from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable, Protocol, TextIO
from zoneinfo import ZoneInfo

from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.daemon.tick.clock import FastClock

HOST = "Ведущий"
PASSWORD_ENV = "FORUMGM_DEMO_PASSWORD"
FINAL_TICKS = 4


@dataclass(frozen=True)
class RealTime:
    """The real seconds a run waits in: the fast clock's pace, the forum client's pauses (its
    polite interval, a form's minimum age), the board's ages of the forms it hands out and the
    run's own polls. The tests give one whose sleeps only count, so a rehearsal plays in the CPU
    time it needs."""
    monotonic: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    epoch: Callable[[], float] = time.time     # the board's form clock (players' browsers are real)


REAL = RealTime()


class Script(Protocol):
    """The players' side of a hosted game."""

    def act(self, board: Board, store, now: datetime) -> list[str]:
        """Do what is due by `now`; a line for the run's story per act."""

    def next_stop(self, store, grace: timedelta) -> datetime | None:
        """Where the clock waits for the next tick; None: nothing more to wait for."""

    def over(self, store) -> str | None:
        """Why the run ends now (its game is over, its phase cap is reached), or None."""


@dataclass
class Hosted:
    """What a run hosts, once started; `close()` stops it all."""
    server: LocalForum
    clock: FastClock
    installation: object
    store: object
    daemon: object
    page: object
    page_store: object
    config: Path
    web_password: str
    web_password_file: Path
    real: RealTime = REAL

    def close(self) -> None:
        self.page.shutdown()
        self.page.server_close()
        self.page_store.close()
        self.store.close()
        self.server.stop()


class Refused(ValueError):
    """The run cannot play as asked (the message says why); nothing was opened."""


ConfigWriter = Callable[[Path, str, int, Path], Path]     # (folder, forum url, web port, password file) → config


def fast_clock(start: datetime, speed: float, real: RealTime = REAL) -> FastClock:
    """Game time `speed` times faster than real time from `start`; it stands there until the first
    tick holds it at the script's next stop."""
    clock = FastClock(start, speed, monotonic=real.monotonic)
    clock.hold(start)
    return clock


def host(board: Board, clock: FastClock, folder: Path, write_config: ConfigWriter, port: int = 0,
         web_port: int = 0, host_password: str = "",
         refuse: Callable[[object], str | None] = lambda installation: None, real: RealTime = REAL) -> Hosted:
    """Serve `board`, write the run's config in `folder`, open its store, daemon and page. `refuse`
    reads the run's installation first: a reason it returns is raised as Refused, before any store
    is written."""
    from forumgm.daemon.forum import open_forum
    from forumgm.daemon.runtime.loop import Daemon
    from forumgm.daemon.settings.installation import load_installation
    from forumgm.daemon.settings.secrets import load_secrets
    from forumgm.daemon.store import Store
    from forumgm.daemon.web.server import web_server

    folder.mkdir(parents=True, exist_ok=True)
    web_password, web_password_file = write_web_password(folder)
    os.environ[PASSWORD_ENV] = host_password
    server = LocalForum(board, port=port).start()
    try:
        config = write_config(folder, server.url, web_port or free_port(), web_password_file)
        installation = load_installation(config)
        problem = refuse(installation)
        if problem:
            raise Refused(problem)
        store = Store(installation.storage, now=clock.now)
        forum = open_forum(installation.forum, load_secrets(installation.forum), clock=real.monotonic, sleep=real.sleep)
        daemon = Daemon(installation, store, forum, clock)
        # the page has its own connection to the store: it answers in its own thread
        page_store = Store(installation.storage, now=clock.now)
        page = web_server(page_store, web_password, installation.web_host, installation.web_port,
                          games=lambda: {game.id: game for game in daemon.games}, quiet=True)
    except BaseException:
        server.stop()
        raise
    threading.Thread(target=page.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True).start()
    return Hosted(server, clock, installation, store, daemon, page, page_store, config, web_password,
                  web_password_file, real)


def run_hosted(hosted: Hosted, script: Script, auto_approve: bool, out: TextIO, zone: ZoneInfo, poll: float,
         duration: float = float("inf"), who: str = "demo") -> str:
    """Tick the daemon at each of the script's stops until the script says the run is over (its
    reason is returned) or `duration` real seconds have passed ("")."""
    clock, store, daemon = hosted.clock, hosted.store, hosted.daemon
    ends = hosted.real.monotonic() + duration
    last_tick = None
    why = script.over(store)
    while hosted.real.monotonic() < ends and not why:
        for line in script.act(hosted.server.board, store, clock.now()):
            print(f"{at(clock, zone)} {line}", file=out)
        last_tick = clock.now()
        report = daemon.tick()
        for line in report.resolved:
            print(f"{at(clock, zone)} resolved {line}", file=out)
        for line in report.errors:
            print(f"{at(clock, zone)} problem: {line}", file=out)
        if auto_approve:
            approve_all(store, who)
        stop = script.next_stop(store, daemon.polling.grace)
        clock.hold(stop or clock.now())     # nothing left to wait for (the game is over): it stays
        # the run ticks every `poll` real seconds, whatever the schedule would say: `status` tells so
        ahead = clock.now() + timedelta(seconds=poll * clock.speed)
        daemon.keep_plan(last_tick, ahead if stop is None else min(ahead, stop),
                         f"the {who} reads the forum every {poll:g} s")
        hosted.real.sleep(poll)
        why = script.over(store)
    # what the last resolution drafted goes out too, and what its posting drafts in turn (the
    # game's record once its end is posted): a few ticks at most
    for _ in range(FINAL_TICKS if auto_approve else 0):
        if not (store.drafts(status="pending") or store.drafts(status="approved")):
            break
        approve_all(store, who)
        last_tick = clock.now()
        daemon.tick()
    if last_tick is not None:     # `forumgm status` on its config says the run's daemon stopped
        daemon.stopped(last_tick, f"the {who} is over")
    return why or ""


def print_page(hosted: Hosted, out: TextIO, who: str) -> None:
    print(f"host's page: http://{hosted.installation.web_host}:{hosted.page.server_port}/  password: "
          f"{hosted.web_password}  (this {who}'s own; approve drafts there while it runs)", file=out)


def at(clock: FastClock, zone: ZoneInfo) -> str:
    """The game time as a run's lines show it: in the game's zone, like its calendar."""
    return f"[{clock.now().astimezone(zone):%d.%m %H:%M}]"


def approve_all(store, who: str) -> None:
    for draft in store.drafts(status="pending"):
        store.approve(draft["id"], by=f"{who} --auto-approve")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write_web_password(folder: Path) -> tuple[str, Path]:
    """A password for this run's page, in an owner-only file the run's config names."""
    password = secrets.token_urlsafe(12)
    path = folder / "web-password"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(password + "\n")
    return password, path


def forum_config(forum_url: str, web_port: int, web_password_file: Path, games: list[str], forum_id: str) -> str:
    """The installation config of a run: its games on the local forum as the host's account."""
    listed = ", ".join(f'"{game}"' for game in games)
    return f'''games = [{listed}]

[forum]
id = "{forum_id}"
engine = "phpbb"
base_url = "{forum_url}"
account = "{HOST}"
time_zone = "UTC"
password_env = "{PASSWORD_ENV}"
min_interval = 0.2
posts_per_page = 5

[storage]
path = "forumgm.sqlite"

[daemon]
poll_interval = 2
log_level = "WARNING"

[web]
host = "127.0.0.1"
port = {web_port}
password_file = "{web_password_file}"
'''
