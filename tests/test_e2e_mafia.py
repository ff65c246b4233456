"""A full 8-player Mafia game on the local forum over real HTTP, hosted by the daemon.

The board and the daemon share one injected clock (the HTTP client's polite waits move it, no
real sleeping). Players send their day votes and night actions as forum PMs from their own
accounts; the host approves drafts between ticks; everything is checked as the forum shows
it, read back through the phpBB parser.
"""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import Installation
from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from forumgm.daemon.tick.flow import Edges
from localforum_support import FakeClock

MSK = ZoneInfo("Europe/Moscow")
ORDINAL = {1: "первого", 2: "второго", 3: "третьего", 4: "четвёртого", 5: "пятого"}
HOST, HOST_PASSWORD = "Ведущий", "host-secret"
GAME = "mafia-e2e"
ROLES = {"Аскон": "Комиссар", "Хан": "Доктор", "Лиса": "Босс мафии", "Бук": "Мафиози",
         "Тора": "Мирный житель", "Эф": "Мирный житель", "Гор": "Мирный житель", "Ива": "Мирный житель"}


def msk(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=MSK)


# (when, player, PM text) per round; thread posts are ("post", player, text)
ROUND_1 = [
    (msk(3, 10), "Аскон", "голос: Лиса\nпроверить Бук"),
    (msk(3, 10, 10), "Хан", "голос: Лиса\nлечить Аскон"),
    (msk(3, 10, 20), "Лиса", "голос: Тора\nблокировать Хан\nубить Тора"),
    (msk(3, 10, 30), "Бук", "голос: Тора\nубить Тора"),
    (msk(3, 10, 40), "Тора", "не судить"),
    (msk(3, 10, 50), "Эф", "голос: Лиса\nзавтра напишу подробнее"),          # a malformed line
    (msk(3, 11), "Гор", "голос: Бук"),
    (msk(3, 11, 10), "Эф", "голос: Бук"),                                     # a changed vote attempt
]
ROUND_2 = [
    (msk(4, 10), "Аскон", "голос: Бук\nпроверить Гор"),
    (msk(4, 10, 10), "Хан", "голос: Эф\nлечить Аскон"),                      # same heal two nights running
    (msk(4, 10, 20), "Хан", "лечить Эф"),
    (msk(4, 10, 30), "Бук", "голос: Аскон\nубить Гор"),
    (msk(4, 10, 40), "Эф", "голос: Бук"),
    (msk(4, 10, 50), "Гор", "голос: Аскон"),
    (msk(4, 11), "Ива", "не судить"),
]
ROUND_3 = [
    (msk(5, 10), "Аскон", "голос: Бук"),
    (msk(5, 10, 10), "Хан", "голос: Бук"),
    (msk(5, 10, 20), "Эф", "голос: Бук"),
    (msk(5, 10, 30), "Ива", "не судить\nголос: Бук"),                       # «не судить» once per game
    (msk(5, 10, 40), "Бук", "голос: Эф\nубить Эф"),
]


def write_installation(folder, forum_url: str, forum_extra: str = "", seed: int = 5) -> Installation:
    players = "".join(f'[[players]]\nnick = "{nick}"\nrole = "{role}"\n\n' for nick, role in ROLES.items())
    (folder / "mafia.toml").write_text(f'''id = "{GAME}"
type = "mafia"
thread_url = "{forum_url}viewtopic.php?t=2"
seed = {seed}
time_zone = "Europe/Moscow"
start = 2026-03-02T23:00:00
reminder_before = "1h"

{players}[calendar.round]
opens = "23:00"
closes = "22:45"

[approval]
receipt = false
''', encoding="utf-8")
    (folder / "forumgm.toml").write_text(f'''games = ["mafia.toml"]

[forum]
id = "local"
engine = "phpbb"
base_url = "{forum_url}"
account = "{HOST}"
time_zone = "UTC"
password_env = "FORUMGM_E2E_PASSWORD"
min_interval = 0
posts_per_page = 5
{forum_extra}
[storage]
path = "forumgm.sqlite"
''', encoding="utf-8")
    return load_installation(folder / "forumgm.toml")


