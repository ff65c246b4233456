"""An Arena duel on the local forum over real HTTP, hosted by the daemon: stacks sent by PM,
receipts at once, a refill requested by PM and answered (and one missed), step reports approved
by the host and posted once, the fight ending in a knock-out. And a fight of three: a card that
names no opponent refused by receipt, one knocked out while the other two fight on, the last
one standing wins.

The game's [setup] scripts the only dice of each fight, so the outcome is known; every other
number is the engine's own.
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
from seats_support import rerun_after_replacement

MSK = ZoneInfo("Europe/Moscow")
HOST, HOST_PASSWORD = "Ведущий", "host-secret"
GAME = "arena-e2e"
PLAYERS = ("Аскон", "Хан")


def msk(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=MSK)


DUEL = '''[setup]
distance = 1
dice = [6, 6, 1, 1]

[[setup.fighters]]
nick = "Аскон"
defense_dice = 1

[[setup.fighters]]
nick = "Хан"
weapon = "гладий"
'''
# Хан knocks Кума out at step 2, Аскон knocks Хан out at step 3: one defense die each.
THREE = '''[setup]
distance = 1
dice = [6, 6, 1, 1, 6, 6, 1, 1]
fighters = [{ nick = "Аскон", weapon = "гладий" }, { nick = "Хан", weapon = "гладий", defense_dice = 1 },
            { nick = "Кума", defense_dice = 1 }]
'''


def write_installation(folder, forum_url: str, players=PLAYERS, setup: str = DUEL) -> Installation:
    roster = "".join(f'[[players]]\nnick = "{nick}"\n\n' for nick in players)
    (folder / "arena.toml").write_text(f'''id = "{GAME}"
type = "arena"
thread_url = "{forum_url}viewtopic.php?t=2"
seed = 3
time_zone = "Europe/Moscow"
start = 2026-03-02T12:00:00

{roster}[calendar.step]
duration = "1d"

[approval]
receipt = false

{setup}''', encoding="utf-8")
    (folder / "forumgm.toml").write_text(f'''games = ["arena.toml"]

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


class Arena:
    """The board, the daemon and one HTTP session per player, on one clock."""

    def __init__(self, folder, monkeypatch, players=PLAYERS, setup: str = DUEL):
        self.clock = FakeClock(msk(2, 11))
        board = Board(clock=self.clock.now, attachments=True)     # the record post attaches the archive
        board.add_user(HOST, HOST_PASSWORD, admin=True)
        for nick in players:
            board.add_user(nick, f"{nick}-pw")
        board.add_topic(HOST, "Арена: Аскон против Хана", "Бой начинается. Стопки действий — в личку.")
        self.server = LocalForum(board).start()
        monkeypatch.setenv("FORUMGM_E2E_PASSWORD", HOST_PASSWORD)
        installation = write_installation(folder, self.server.url, players, setup)
        self.store = Store(installation.storage, now=self.clock.now)
        self.host = self.session(HOST, HOST_PASSWORD)
        self.daemon = Daemon(installation, self.store, self.host, self.clock,
                             Edges(sync_game=sync_game, sync_inbox=sync_inbox, publish=publish_approved))
        self.players = {nick: self.session(nick, f"{nick}-pw") for nick in players}

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
        self.players[nick].send_pm(HOST, "Стопки", text)

    def approve(self) -> list[str]:
        drafts = self.store.drafts(status="pending")
        for draft in drafts:
            self.store.approve(draft["id"], by="host")
        return [d["kind"] for d in drafts]

    def inbox(self, nick: str) -> list:
        forum = self.players[nick]
        return [forum.message(header.id) for headers, _ in forum.inbox_pages() for header in headers]

    def received(self, nick: str, subject_part: str) -> list[str]:
        return [m.text for m in self.inbox(nick) if subject_part in m.subject and m.sender == HOST]

    def host_posts(self, marker: str) -> list:
        url = f"{self.server.url}viewtopic.php?t=2"
        pages = self.host.thread_page_count(url)
        posts = [post for page in range(1, pages + 1) for post in self.host.thread_page(url, page)[1]]
        return [p for p in posts if p.author == HOST and marker in p.text]


@pytest.fixture
def arena(request, tmp_path, monkeypatch):
    """A duel; a test may add lines to Хан's fighter card (indirect parametrisation)."""
    arena = Arena(tmp_path, monkeypatch, setup=DUEL + getattr(request, "param", ""))
    yield arena
    arena.store.close()
    arena.server.stop()


