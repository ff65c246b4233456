"""A game hosted by the real daemon on the local forum over real HTTP, all on one fake clock: the
board with the host's and the players' accounts, the installation's files, the daemon, and one HTTP
session per player. The test_e2e_*.py games build their tables on it, and the tests that reuse
their games take those tables (or a copy of one played once a worker: LocalGame.copy)."""
from __future__ import annotations

import shutil
import sqlite3
from copy import copy as shallow_copy, deepcopy
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable

from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import Installation
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from localforum_support import HOST, FakeClock

HOST_PASSWORD = "host-secret"
PASSWORD_ENV = "FORUMGM_E2E_PASSWORD"


def write_installation(folder: Path, forum_url: str, game_file: str, game: str, engine: str = "phpbb",
                       forum_extra: str = "min_interval = 0\n", more: str = "") -> Path:
    """The game's file, and the installation naming it: the board at `forum_url` with the host's
    account, 5 posts a page, the store beside them. `forum_extra` ends the [forum] table (no polite
    pause by default: the e2e games run on a clock only the client's pauses move); `more`, the file."""
    (folder / game_file).write_text(game, encoding="utf-8")
    config = folder / "forumgm.toml"
    config.write_text(f'''games = ["{game_file}"]

[forum]
id = "local"
engine = "{engine}"
base_url = "{forum_url}"
account = "{HOST}"
password_env = "{PASSWORD_ENV}"
time_zone = "UTC"
posts_per_page = 5
{forum_extra}
[storage]
path = "forumgm.sqlite"
{more}''', encoding="utf-8")
    return config


def copy_store(source: Path, target: Path) -> None:
    """The store at `source` copied whole to `target` (SQLite's backup: consistent while it is open)."""
    read, written = sqlite3.connect(source), sqlite3.connect(target)
    read.backup(written)
    read.close()
    written.close()


class Seat:
    """The board a LocalForum serves, standing for whichever Board sits in it: a copy of a played
    game (hosted_copy) takes the seat, so that it is served at the address its store and its
    installation's files name."""

    def __init__(self, board: Board):
        self.take(board)

    def take(self, board: Board) -> None:
        object.__setattr__(self, "sitting", board)

    def __getattr__(self, name: str):
        return getattr(self.sitting, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self.sitting, name, value)