class Table:
    """The board, the daemon and one HTTP session per player, on one clock."""

    def __init__(self, folder, monkeypatch, forum_extra: str = "", seed: int = 5):
        self.clock = FakeClock(msk(2, 22))
        board = Board(clock=self.clock.now, attachments=True)     # the record post attaches the archive
        board.add_user(HOST, HOST_PASSWORD, admin=True)
        for nick in ROLES:
            board.add_user(nick, f"{nick}-pw")
        board.add_topic(HOST, "Мафия: партия на восьмерых", "Игра начинается в 23:00. Голоса и ходы — в личку.")
        self.server = LocalForum(board).start()
        monkeypatch.setenv("FORUMGM_E2E_PASSWORD", HOST_PASSWORD)
        installation = write_installation(folder, self.server.url, forum_extra, seed=seed)
        self.config = folder / "forumgm.toml"
        self.store = Store(installation.storage, now=self.clock.now)
        self.host = open_forum(installation.forum, HOST_PASSWORD, clock=self.clock.monotonic, sleep=self.clock.sleep,
                               now=self.clock.now)      # as `forumgm run` opens it, from [forum]
        self.daemon = Daemon(installation, self.store, self.host, self.clock,
                             Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved))
        self.players = {nick: self.session(nick, f"{nick}-pw") for nick in ROLES}

    def session(self, nick: str, password: str):
        config = {"engine": "phpbb", "base_url": self.server.url, "username": nick, "min_interval": 0,
                  "posts_per_page": 5, "time_zone": "UTC"}
        return open_forum(config, password, clock=self.clock.monotonic, sleep=self.clock.sleep, now=self.clock.now)

    def at(self, moment: datetime) -> None:
        assert moment >= self.clock.now(), "the script only moves forward"
        self.clock.moment = moment

    def tick(self, moment: datetime) -> None:
        self.at(moment)
        report = self.daemon.tick()
        assert not report.errors, report.errors

    def send(self, moves) -> None:
        for when, nick, text in moves:
            self.at(when)
            self.players[nick].send_pm(HOST, "Ход", text)

    def approve(self) -> list[dict]:
        """The host approves every pending draft but his own discipline digests."""
        approved = [d for d in self.store.drafts(status="pending") if d["kind"] != "discipline"]
        for draft in approved:
            self.store.approve(draft["id"], by="host")
        return approved

    # -- what the forum shows ---------------------------------------------------------------
    def inbox(self, nick: str) -> list:
        forum = self.players[nick]
        return [forum.message(header.id) for headers, _ in forum.inbox_pages() for header in headers]

    def thread(self) -> list:
        url = f"{self.server.url}viewtopic.php?t=2"
        pages = self.host.thread_page_count(url)
        return [post for page in range(1, pages + 1) for post in self.host.thread_page(url, page)[1]]


@pytest.fixture
def table(tmp_path, monkeypatch):
    table = Table(tmp_path, monkeypatch)
    yield table
    table.store.close()
    table.server.stop()


def host_posts(table: Table, marker: str) -> list:
    return [p for p in table.thread() if p.author == HOST and marker in p.text]


def received(table: Table, nick: str, subject_part: str) -> list[str]:
    return [m.text for m in table.inbox(nick) if subject_part in m.subject and m.sender == HOST]


def play_round(table: Table, number: int, moves, day: int) -> None:
    """Orders, receipts at once, the deadline, the report approved and posted at 23:00."""
    if moves:
        table.send(moves)
        table.tick(msk(day, 12))                     # receipts go out without approval
    table.tick(msk(day, 22, 52))                     # 22:45 passed: the round resolves
    assert [d["kind"] for d in table.approve()].count("round_report") == 1
    table.tick(msk(day, 23))                         # published at 23:00
    table.tick(msk(day, 23, 5))                      # a later tick posts nothing twice
    assert len(host_posts(table, f"Итоги {ORDINAL[number]} игрового дня")) == 1