def resolve_step(arena: Arena, number: int, opened_with_step_0: bool = False) -> list[str]:
    """The step's deadline passes (12:00 the next day), the host approves, the reports go out once."""
    day = 2 + number + opened_with_step_0
    arena.tick(msk(day, 12, 1))
    kinds = arena.approve()
    arena.tick(msk(day, 12, 10))
    arena.tick(msk(day, 12, 20))
    assert len(arena.host_posts(f"Арена. Шаг {number}")) == 1
    assert len(arena.host_posts(f"Арена — шаг {number}, технический отчёт")) == 1
    return kinds


def test_a_duel_played_through_the_forum(arena):
    arena.tick(msk(2, 12))
    arena.send(msk(2, 13), "Хан", "ПР: Отдых ×4, X L(голова)\nНоги: Шаг вперёд")
    arena.send(msk(2, 13, 5), "Аскон", "Правая рука: Выпад(голова)\nЛР: Блок(тело)")
    arena.tick(msk(2, 13, 30))                     # receipts go out without approval
    [receipt_khan] = arena.received("Хан", "Re: Стопки")
    assert "Правая рука: Отдых ×4, X, L(голова) → стопка: X X X X X L(голова)" in receipt_khan
    assert "Ноги: Шаг(вперёд) → стопка: W(вперёд) X X X X X" in receipt_khan
    [receipt_askon] = arena.received("Аскон", "Re: Стопки")
    assert "«Правая рука, карта 1 (X)» — оружие «меч» не позволяет последовательность «Выпад»" in receipt_askon

    kinds = resolve_step(arena, 1)        # with the commitment posted at the deal
    assert sorted(kinds) == ["commitment", "literary_report", "summary_report", "technical_report"]
    assert "Хан: W вперёд — не выполнено (сектор занят)" in arena.host_posts("технический отчёт")[0].text
    for number in (2, 3):
        resolve_step(arena, number)
    kinds = resolve_step(arena, 4)                 # 6 − speed 2 = 4 cards played: refills asked
    assert kinds.count("refill") == 2
    [refill] = arena.received("Хан", "пополните стопки")
    assert "по 4 карты" in refill and "до 07.03.2026 12:00" in refill

    arena.send(msk(6, 13), "Хан", "ПР: X, Отдых ×3")
    arena.tick(msk(6, 13, 30))
    assert any("Правая рука: X, Отдых ×3 → стопка: X L(голова) X X X X" in text
               for text in arena.received("Хан", "Re: Стопки"))
    resolve_step(arena, 5)
    resolve_step(arena, 6)

    technical = arena.host_posts("Арена — шаг 6, технический отчёт")[0].text
    assert "Хан, атака L: 6, 6, 1, 1" in technical
    assert "Рана: Аскон, голова — тяжёлое ранение (нокаут)" in technical
    assert "Бой окончен: победа Хана (нокаут)" in technical
    assert "Итог: победа Хана (нокаут)" in arena.host_posts("состояние после шага 6")[0].text
    missed = [e["data"] for e in arena.store.events(GAME, "step-5")
              if e["type"] == "stack" and e["data"]["nick"] == "Аскон"]
    assert [e["kind"] for e in missed] == ["missed"] * 3

    # the fight is over: no further step is scheduled, later ticks post nothing again
    assert [p["status"] for p in arena.store.phases(GAME)] == ["resolved"] * 6
    assert arena.store.latest_snapshot(GAME)["state"]["result"]["winner"] == "Хан"
    assert arena.store.game(GAME)["winner"] == "Хан"          # the daemon finished the game by itself
    arena.tick(msk(9, 12))
    assert len(arena.host_posts("Арена. Шаг 6")) == 1
    sent = [d for d in arena.store.drafts(game_id=GAME) if d["status"] == "sent" and d["target"] != "thread"]
    assert sum(len(arena.inbox(n)) for n in PLAYERS) == len(sent)


@pytest.mark.parametrize("arena", ["attack_rating = 4"], indirect=True)
def test_a_lower_attack_rating_reveals_step_1_before_it_is_played(arena):
    arena.tick(msk(2, 12))
    assert [p["key"] for p in arena.store.phases(GAME)] == ["step-0"]
    arena.send(msk(2, 13), "Аскон", "ПР: Удар(тело)\nНоги: Шаг назад")
    arena.tick(msk(2, 13, 30))
    [receipt] = arena.received("Аскон", "Re: Стопки")
    assert "Ноги: Шаг(назад) → стопка: W(назад) X X X X X" in receipt

    arena.tick(msk(3, 12, 1))                      # step 0 ends: the stacks are down, no card played
    kinds = arena.approve()                        # with the commitment posted at the deal
    assert sorted(kinds) == ["commitment", "reveal", "summary_report", "technical_report"]
    arena.tick(msk(3, 12, 10))
    [reveal] = arena.received("Хан", "карты соперника перед шагом 1")
    assert "открывает вам 2 следующие карты (перед шагом 1)" in reveal
    assert "правая рука: K(тело) X" in reveal and "ноги: W(назад) X" in reveal
    assert not arena.host_posts("Арена. Шаг")      # nothing to narrate yet
    assert [(p["key"], p["status"]) for p in arena.store.phases(GAME)] == [("step-0", "resolved"), ("step-1", "pending")]

    resolve_step(arena, 1, opened_with_step_0=True)
    technical = arena.host_posts("Арена — шаг 1, технический отчёт")[0].text
    assert "• Аскон: правая рука K(тело), левая рука X, ноги W(назад)" in technical  # as shown
    assert len(arena.received("Хан", "перед шагом 2")) == 1


