"""Shared by the Legends-on-the-local-forum tests: an installation file, players acting over HTTP,
and the daemon hosting the game from the host's account on a fake clock."""
from __future__ import annotations

import contextlib
import json
from datetime import datetime
from pathlib import Path

import pytest

from e2e_support import (HOST_PASSWORD, PASSWORD_ENV,  # noqa: F401  (PASSWORD_ENV: for its users)
                         Seat, write_installation as write_files)
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges
from localforum_support import HOST, MSK, FakeClock, host_forum, msk, thread_url  # noqa: F401  (MSK, msk: its users)

GAME = "legends-e2e"
ROLES = {"Аскон": "Бес", "gosha100": "Мантикора", "Robozik": "Дракон", "Кума": "Единорог"}
ALIASES = {"gosha100": ["гоша"]}
SEED = 7
# the small game of the local forum's tests (tests/conftest.py's `legends_game`)
GAME_KEYS = 'vote_count_every = "3h"\n\n[approval]\nreceipt = false\n'


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


CALENDAR = """[calendar.night]
opens = "21:00"
closes = "10:00"

[calendar.day]
opens = "12:00"
closes = "21:00"
"""


def write_installation(folder: Path, server, extra_game: str = "", roles: dict = ROLES, engine: str = "phpbb",
                       thread: str | None = None, start: str = "2026-03-02T21:00:00", calendar: str = CALENDAR) -> Path:
    """The local forum's thread, or another board's (`server.url` + `thread`) of `engine`."""
    players = players_toml("players", roles)
    game = f'''id = "{GAME}"
type = "legends"
thread_url = "{thread_url(server) if thread is None else server.url + thread}"
seed = {SEED}
time_zone = "Europe/Moscow"
start = {start}
{extra_game}

{players}
{calendar}'''
    return write_files(folder, server.url, "game.toml", game, engine=engine, forum_extra="")


@contextlib.contextmanager
def legends_forum(folder: Path, monkeypatch, extra_game: str = GAME_KEYS, roles: dict = ROLES,
                  spectators: tuple[str, ...] = ()):
    """A small Legends game's local forum over HTTP (its board in a Seat: tests/e2e_support.py's
    hosted_copy can copy the game) with its installation in `folder` for `roles` and the sessions of
    those players and of the spectators: (server, board, clock, config, players)."""
    clock = FakeClock(msk(2, 20))
    board = legends_board(clock, spectators)
    monkeypatch.setenv(PASSWORD_ENV, HOST_PASSWORD)
    with LocalForum(Seat(board)) as server:
        config = write_installation(folder, server, extra_game, roles=roles)
        yield server, board, clock, config, {nick: Player(server, clock, nick) for nick in (*roles, *spectators)}


@contextlib.contextmanager
def legends_hosted(folder: Path, extra_game: str = GAME_KEYS, roles: dict = ROLES, spectators: tuple[str, ...] = ()):
    """legends_forum with the daemon started on it, for a game a session fixture plays once a
    worker: the host's password is in the environment only while the daemon starts (it is read
    then), so no later test of the worker sees it set: (server, board, clock, config, players, daemon)."""
    monkeypatch = pytest.MonkeyPatch()
    with legends_forum(folder, monkeypatch, extra_game, roles, spectators) as (server, board, clock, config, players):
        daemon = start_daemon(config, server, clock)
        monkeypatch.undo()
        try:
            yield server, board, clock, config, players, daemon
        finally:
            daemon.store.close()


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
