"""A Bellum turn on the local forum over real HTTP, hosted by the daemon: orders by PM, a
receipt for each, the turn ending early once everyone is ready, the reports and the players'
PMs approved by the host and posted once."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from forumgm.daemon.tick.flow import Edges
from forumgm.daemon.web import create_app
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
        installation = write_installation(folder, self.server.url)
        self.store = Store(installation.storage, now=self.clock.now)
        self.host = self.session(HOST, HOST_PASSWORD)
        self.daemon = Daemon(installation, self.store, self.host, self.clock,
                             Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved))
        self.players = {nick: self.session(nick, f"{nick}-pw") for nick in FACTIONS}

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


@pytest.fixture
def table(tmp_path, monkeypatch):
    table = Table(tmp_path, monkeypatch)
    yield table
    table.store.close()
    table.server.stop()


def test_a_turn_played_through_the_forum(table):
    table.tick(msk(2, 12))                                   # dealt: turn 1 opens, deadline in 3 days
    [turn] = table.store.phases(GAME)
    assert turn["key"] == "turn-1" and turn["status"] == "pending"

    table.send(msk(2, 13), "Хан", "3 из Паннонии в Норик, атакуя ЗРИ\n2 из Паннонии в Италию")
    table.send(msk(2, 14), "Аскон", "Норик: встретить боем всех\n1 из Италии в Германию\nход готов")
    table.send(msk(2, 15), "Зорро", "4 аланов из Сарматии в Дакию, атакуя остготов\nход готов")
    table.tick(msk(2, 16))                                   # receipts go out at once
    [khan] = table.inbox("Хан", "Re: Приказ")
    assert "• 3 из Паннонии в Норик, атакуя Западную Римскую Империю" in khan
    assert "«2 из Паннонии в Италию» — Италия не граничит с Паннонией" in khan
    [askon] = table.inbox("Аскон", "Re: Приказ")
    assert "«1 из Италии в Германию» — Германия не граничит с Италией" in askon
    assert table.store.phase(GAME, "turn-1")["status"] == "pending"      # Хан is not ready yet

    # the last PM replaces the earlier orders for the same people, and Хан is ready: the turn
    # resolves at the next tick, days before its deadline
    table.send(msk(2, 17), "Хан", "5 из Паннонии в Норик, атакуя ЗРИ\nход готов")
    table.tick(msk(2, 18))
    assert any("5 из Паннонии в Норик, атакуя Западную Римскую Империю (заменяет прежний приказ)" in receipt
               for receipt in table.inbox("Хан", "Re: Приказ"))
    assert table.store.phase(GAME, "turn-1")["status"] == "resolved"
    assert table.store.phase(GAME, "turn-2")["status"] == "pending"

    pending = table.store.drafts(status="pending")
    # the commitment posted at the deal waits for the host too
    assert sorted(d["kind"] for d in pending) == ["commitment", "literary_report", "technical_report", "turn_pm",
                                                  "turn_pm", "turn_pm"]
    # the turn report carries the map: its files, and the mark in its text where the post shows it
    [report] = [d for d in pending if d["kind"] == "literary_report"]
    pictures = [Path(name) for name in report["pictures"]]
    assert [p.name for p in pictures] == ["map.png", "map.svg"]
    assert pictures[0].read_bytes().startswith(b"\x89PNG") and b"<text" in pictures[1].read_bytes()
    assert report["body"].rstrip().endswith("[карта]")
    assert all(not d["pictures"] for d in pending if d["id"] != report["id"])
    web = create_app(table.store, "a-long-web-password").test_client()
    picture_url = f"/maps/{GAME}/{report['id']}/0"
    assert web.get(picture_url).status_code == 404           # not public before the host approves it
    for draft in pending:
        table.store.approve(draft["id"], by="host")
    table.tick(msk(2, 19))
    table.tick(msk(2, 20))                                   # nothing is posted twice
    [technical] = table.host_posts("Ход 1 (370 г.): технический отчёт")
    assert "Норик (бой): Западная Римская Империя (2 чел. × 2 × 1 = 4)" in technical.text
    assert "Вестготы (5 чел. × 1 = 5)" in technical.text and "Победа: Вестготы." in technical.text
    assert "Западная Римская Империя: 2 человека отступили: Норик → Венетия" in technical.text
    [posted] = [p.bbcode for p in table.server.board.visible_posts(2) if "[img]" in p.bbcode]
    assert posted.startswith("[b]370–374 годы[/b]") and "[карта]" not in posted
    assert posted.rstrip().endswith(f"[img]{PUBLIC_URL.rstrip('/')}{picture_url}[/img]\n"
                                    f"[url={PUBLIC_URL.rstrip('/')}/maps/{GAME}/{report['id']}/1]SVG[/url]")
    served = web.get(picture_url)                            # what the forum's readers load
    assert served.status_code == 200 and served.mimetype == "image/png"
    assert served.data == pictures[0].read_bytes()
    [literary] = table.host_posts("370–374 годы")
    # a war between players is told with both sides declined: «…победу Вестготам: войско Западной Римской Империи…»
    assert any("Норик" in line and "Вестгот" in line and "Западной Римской Империи" in line
               for line in literary.text.splitlines())
    [own] = table.inbox("Аскон", "Bellum: итоги хода 1")
    assert "Венетия — 5" in own and "Норик (бой)" in own
    [zorro] = table.inbox("Зорро", "Bellum: итоги хода 1")
    assert "[b]" not in zorro and "Аланы" in zorro and "Дакия (бой)" in zorro
    state = table.store.latest_snapshot(GAME)["state"]
    assert state["people"]["noricum"] == {"vestgoty": 5}
