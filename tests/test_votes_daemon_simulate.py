"""Issue 4's done-criterion: the daemon (posts parsed from the forum's HTML) and `forumgm simulate`
(the same posts as BBCode) give the same tally, every discarded vote with its reason."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.offline.localforum import LocalForum
from legends_forum_support import (
    GAME, PASSWORD_ENV, SEED, Player, legends_board, msk, players_toml, start_daemon, toml_string,
    write_installation,
)
from localforum_support import FakeClock

# (author, BBCode) in the order they are posted during day 2 (the first lynch day)
POSTS = [
    ("Аскон", "Доброе утро. Голосую за [color=blue]Кума[/color]"),
    ("Кума", "[quote=Аскон]Голосую за [color=blue]Кума[/color][/quote]\nПочему я? Мой голос: [color=#0000FF]Аскона[/color]"),
    ("gosha100", "[color=blue]Rоbоzik[/color]"),                                  # Latin look-alikes
    ("Robozik", "[color=blue]Аскон[/color] или [color=blue]Кума[/color]? Оба подозрительны"),
    ("Зритель", "А я бы голосовал за [color=blue]gosha100[/color]"),
    ("Robozik", "Ладно: [color=#00f]Некто[/color]"),
    ("gosha100", "[spoiler][color=blue]Аскон[/color][/spoiler] и [code][color=blue]Кума[/color][/code]"),
    ("Аскон", "Передумал, [b][color=blue]гоша[/color][/b]"),
]


def scenario_text() -> str:
    players = players_toml("setup.players")
    posts = "\n".join(f"[[phases.posts]]\nauthor = {toml_string(a)}\nbbcode = {toml_string(b)}\n" for a, b in POSTS)
    quiet = "\n".join(f'[[phases]]\nkind = "{k}"\nnumber = {n}\n' for k, n in (("night", 1), ("day", 1), ("night", 2)))
    return f'game = "legends"\nseed = {SEED}\n\n{players}\n{quiet}\n[[phases]]\nkind = "day"\nnumber = 2\n\n{posts}'


@pytest.fixture
def forum_game(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock, spectators=("Зритель",))) as server:
        yield server, clock


def test_daemon_and_simulate_give_the_same_tally(forum_game, tmp_path, capsys):
    server, clock = forum_game
    config = write_installation(tmp_path, server, 'vote_colors = ["blue"]')
    daemon = start_daemon(config, server, clock)
    for at in (msk(2, 20), msk(3, 10, 5), msk(3, 21, 5), msk(4, 10, 5)):
        clock.moment = at
        assert daemon.tick().errors == []
    assert daemon.store.phase(GAME, "day-2")["status"] == "pending"
    clock.moment = msk(4, 12, 30)
    players = {nick: Player(server, clock, nick) for nick in {a for a, _ in POSTS}}
    for author, bbcode in POSTS:
        players[author].post(bbcode)
    clock.moment = msk(4, 21, 5)
    assert daemon.tick().resolved == [f"{GAME}/day-2"]

    rows = daemon.store.votes(GAME, "day-2")
    daemon_counted = {r["voter"]: r["target"] for r in rows if r["counted"]}
    daemon_discarded = Counter((r["voter"], r["text"], r["reason"], r["detail"] or "")
                               for r in rows if not r["counted"])
    assert all(r["post_id"] for r in rows)       # every vote keeps the post it came from

    scenario = tmp_path / "same_posts.toml"
    scenario.write_text(scenario_text(), encoding="utf-8")
    assert main(["simulate", str(scenario)]) == 0
    day2 = json.loads(capsys.readouterr().out)["phases"][-1]
    simulated = Counter((d["voter"], d["text"], d["reason"], d.get("detail", "")) for d in day2["discarded_votes"])

    assert daemon_counted == day2["counted_votes"] == {"Кума": "Аскон", "gosha100": "Robozik", "Аскон": "gosha100"}
    assert daemon_discarded == simulated
    # a quoted vote is someone else's: it is listed, with its reason, but never counted
    assert {reason for _, _, reason, _ in simulated} == {
        "ambiguous", "non_player", "unknown_name", "spoiler", "superseded", "quoted"}
