"""A Legends player replaced in the middle of a voting day on the local forum: what was posted
before the replacement stays attributed as it was, what the old account posts after is no vote,
and a re-run of every phase after the replacement gives the same rolls and outcome."""
from __future__ import annotations

import dataclasses

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.host_actions.replace import replace_player
from forumgm.daemon.runtime.loop import game_runs
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.store import Store
from forumgm.daemon.tick.seat_accounts import check_seat_accounts
from e2e_support import hosted_copy
from legends_forum_support import GAME, legends_hosted, msk, tick_at
from seats_support import rerun_after_replacement

NIGHT1 = {"Аскон": "Шпионаж Кума", "gosha100": "Защита 3", "Robozik": "Атака 5 Аскон"}
NEW = "Новичок"


@pytest.fixture(scope="session")
def day2_played(tmp_path_factory):
    """Night 1 with orders, day 1 and night 2 resolved: day 2 takes votes in the thread (played once a
    worker: `day2` gives each test a copy of its own)."""
    with legends_hosted(tmp_path_factory.mktemp("day2"), "[approval]\nreceipt = false\n",
                        spectators=(NEW,)) as (server, board, clock, config, players, daemon):
        tick_at(daemon, clock, msk(2, 20))
        clock.moment = msk(2, 22)
        for nick, text in NIGHT1.items():
            players[nick].pm("Ночь 1", text)
        for moment in (msk(2, 22, 30), msk(3, 10, 5), msk(3, 21, 5), msk(4, 10, 5)):
            tick_at(daemon, clock, moment)
        assert [p["key"] for p in daemon.store.phases(GAME, "resolved")] == ["night-1", "day-1", "night-2"]
        yield server, board, daemon, players


@pytest.fixture
def day2(day2_played, tmp_path, monkeypatch):
    """That day 2, a copy of its own (tests/e2e_support.py's hosted_copy): (daemon, clock, config, players)."""
    server, board, played, players = day2_played
    daemon, _board, players = hosted_copy(server, board, played, tmp_path, monkeypatch, players)
    yield daemon, daemon.clock, daemon.installation.source, players
    daemon.store.close()


def test_votes_posted_before_a_replacement_stay_attributed_as_they_were(day2):
    daemon, clock, config, players = day2
    clock.moment = msk(4, 12, 30)
    players["gosha100"].post("Голосую за [color=blue]Кума[/color]")          # his real vote
    clock.moment = msk(4, 12, 40)
    players[NEW].post("[color=blue]Robozik[/color]")                         # not a player yet
    clock.moment = msk(4, 12, 50)
    players["Кума"].post("Я за [color=blue]гоша[/color]")                     # gosha100 by his alias
    tick_at(daemon, clock, msk(4, 13))

    host = Store(load_installation(config).storage)       # `forumgm replace`: another process, same file
    replace_player(game_runs(load_installation(config))[0], host, "gosha100", NEW, "host", msk(4, 14))
    clock.moment = msk(4, 15)
    players["gosha100"].post("[color=blue]Аскон[/color]")                     # no longer a player
    clock.moment = msk(4, 15, 10)
    players[NEW].post("За [color=blue]Robozik[/color]")                       # the seat's vote now
    assert tick_at(daemon, clock, msk(4, 21, 5)).resolved == [f"{GAME}/day-2"]

    votes = daemon.store.votes(GAME, "day-2")
    assert {v["voter"]: v["target"] for v in votes if v["counted"]} == {"gosha100": "Robozik", "Кума": "gosha100"}
    assert sorted((v["voter"], v["text"], v["reason"]) for v in votes if not v["counted"]) == [
        ("gosha100", "Аскон", "non_player"), ("gosha100", "Кума", "superseded"), (NEW, "Robozik", "non_player")]
    final = next(d["body"] for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "lynch_report"
                 and d["phase_key"] == "day-2")
    # the seat is shown by the account holding it; the old account's post by the account that wrote it
    assert "Robozik — 1: [url=" in final and final.count(f"]{NEW}[/url]") == 3     # the seat's votes, his own post
    assert "]gosha100[/url]: «Аскон» — пишущий не игрок" in final                  # the old account's post
    assert "Не проголосовали (2): Аскон, Robozik" in final