def hosted_copy(server: LocalForum, board: Board, daemon: Daemon, folder: Path, monkeypatch, *sessions) -> tuple:
    """A copy of a game the daemon hosts on `board`, for one test to go on with, leaving the game as
    it is: the board, the daemon's clock and forum session and `sessions` (forum clients, or dicts of
    them) copied with their cookies, pacing and what they have read, all on the copied clock; the
    copied board takes the seat of `server`, at the address the game's store and files name (one
    copy of a game is served at a time: the test's); the installation's files copied to `folder`
    and its store beside them (by SQLite's backup); the daemon started again on them, as after a
    restart but for the flood pause it last saw: (daemon, board, *sessions)."""
    clock, board, forum, *sessions = deepcopy((daemon.clock, board, daemon.forum, *sessions))
    server.board.take(board)
    config = daemon.installation.source
    shutil.copytree(config.parent, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.sqlite", "*.sqlite-*"))
    monkeypatch.setenv(PASSWORD_ENV, HOST_PASSWORD)
    installation = load_installation(folder / config.name)
    copy_store(daemon.installation.storage, installation.storage)
    copied = Daemon(installation, Store(installation.storage, now=clock.now), forum, clock, daemon.edges)
    copied.drafts_held = daemon.drafts_held
    return (copied, board, *sessions)


class LocalGame:
    """The board, the daemon and one HTTP session per player, on one clock. `installation` writes
    the installation's files for the board's address (`config`: its file); a player's password is
    '<nick>-pw'; `attachments`: the board takes files attached to posts."""

    def __init__(self, folder: Path, monkeypatch, players: Iterable[str], topic: tuple[str, str], start: datetime,
                 installation: Callable[[str], Path], attachments: bool = False):
        self.clock = FakeClock(start)
        board = Board(clock=self.clock.now, attachments=attachments)
        board.add_user(HOST, HOST_PASSWORD, admin=True)
        for nick in players:
            board.add_user(nick, f"{nick}-pw")
        board.add_topic(HOST, *topic)
        self.board = board
        self.server = LocalForum(Seat(board)).start()
        self.owns_server = True
        monkeypatch.setenv(PASSWORD_ENV, HOST_PASSWORD)
        self.config = installation(self.server.url)
        loaded = load_installation(self.config)
        self.host = open_forum(loaded.forum, HOST_PASSWORD, clock=self.clock.monotonic, sleep=self.clock.sleep,
                               now=self.clock.now)      # as `forumgm run` opens it, from [forum]
        self.restart(loaded)
        self.players = {nick: self.session(nick) for nick in players}

    def restart(self, installation: Installation) -> None:
        """The daemon (started again) on the installation's store, the board's session kept."""
        self.store = Store(installation.storage, now=self.clock.now)
        self.daemon = Daemon(installation, self.store, self.host, self.clock,
                             Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved))

    def copy(self, folder: Path, monkeypatch) -> "LocalGame":
        """The game as it stands, for one test to go on with, leaving this one as it is
        (hosted_copy); the copy's close() leaves the server running."""
        played = shallow_copy(self)
        played.daemon, played.board, played.players = hosted_copy(self.server, self.board, self.daemon, folder,
                                                                  monkeypatch, self.players)
        played.clock, played.host, played.store = played.daemon.clock, played.daemon.forum, played.daemon.store
        played.config = played.daemon.installation.source
        played.owns_server = False
        return played

    def session(self, nick: str, password: str | None = None):
        config = {"engine": "phpbb", "base_url": self.server.url, "username": nick, "min_interval": 0,
                  "posts_per_page": 5, "time_zone": "UTC"}
        return open_forum(config, password or f"{nick}-pw", clock=self.clock.monotonic, sleep=self.clock.sleep,
                          now=self.clock.now)

    def close(self) -> None:
        self.store.close()
        if self.owns_server:
            self.server.stop()

    # -- the script ---------------------------------------------------------------------------
    def at(self, moment: datetime) -> None:
        assert moment >= self.clock.now(), "the script only moves forward"
        self.clock.moment = moment

    def tick(self, moment: datetime) -> None:
        self.at(moment)
        report = self.daemon.tick()
        assert not report.errors, report.errors

    def pm(self, moment: datetime, nick: str, subject: str, text: str) -> None:
        """Sent at `moment`, which may be one the client's pauses after the last PM already passed."""
        self.clock.moment = moment
        self.players[nick].send_pm(HOST, subject, text)

    def approve(self, but: tuple[str, ...] = ()) -> list[dict]:
        """The host approves every pending draft but those of the kinds `but`; the approved ones."""
        approved = [d for d in self.store.drafts(status="pending") if d["kind"] not in but]
        for draft in approved:
            self.store.approve(draft["id"], by="host")
        return approved

    # -- what the forum shows -----------------------------------------------------------------
    def inbox(self, nick: str) -> list:
        forum = self.players[nick]
        return [forum.message(header.id) for headers, _ in forum.inbox_pages() for header in headers]

    def received(self, nick: str, subject_part: str) -> list[str]:
        """The texts of the host's PMs to `nick` whose subject holds `subject_part`."""
        return [m.text for m in self.inbox(nick) if subject_part in m.subject and m.sender == HOST]

    def thread(self) -> list:
        url = f"{self.server.url}viewtopic.php?t=2"
        pages = self.host.thread_page_count(url)
        return [post for page in range(1, pages + 1) for post in self.host.thread_page(url, page)[1]]

    def host_posts(self, marker: str = "") -> list:
        return [p for p in self.thread() if p.author == HOST and marker in p.text]
