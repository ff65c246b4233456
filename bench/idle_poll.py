"""What an idle poll costs the forum (run by hand): requests and daemon CPU per tick, with the PM
inbox read at every poll (as before, and as on a board whose pages count no unread PMs) and read
only when the thread page counts one (now; plus the periodic whole read every 30 minutes).

    python bench/idle_poll.py                                  the local forum (a child process)
    FORUMGM_BENCH_PASSWORD=... FORUMGM_BENCH_PLAYER=NICK:PASSWORD \
        python bench/idle_poll.py ENGINE BASE_URL THREAD_URL ACCOUNT     a real board, as ACCOUNT (its host)

One Legends game (4 players, nobody acting) is hosted by the daemon's own tick; nothing is posted
(no publishing step). 13 ticks 10 game minutes apart each way, after a first tick that logs in and
reads everything; the polite 1 s between requests is kept on a real board. Then a player sends the
host a PM (the next tick reads it), and another that the host opens in his browser before the
daemon polls (found by the periodic whole read, at most 30 minutes later).
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.errors import Accepted
from forumgm.daemon.offline.localforum import Board
from forumgm.daemon.offline.localforum.board import system_clock
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from forumgm.daemon.tick.flow import Edges

from measure import ForumProcess, machine

PASSWORD_ENV = "FORUMGM_BENCH_PASSWORD"
PLAYER_ENV = "FORUMGM_BENCH_PLAYER"       # NICK:PASSWORD of a player account on a real board
PLAYERS = ("Аскон", "Robozik", "Кума", "Ильмаринен")
MSK = ZoneInfo("Europe/Moscow")
TICKS, EVERY = 13, timedelta(minutes=10)


class GameClock:
    """The daemon's game time, moved by the bench between ticks (the HTTP client keeps real time)."""

    def __init__(self, moment: datetime):
        self.moment = moment

    def now(self) -> datetime:
        return self.moment


def write_config(folder: Path, engine: str, base_url: str, thread_url: str, account: str, pause: float) -> Path:
    """The game's night 1 opened an hour ago (real time: the boards date their posts so) and ends in 12 hours."""
    opened = datetime.now(MSK).replace(second=0, microsecond=0) - timedelta(hours=1)
    players = "".join(f'[[players]]\nnick = "{nick}"\nrole = "{role}"\n'
                      for nick, role in zip(PLAYERS, ("Бес", "Мантикора", "Дракон", "Единорог")))
    (folder / "game.toml").write_text(f'''id = "idle-poll"
type = "legends"
thread_url = "{thread_url}"
seed = 7
time_zone = "Europe/Moscow"
start = {opened.strftime("%Y-%m-%dT%H:%M:00")}

{players}
[calendar.night]
opens = "{opened:%H:%M}"
closes = "{opened + timedelta(hours=13):%H:%M}"

[calendar.day]
opens = "{opened + timedelta(hours=14):%H:%M}"
closes = "{opened + timedelta(hours=20):%H:%M}"
''', encoding="utf-8")
    (folder / "forumgm.toml").write_text(f'''games = ["game.toml"]

[forum]
id = "bench"
engine = "{engine}"
base_url = "{base_url}"
account = "{account}"
password_env = "{PASSWORD_ENV}"
time_zone = "UTC"
min_interval = {pause}

[storage]
path = "forumgm.sqlite"
''', encoding="utf-8")
    return folder / "forumgm.toml"


def idle_ticks(config: Path, password: str, by_count: bool,
               player: tuple[str, str] | None = None) -> list[tuple[int, float]]:
    """(requests, CPU seconds) of each idle tick after the first; then, with a `player` (nick,
    password), what the ticks after his PMs cost and find."""
    installation = load_installation(config)
    clock = GameClock(datetime.now(timezone.utc))
    forum = open_forum(installation.forum, password)
    if not by_count:
        forum.unread_pms = lambda html: None       # the count unread: the inbox at every poll, as before
    daemon = Daemon(installation, Store(installation.storage, now=clock.now), forum, clock,
                    Edges(sync_game=sync_game, sync_inbox=sync_inbox))
    daemon.tick()
    costs = []
    for _ in range(TICKS):
        clock.moment += EVERY
        requests, cpu = forum.client.requests_made, time.process_time()
        report = daemon.tick()
        if report.errors:
            raise SystemExit(f"the tick failed: {report.errors}")
        costs.append((forum.client.requests_made - requests, time.process_time() - cpu))
    if player is not None:
        pm_flow(daemon, clock, installation.forum, password, player)
    daemon.store.close()
    return costs