def test_a_rerun_after_a_replacement_gives_the_same_rolls_and_outcome(day2, capsys):
    daemon, clock, config, players = day2
    tick_at(daemon, clock, msk(4, 21, 5))                          # day 2: nobody votes
    clock.moment = msk(4, 22)
    for nick in ("Аскон", "Robozik"):                              # equal attacks: a die picks the killer
        players[nick].pm("Ночь 3", "Атака 5 Кума")
    assert tick_at(daemon, clock, msk(5, 10, 5)).resolved == [f"{GAME}/night-3"]
    assert [e["type"] for e in daemon.store.events(GAME, "night-3")].count("attack") >= 1
    rerun_after_replacement(config, daemon.store, GAME, "Robozik", NEW, "night-1", capsys)


def test_the_daemon_asks_the_board_about_the_new_account_at_its_next_tick(day2, capsys):
    daemon, clock, config, players = day2
    daemon.edges = dataclasses.replace(daemon.edges, seat_accounts=check_seat_accounts)
    for old, new in (("Аскон", "Нетакого"), ("Robozik", NEW)):
        assert main(["replace", "--config", str(config), GAME, old, new, "--by", "host"]) == 0
    assert "the daemon asks it at its next tick whether the account Нетакого exists" in capsys.readouterr().out
    tick_at(daemon, clock, msk(4, 13))
    tick_at(daemon, clock, msk(4, 14))          # asked once per replacement
    [notice] = [d for d in daemon.store.drafts(game_id=GAME) if d["ref"] and d["ref"].startswith("seat_account:")]
    assert (notice["status"], notice["target"], notice["kind"]) == ("pending", "Ведущий", "host_notice")
    assert notice["body"].startswith(f"В игре {GAME} место Аскон отдано аккаунту Нетакого, но на форуме нет такого "
                                     "пользователя: личные сообщения этому месту не дойдут")
    assert all(row["account_checked_at"] is not None for row in daemon.store.replacements(GAME))


def test_an_order_names_a_replaced_seat_by_its_account_from_the_replacement_on(day2, capsys):
    daemon, clock, config, players = day2
    tick_at(daemon, clock, msk(4, 21, 5))                          # day 2: nobody votes
    clock.moment = msk(4, 22)
    players["Robozik"].pm("Ночь 3", f"Атака 5 {NEW}")             # not a player yet: nobody
    tick_at(daemon, clock, msk(4, 22, 10))
    host = Store(load_installation(config).storage)
    replace_player(game_runs(load_installation(config))[0], host, "gosha100", NEW, "host", msk(4, 22, 20))
    clock.moment = msk(4, 22, 30)
    players["Аскон"].pm("Ночь 3", f"Атака 5 {NEW}а")               # the seat, by the account holding it
    assert tick_at(daemon, clock, msk(5, 10, 5)).resolved == [f"{GAME}/night-3"]

    verdicts = {o["sender"]: o["verdicts"] for o in daemon.store.orders(GAME, "night-3")}
    assert not verdicts["Robozik"][0]["ok"] and NEW in verdicts["Robozik"][0]["reason"]
    assert verdicts["Аскон"][0]["ok"], verdicts["Аскон"]
    attacks = [e["data"] for e in daemon.store.events(GAME, "night-3") if e["type"] == "attack"]
    assert [(a["nick"], a["target"]) for a in attacks] == [("Аскон", "gosha100")]
    # the seat changes hands again: a re-run reads each PM with the names of its own moment
    rerun_after_replacement(config, daemon.store, GAME, NEW, "Третий", "night-3", capsys)
