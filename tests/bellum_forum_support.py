"""A Bellum game on the local forum hosted by the daemon over real HTTP (tests/test_e2e_bellum.py,
tests/test_bellum_map_paths.py): the installation written into a folder, the board, the players."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from forumgm.daemon.tick.flow import Edges
from localforum_support import FakeClock
from tests.bellum_helpers import SMALL_MAP

MSK = ZoneInfo("Europe/Moscow")
HOST, HOST_PASSWORD = "Ведущий", "host-secret"
GAME = "bellum-e2e"
PUBLIC_URL = "https://gm.example.org/forumgm/"
FACTIONS = {"Аскон": "Западная Римская Империя", "Хан": "Вестготы", "Зорро": "Гунны"}


def msk(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=MSK)


def write_installation(folder, forum_url: str):
    players = "".join(f'[[players]]\nnick = "{nick}"\nrole = "{faction}"\n\n' for nick, faction in FACTIONS.items())
    (folder / "bellum.toml").write_text(f'''id = "{GAME}"
type = "bellum"
thread_url = "{forum_url}viewtopic.php?t=2"
seed = 370
time_zone = "Europe/Moscow"
start = 2026-03-02T12:00:00

{players}[calendar.turn]
duration = "3d"

[approval]
receipt = false

[setup]
scenario = "{SMALL_MAP}"
rolls = 1.0
''', encoding="utf-8")
    (folder / "forumgm.toml").write_text(f'''games = ["bellum.toml"]

[forum]
id = "local"
engine = "phpbb"
base_url = "{forum_url}"
account = "{HOST}"
time_zone = "UTC"
password_env = "FORUMGM_E2E_PASSWORD"
min_interval = 0
posts_per_page = 5

[storage]
path = "forumgm.sqlite"

[web]
password_env = "FORUMGM_E2E_PASSWORD"
public_url = "{PUBLIC_URL}"
''', encoding="utf-8")
    return load_installation(folder / "forumgm.toml")


class Table:
    def __init__(self, folder, monkeypatch):
        self.clock = FakeClock(msk(2, 11))
        board = Board(clock=self.clock.now)
        board.add_user(HOST, HOST_PASSWORD, admin=True)
        for nick in FACTIONS:
            board.add_user(nick, f"{nick}-pw")
        board.add_topic(HOST, "Bellum 2.0: 370 год", "Ход 1 начинается. Приказы — в личку.")
        self.server = LocalForum(board).start()
        monkeypatch.setenv("FORUMGM_E2E_PASSWORD", HOST_PASSWORD)
        self.host = self.session(HOST, HOST_PASSWORD)
        self.restart(write_installation(folder, self.server.url))
        self.players = {nick: self.session(nick, f"{nick}-pw") for nick in FACTIONS}

    def restart(self, installation) -> None:
        """The daemon (started again) on the installation's store, the board's session kept."""
        self.store = Store(installation.storage, now=self.clock.now)
        self.daemon = Daemon(installation, self.store, self.host, self.clock,
                             Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved))

    def session(self, nick: str, password: str):
        config = {"engine": "phpbb", "base_url": self.server.url, "username": nick, "min_interval": 0,
                  "posts_per_page": 5, "time_zone": "UTC"}
        return open_forum(config, password, clock=self.clock.monotonic, sleep=self.clock.sleep, now=self.clock.now)

    def tick(self, moment: datetime) -> None:
        assert moment >= self.clock.now()
        self.clock.moment = moment
        report = self.daemon.tick()
        assert not report.errors, report.errors

    def send(self, moment: datetime, nick: str, text: str) -> None:
        self.clock.moment = moment
        self.players[nick].send_pm(HOST, "Приказ", text)

    def inbox(self, nick: str, subject_part: str) -> list[str]:
        forum = self.players[nick]
        return [m.text for m in (forum.message(h.id) for headers, _ in forum.inbox_pages() for h in headers)
                if subject_part in m.subject and m.sender == HOST]

    def host_posts(self, marker: str) -> list:
        url = f"{self.server.url}viewtopic.php?t=2"
        pages = self.host.thread_page_count(url)
        posts = [p for page in range(1, pages + 1) for p in self.host.thread_page(url, page)[1]]
        return [p for p in posts if p.author == HOST and marker in p.text]