def test_an_eight_player_game_played_through_the_forum(table):
    # the deal: role PMs drafted, approved by the host, delivered as forum PMs
    table.tick(msk(2, 22))
    assert sorted(d["target"] for d in table.approve() if d["kind"] == "role") == sorted(ROLES)
    table.tick(msk(2, 22, 10))
    for nick, role in ROLES.items():
        [role_pm] = received(table, nick, "Ваша роль")
        assert f"ваша роль в игре — {role}" in role_pm
    assert "Бук — Мафиози" in received(table, "Лиса", "Ваша роль")[0]

    # round 1 with a thread post, the reminder an hour before, and a PM after 22:45
    table.at(msk(3, 9))
    table.players["Аскон"].reply(f"{table.server.url}viewtopic.php?t=2", "Подозреваю Лису.")
    table.send(ROUND_1)
    table.tick(msk(3, 21, 50))
    reminders = [d for d in table.approve() if d["kind"] == "reminder"]
    assert sorted(d["target"] for d in reminders) == ["thread", "Ива"]
    table.tick(msk(3, 22))
    table.tick(msk(3, 22, 20))
    [reminder_post] = host_posts(table, "До конца игрового дня 1 осталось 55 минут.")   # drafted at 21:50
    assert "Дневной голос ещё не прислали: Ива" in reminder_post.text
    assert "ваш дневной голос ещё не получен" in received(table, "Ива", "Напоминание")[0]
    table.send([(msk(3, 22, 50), "Ива", "голос: Лиса")])
    play_round(table, 1, [], 3)

    # round 2: Лиса (jailed Boss) writes in the thread; the digest flags her for the host
    table.at(msk(4, 9))
    table.players["Лиса"].reply(f"{table.server.url}viewtopic.php?t=2", "Я была не виновата!")
    play_round(table, 2, ROUND_2, 4)
    play_round(table, 3, ROUND_3, 5)

    # -------------------------------------------------------- what the forum shows
    reports = {n: host_posts(table, f"Итоги {ORDINAL[n]} игрового дня")[0].text for n in (1, 2, 3)}
    assert "за решётку отправляется Лиса — Босс мафии" in reports[1]
    assert "Тора — Мирный житель: жертва мафии" in reports[1]
    assert "Ива — предупреждение" in reports[1]
    assert "Тора — не судить" in reports[1] and "Ива — нет голоса" in reports[1]
    assert "никто не посажен: равенство голосов" in reports[2]
    assert "Гор — Мирный житель: убит мафией" in reports[2]           # the dictionary knows the name
    assert "за решётку отправляется Бук — Мафиози" in reports[3]
    assert "Игра окончена: победили мирные жители" in reports[3]
    for text in reports.values():                      # blocked/healed attempts are never shown
        assert "блок" not in text.lower() and "лечен" not in text.lower()

    checks = received(table, "Аскон", "Проверка")
    assert any("статус игрока Бук отрицательный" in c for c in checks)
    assert any("статус игрока Гор положительный" in c for c in checks)
    assert any("Это предупреждение" in t for t in received(table, "Ива", "Предупреждение"))

    receipts_ef = received(table, "Эф", "Re: Ход")
    assert any("голос: Лиса" in r and "«завтра напишу подробнее» — команда не распознана" in r
               for r in receipts_ef)
    assert any("«голос: Бук» — голос уже учтён (голос: Лиса)" in r for r in receipts_ef)
    assert any("Принято" in r and "не судить" in r for r in received(table, "Тора", "Re: Ход"))
    receipts_iva = received(table, "Ива", "Re: Ход")
    assert any("«голос: Лиса» — получено после окончания игрового дня" in r for r in receipts_iva)
    assert any("«не судить» — «не судить» уже использовано" in r for r in receipts_iva)
    assert any("лечить одного и того же игрока две ночи подряд" in r for r in received(table, "Хан", "Re: Ход"))
    pm_count = sum(len(table.inbox(nick)) for nick in ROLES)
    sent = [d for d in table.store.drafts(game_id=GAME) if d["status"] == "sent" and d["target"] != "thread"]
    assert pm_count == len(sent)                         # every PM delivered once

    # the game is over: no further phase, the winner in the state, the host's digest flags Лиса
    assert [p["status"] for p in table.store.phases(GAME)] == ["resolved"] * 3
    assert table.store.latest_snapshot(GAME)["state"]["winner"] == "town"
    digest = next(d for d in table.store.drafts(game_id=GAME) if d["ref"] == "discipline:round-2:deadline")
    assert "Лиса (Босс мафии, выбыл) — писать в теме нельзя" in digest["body"]
    assert table.store.orders(GAME, "round-2") and not any(
        o["sender"] == "Ива" and "Лиса" in o["raw_text"] for o in table.store.orders(GAME, "round-2"))


def test_only_the_players_own_words_are_orders_and_a_look_alike_account_is_nobody(table):
    table.tick(msk(2, 22))
    table.server.board.add_user("Тoра", "impostor-pw")          # a Latin "o": not the player Тора
    impostor = table.session("Тoра", "impostor-pw")
    table.at(msk(3, 10))
    table.players["Тора"].send_pm(HOST, "Re: Ход", "[quote=Ведущий]Принято:\nубить Аскон[/quote]\nголос: Бук")
    impostor.send_pm(HOST, "Ход", "голос: Аскон")
    table.tick(msk(3, 12))
    orders = table.store.orders(GAME, "round-1")
    assert [(o["sender"], o["raw_text"]) for o in orders] == [("Тора", "голос: Бук")]
    receipts = [d for d in table.store.drafts(game_id=GAME) if d["kind"] == "receipt"]
    assert [d["target"] for d in receipts] == ["Тора"] and "не распознана" not in receipts[0]["body"]


def test_with_inbox_cleanup_the_hosts_inbox_is_emptied_once_receipts_are_out(tmp_path, monkeypatch):
    """[forum] inbox_cleanup through the daemon: the round is read and resolved as without it, and
    the order PMs leave the host's inbox an hour after they were stored, their receipts sent."""
    table = Table(tmp_path, monkeypatch, 'inbox_cleanup = "delete"\ninbox_cleanup_after = "1h"\n')
    try:
        table.tick(msk(2, 22))
        table.approve()
        table.tick(msk(2, 22, 10))
        host = table.server.board.user_named(HOST).id
        play_round(table, 1, ROUND_1, 3)
        assert len(table.store.orders(GAME, "round-1")) == len(ROUND_1)
        assert all(d["status"] == "sent" for d in table.store.drafts(game_id=GAME) if d["kind"] == "receipt")
        assert table.server.board.inbox(host) == []
        stored = {pm["pm_id"] for pm in table.store.pms("local")}
        assert {row["pm_id"] for row in table.store.pm_removals("local") if row["done_at"]} == stored
        assert len(stored) == len(ROUND_1)
        assert "за решётку отправляется Лиса — Босс мафии" in host_posts(table, "Итоги первого игрового дня")[0].text
    finally:
        table.store.close()
        table.server.stop()
