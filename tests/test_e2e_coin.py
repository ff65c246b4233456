"""«Монетка», a game that lives outside forumgm (tests/games/coin_game) and is registered only as a
third party would register it, played through the real daemon on the local forum over real HTTP:
guesses by PM, receipts, the toss report drafted, approved by the host and published in the thread,
the game ended by its own rules. Nothing in daemon/ names it (tests/test_daemon_agnostic.py)."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from coin_support import coin_registered  # noqa: F401  (the fixture)
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from localforum_support import FakeClock

MSK = ZoneInfo("Europe/Moscow")
HOST, HOST_PASSWORD = "Ведущий", "host-secret"
GAME = "coin-e2e"
PLAYERS = ("Аскон", "Хан", "Лиса", "Бук")


def msk(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=MSK)


def write_installation(folder, forum_url: str, rules: str = ""):
    players = "".join(f'[[players]]\nnick = "{nick}"\n\n' for nick in PLAYERS)
    (folder / "coin.toml").write_text(f'''id = "{GAME}"
type = "coin"
thread_url = "{forum_url}viewtopic.php?t=2"
seed = 11
time_zone = "Europe/Moscow"
start = 2026-03-02T12:00:00

{players}[calendar.toss]
opens = "12:00"
closes = "20:00"

[approval]
receipt = false
{rules}''', encoding="utf-8")
    (folder / "forumgm.toml").write_text(f'''games = ["coin.toml"]

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
''', encoding="utf-8")
    return load_installation(folder / "forumgm.toml")


class Table:
    """The board, the daemon and one HTTP session per player, on one clock."""

    def __init__(self, folder, monkeypatch):
        self.clock = FakeClock(msk(2, 11))
        board = Board(clock=self.clock.now)
        board.add_user(HOST, HOST_PASSWORD, admin=True)
        for nick in PLAYERS:
            board.add_user(nick, f"{nick}-pw")
        board.add_topic(HOST, "Монетка", "Угадывайте, как ляжет монета: «орёл» или «решка» в личку.")
        self.server = LocalForum(board).start()
        monkeypatch.setenv("FORUMGM_E2E_PASSWORD", HOST_PASSWORD)
        installation = write_installation(folder, self.server.url)
        self.store = Store(installation.storage, now=self.clock.now)
        host = open_forum(installation.forum, HOST_PASSWORD, clock=self.clock.monotonic, sleep=self.clock.sleep,
                          now=self.clock.now)
        self.host = host
        self.daemon = Daemon(installation, self.store, host, self.clock,
                             Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved))
        self.players = {nick: self.session(nick) for nick in PLAYERS}

    def session(self, nick: str):
        config = {"engine": "phpbb", "base_url": self.server.url, "username": nick, "min_interval": 0,
                  "posts_per_page": 5, "time_zone": "UTC"}
        return open_forum(config, f"{nick}-pw", clock=self.clock.monotonic, sleep=self.clock.sleep,
                          now=self.clock.now)

    def tick(self, moment: datetime) -> None:
        assert moment >= self.clock.now(), "the script only moves forward"
        self.clock.moment = moment
        report = self.daemon.tick()
        assert not report.errors, report.errors

    def send(self, day: int, guesses: dict[str, str]) -> None:
        for minute, (nick, text) in enumerate(guesses.items()):
            self.clock.moment = msk(day, 13, minute)
            self.players[nick].send_pm(HOST, "Бросок", text)

    def inbox(self, nick: str) -> list:
        forum = self.players[nick]
        return [forum.message(header.id) for headers, _ in forum.inbox_pages() for header in headers]

    def host_posts(self) -> list[str]:
        url = f"{self.server.url}viewtopic.php?t=2"
        pages = self.host.thread_page_count(url)
        return [post.text for page in range(1, pages + 1) for post in self.host.thread_page(url, page)[1]
                if post.author == HOST]


@pytest.fixture
def table(tmp_path, monkeypatch, coin_registered):  # noqa: F811
    table = Table(tmp_path, monkeypatch)
    yield table
    table.store.close()
    table.server.stop()


def test_a_game_registered_from_outside_is_played_through_the_daemon_on_the_forum(table):
    table.tick(msk(2, 12, 5))
    assert [(p["key"], p["status"]) for p in table.store.phases(GAME)] == [("toss-1", "pending")]

    # toss 1: guesses by PM, a typo refused in the receipt, receipts sent without the host
    table.send(2, {"Аскон": "орёл", "Хан": "Решка", "Лиса": "орёл\nнаверное", "Бук": "решка"})
    table.tick(msk(2, 14))
    assert "Принято" in table.inbox("Аскон")[0].text and "орёл" in table.inbox("Аскон")[0].text
    lisa = table.inbox("Лиса")[0].text
    assert "«наверное» — ожидается одно слово: «орёл» или «решка»" in lisa

    # the deadline: the toss resolves; its report waits for the host, then goes to the thread
    table.tick(msk(2, 20, 5))
    [report] = [d for d in table.store.drafts(game_id=GAME) if d["kind"] == "toss_report"]
    assert report["status"] == "pending" and table.host_posts() == ["Угадывайте, как ляжет монета: «орёл» или «решка» в личку."]
    table.store.approve(report["id"], by="host")
    table.tick(msk(2, 20, 10))
    [posted] = [text for text in table.host_posts() if "Бросок 1" in text]
    side = "орёл" if "выпал орёл" in posted else "решка"
    assert ("выпала решка" in posted) == (side == "решка")
    wrong = [nick for nick, guess in {"Аскон": "орёл", "Хан": "решка", "Лиса": "орёл", "Бук": "решка"}.items()
             if guess != side]
    assert f"Выбывают из игры: {', '.join(wrong)}." in posted
    left = [nick for nick in PLAYERS if nick not in wrong]
    assert f"В игре остаются: {', '.join(left)}." in posted
    assert table.store.latest_snapshot(GAME)["state"]["out"] == wrong

    # toss 2 with the two left; the game ends by its own rules once one is left
    day = 3
    while table.store.game(GAME)["winner"] is None:
        table.tick(msk(day, 12, 5))
        table.send(day, {left[0]: "орёл", left[1]: "решка"} if len(left) == 2 else {nick: "орёл" for nick in left})
        table.tick(msk(day, 20, 5))
        for draft in table.store.drafts(game_id=GAME, status="pending"):
            table.store.approve(draft["id"], by="host")
        table.tick(msk(day, 20, 10))
        day += 1
        assert day < 9, "five tosses at most"
    winner = table.store.game(GAME)["winner"]
    assert winner in left
    final = [text for text in table.host_posts() if f"Победитель: {winner}." in text]
    assert len(final) == 1
    kinds = {(d["kind"], d["status"]) for d in table.store.drafts(game_id=GAME)}
    # the commitment went out with the first tosses; the record post of the end waits for the host
    assert kinds == {("commitment", "sent"), ("receipt", "sent"), ("toss_report", "sent"), ("game_record", "pending")}