@pytest.fixture
def three(tmp_path, monkeypatch):
    arena = Arena(tmp_path, monkeypatch, PLAYERS + ("Кума",), THREE)
    yield arena
    arena.store.close()
    arena.server.stop()


def test_a_fight_of_three_goes_on_after_a_knock_out(three):
    three.tick(msk(2, 12))
    three.send(msk(2, 13), "Хан", "ПР: Выпад(голова)")
    three.tick(msk(2, 13, 10))
    [refused] = three.received("Хан", "Re: Стопки")
    assert "против кого? В бою несколько соперников (Аскон, Кума)" in refused
    three.send(msk(2, 13, 20), "Хан", "ПР: Выпад(Куме в голову)")
    three.send(msk(2, 13, 25), "Аскон", "ПР: Отдых, Выпад(голова, Хана)")
    three.tick(msk(2, 13, 30))
    assert any("Правая рука: Выпад(голова, Кума) → стопка: X L(голова, Кума) X X X X" in text
               for text in three.received("Хан", "Re: Стопки"))
    assert any("стопка: X X L(голова, Хан) X X X" in text for text in three.received("Аскон", "Re: Стопки"))

    resolve_step(three, 1)
    resolve_step(three, 2)
    literary = three.host_posts("Арена. Шаг 2")[0].text
    assert "Кума: тяжёлое ранение (голова) — и боец падает без чувств." in literary
    assert "Кума выбывает из боя (нокаут)." in literary
    assert "Кума — вне боя (нокаут)" in three.host_posts("состояние после шага 2")[0].text
    assert [(row["nick"], row["cause"]) for row in three.store.eliminations(GAME)] == [("Кума", "нокаут")]
    assert three.store.game(GAME)["winner"] is None          # two fight on
    three.send(msk(4, 13), "Кума", "замена ПР: Быстрый блок(голова)")
    three.tick(msk(4, 13, 10))
    assert any("вы выбыли из боя (нокаут)" in text for text in three.received("Кума", "Re: Стопки"))

    resolve_step(three, 3)
    technical = three.host_posts("Арена — шаг 3, технический отчёт")[0].text
    assert "Аскон → Хан (правая рука, гладий): L в голову" in technical
    assert "Дистанция Аскон — Хан: 1 → 1" in technical and "Дистанция Аскон — Кума" not in technical
    assert "Бой окончен: победа Аскона (нокаут)" in technical
    assert three.store.game(GAME)["winner"] == "Аскон"
    assert [(row["nick"], row["cause"]) for row in three.store.eliminations(GAME)] == [("Кума", "нокаут"),
                                                                                   ("Хан", "нокаут")]
    assert [p["status"] for p in three.store.phases(GAME)] == ["resolved"] * 3


def test_a_rerun_after_a_replacement_gives_the_same_rolls_and_outcome(tmp_path, monkeypatch, capsys):
    arena = Arena(tmp_path, monkeypatch, setup=DUEL.replace("dice = [6, 6, 1, 1]\n", ""))     # the seed's dice
    try:
        arena.tick(msk(2, 12))
        arena.send(msk(2, 13), "Хан", "ПР: X, L(тело)")
        arena.send(msk(2, 13, 5), "Аскон", "ЛР: Блок(тело)\nПравая рука: X, L(тело)")
        for day in (3, 4):
            arena.tick(msk(day, 12, 1))
            arena.approve()
        events = [e for row in arena.store.phases(GAME, "resolved") for e in arena.store.events(GAME, row["key"])]
        # the dice are rolled for the attacker by his seat's name
        assert [e["data"]["attacker"] for e in events if e["type"] == "attack" and "hits" in e["data"]] == ["Хан"]
        rerun_after_replacement(arena.daemon.installation.source, arena.store, GAME, "Хан", "Новичок",
                                arena.store.phases(GAME, "resolved")[0]["key"], capsys)
    finally:
        arena.store.close()
        arena.server.stop()
