"""«Монетка», a game that lives outside forumgm (tests/games/coin_game) and is registered only as a
third party would register it, played through the real daemon on the local forum over real HTTP:
guesses by PM, receipts, the toss report drafted, approved by the host and published in the thread,
the game ended by its own rules. Nothing in daemon/ names it (tests/test_daemon_agnostic.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from e2e_support import LocalGame, write_installation
from localforum_support import msk

GAME = "coin-e2e"
PLAYERS = ("Аскон", "Хан", "Лиса", "Бук")


def coin_installation(folder, forum_url: str) -> Path:
    players = "".join(f'[[players]]\nnick = "{nick}"\n\n' for nick in PLAYERS)
    return write_installation(folder, forum_url, "coin.toml", f'''id = "{GAME}"
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
''')


class Table(LocalGame):
    def __init__(self, folder, monkeypatch):
        super().__init__(folder, monkeypatch, PLAYERS,
                         ("Монетка", "Угадывайте, как ляжет монета: «орёл» или «решка» в личку."), msk(2, 11),
                         lambda url: coin_installation(folder, url))

    def send(self, day: int, guesses: dict[str, str]) -> None:
        for minute, (nick, text) in enumerate(guesses.items()):
            self.pm(msk(day, 13, minute), nick, "Бросок", text)


@pytest.fixture
def table(tmp_path, monkeypatch, coin_registered):
    table = Table(tmp_path, monkeypatch)
    yield table
    table.close()


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
    assert report["status"] == "pending"
    assert [p.text for p in table.host_posts()] == ["Угадывайте, как ляжет монета: «орёл» или «решка» в личку."]
    table.store.approve(report["id"], by="host")
    table.tick(msk(2, 20, 10))
    [posted] = [p.text for p in table.host_posts("Бросок 1")]
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
    final = table.host_posts(f"Победитель: {winner}.")
    assert len(final) == 1
    kinds = {(d["kind"], d["status"]) for d in table.store.drafts(game_id=GAME)}
    # the commitment went out with the first tosses; the record post of the end waits for the host
    assert kinds == {("commitment", "sent"), ("receipt", "sent"), ("toss_report", "sent"), ("game_record", "pending")}
