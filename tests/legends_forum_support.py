"""Shared by the Legends-on-the-local-forum tests: an installation file, players acting over HTTP,
and the daemon hosting the game from the host's account on a fake clock."""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges
from localforum_support import HOST, FakeClock, host_forum, thread_url

MSK = ZoneInfo("Europe/Moscow")
GAME = "legends-e2e"
PASSWORD_ENV = "FORUMGM_E2E_PASSWORD"
HOST_PASSWORD = "host-secret"
ROLES = {"Аскон": "Бес", "gosha100": "Мантикора", "Robozik": "Дракон", "Кума": "Единорог"}
ALIASES = {"gosha100": ["гоша"]}
SEED = 7


def msk(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=MSK)


def legends_board(clock: FakeClock, spectators: tuple[str, ...] = ()) -> Board:
    board = Board(clock=clock.now, attachments=True)      # the record post attaches the game's archive
    board.add_user(HOST, HOST_PASSWORD, admin=True)
    for nick in (*ROLES, *spectators):
        board.add_user(nick, f"{nick}-pw")
    board.add_topic(HOST, "Легенды: партия", "Днём голосуем ником [color=blue]синим[/color].")
    return board


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def players_toml(table: str, roles: dict = ROLES) -> str:
    """The players with their roles and aliases as [[<table>]] entries (a game config or a scenario)."""
    return "\n".join(f"[[{table}]]\nnick = {toml_string(nick)}\nrole = {toml_string(role)}\n"
                     f"aliases = {json.dumps(ALIASES.get(nick, []), ensure_ascii=False)}\n"
                     for nick, role in roles.items())


def write_installation(folder: Path, server, extra_game: str = "", roles: dict = ROLES, engine: str = "phpbb",
                       thread: str | None = None, start: str = "2026-03-02T21:00:00") -> Path:
    """The local forum's thread, or another board's (`server.url` + `thread`) of `engine`."""
    players = players_toml("players", roles)
    (folder / "game.toml").write_text(f'''id = "{GAME}"
type = "legends"
thread_url = "{thread_url(server) if thread is None else server.url + thread}"
seed = {SEED}
time_zone = "Europe/Moscow"
start = {start}
{extra_game}

{players}
[calendar.night]
opens = "21:00"
closes = "10:00"

[calendar.day]
opens = "12:00"
closes = "21:00"
''', encoding="utf-8")
    config = folder / "forumgm.toml"
    config.write_text(f'''games = ["game.toml"]

[forum]
id = "local"
engine = "{engine}"
base_url = "{server.url}"
account = "{HOST}"
password_env = "{PASSWORD_ENV}"
time_zone = "UTC"
posts_per_page = 5

[storage]
path = "forumgm.sqlite"
''', encoding="utf-8")
    return config


def start_daemon(config: Path, server: LocalForum, clock: FakeClock, publish: bool = False) -> Daemon:
    """A freshly started daemon process on the installation's SQLite file."""
    from forumgm.daemon.drafts.publish import publish_approved
    from forumgm.daemon.tick.sync import sync_game, sync_inbox

    installation = load_installation(config)
    edges = Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved if publish else None)
    return Daemon(installation, Store(installation.storage, now=clock.now), host_forum(server, clock, HOST_PASSWORD),
                  clock, edges)


class Player:
    """A player's own browser session on the local forum: posts and PMs go over HTTP."""

    def __init__(self, server: LocalForum, clock: FakeClock, nick: str):
        self.nick = nick
        self.forum = open_forum({"engine": "phpbb", "base_url": server.url, "username": nick, "posts_per_page": 5},
                                f"{nick}-pw", clock=clock.monotonic, sleep=clock.sleep)
        self.thread = thread_url(server)

    def post(self, bbcode: str) -> str:
        return self.forum.reply(self.thread, bbcode)

    def pm(self, subject: str, text: str) -> str:
        return self.forum.send_pm(HOST, subject, text)


def tick_at(daemon: Daemon, clock: FakeClock, moment: datetime):
    """One tick at `moment` that must meet no error; its report."""
    clock.moment = moment
    report = daemon.tick()
    assert report.errors == []
    return report


def requests_of(daemon: Daemon, clock: FakeClock, moment: datetime) -> int:
    """The forum requests of one tick at `moment`."""
    before = daemon.forum.client.requests_made
    tick_at(daemon, clock, moment)
    return daemon.forum.client.requests_made - before