def pm_flow(daemon: Daemon, clock: GameClock, board, password: str, player: tuple[str, str]) -> None:
    """A PM the page counts, and one the host opens in his browser before the daemon polls."""
    nick, player_password = player
    forum = daemon.forum
    if not getattr(forum, "pm_supported", True):
        print("  the board has no private messages (FluxBB): no PM to send")
        return
    sender = open_forum({**_settings(board), "username": nick}, player_password)

    def tick() -> tuple[int, int]:
        clock.moment += EVERY
        requests = forum.client.requests_made
        if daemon.tick().errors:
            raise SystemExit("the tick failed")
        return forum.client.requests_made - requests, len(daemon.store.pms(daemon.installation.forum.id))

    stored = len(daemon.store.pms(daemon.installation.forum.id))
    send(sender, board, "Ночь", "Шпионаж Кума")
    print(f"  a PM arrives: the next tick {tick()} (requests, PMs stored; {stored} before)")
    send(sender, board, "Ночь", "Шпионаж Дракон")
    browser = open_forum(_settings(board), password)
    headers, _ = next(browser.inbox_pages())
    browser.message(headers[0].id)         # the host opens it on the board
    print(f"  a PM opened in the host's browser first: the next ticks {[tick() for _ in range(3)]}")


def _settings(board) -> dict:
    """The player's and the browser's sessions keep the daemon's pause between requests."""
    return {"engine": board.engine, "base_url": board.base_url, "username": board.account, "time_zone": "UTC",
            "min_interval": board.min_interval}


def send(sender, board, subject: str, text: str) -> None:
    """A player's PM to the host; a board that does not name the PM it took (MyBB, SMF) took it all the same."""
    try:
        sender.send_pm(board.account, subject, text)
    except Accepted:
        pass


def local_board() -> Board:
    """A thread of 61 posts from two days ago."""
    board = Board(clock=lambda: datetime.now(timezone.utc) - timedelta(days=2), posts_per_page=20)
    board.add_user("Ведущий", "host-secret", admin=True)
    for nick in PLAYERS:
        board.add_user(nick, "pw")
    board.add_topic("Ведущий", "Легенды: партия", "Ночью приказы в личку.")
    for n in range(60):
        board.reply(PLAYERS[n % 4], 2, f"Сообщение {n}: обсуждаем.")
    board.clock = system_clock      # built: log-in forms are timed in real time
    return board


def report(where: str, folder: Path, board: tuple[str, str, str, str, float], password: str,
           player: tuple[str, str]) -> None:
    print(f"{where}; {machine()}; load {os.getloadavg()[0]:.1f}")
    os.environ[PASSWORD_ENV] = password
    for by_count in (False, True):
        run = folder / ("count" if by_count else "every")     # a store of its own
        run.mkdir()
        costs = idle_ticks(write_config(run, *board), password, by_count, player if by_count else None)
        requests = [r for r, _ in costs]
        cpu = sorted(c for _, c in costs)
        print(f"  inbox {'by the page count' if by_count else 'at every poll     '}: "
              f"{sum(requests) / len(requests):.2f} requests a tick {requests}, "
              f"median CPU {cpu[len(cpu) // 2] * 1000:.1f} ms")


def main(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        if argv:
            engine, base_url, thread_url, account = argv
            nick, player_password = os.environ[PLAYER_ENV].split(":", 1)
            report(f"{engine} at {base_url}", Path(folder), (engine, base_url, thread_url, account, 1.0),
                   os.environ[PASSWORD_ENV], (nick, player_password))
            return
        with ForumProcess(local_board) as server:
            report("the local forum", Path(folder),
                   ("phpbb", server.url, server.url + "viewtopic.php?t=2", "Ведущий", 0.0), "host-secret",
                   ("Аскон", "pw"))


if __name__ == "__main__":
    main(sys.argv[1:])
