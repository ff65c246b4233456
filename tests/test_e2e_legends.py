"""A small Legends game hosted end to end on the local forum over real HTTP: players post votes and
send orders by PM from their own sessions, the daemon ticks on a fake clock, the host approves
drafts, and every approved text appears on the forum exactly once, across a restart too."""
from __future__ import annotations

from collections import Counter

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.drafts.pictures import mark_of
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import ConfigError
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.store import Store
from legends_forum_support import (
    GAME, PASSWORD_ENV, legends_board, msk, start_daemon, tick_at, write_installation,
)
from localforum_support import FakeClock

NIGHT1 = {"Аскон": "Шпионаж Кума", "gosha100": "Защита 3", "Robozik": "Атака 5 Аскон"}


def approve_all(config, store: Store) -> None:
    """The host approves: the first pending draft through the CLI, the rest through the store."""
    pending = store.drafts(status="pending", game_id=GAME)
    if pending:
        assert main(["drafts", "--config", str(config), "approve", str(pending[0]["id"]), "--by", "host"]) == 0
    for draft in pending[1:]:
        store.approve(draft["id"], by="host")


def kinds(store: Store, phase_key: str) -> Counter:
    return Counter(d["kind"] for d in store.drafts(game_id=GAME) if d["phase_key"] == phase_key)


def on_forum_once(server: LocalForum, store: Store) -> None:
    """Each sent draft is on the board once: a host post in the thread or a host PM to its target."""
    board = server.board
    host_posts = [p.bbcode for p in board.visible_posts(2) if board.users[p.author_id].admin]
    host_pms = [(board.users[m.recipient_id].name, m.bbcode) for m in board.pms.values()
                if board.users[m.sender_id].admin]
    for draft in store.drafts(game_id=GAME):
        # a draft's file goes where its mark is (the record post's archive): its text up to there
        body = draft["body"].split(mark_of(draft["pictures"]))[0].rstrip() if draft["pictures"] else draft["body"].rstrip()
        found = (sum(body in text for text in host_posts) if draft["target"] == "thread"
                 else sum(to == draft["target"] and body in text for to, text in host_pms))
        assert found == (1 if draft["status"] == "sent" else 0), (draft["id"], draft["kind"], draft["status"])


def test_a_legends_game_on_the_local_forum(legends_game, capsys):
    server, clock, config, players = legends_game
    daemon = start_daemon(config, server, clock, publish=True)
    tick_at(daemon, clock, msk(2, 20))
    assert [p["key"] for p in daemon.store.phases(GAME)] == ["night-1"]

    # night 1: one PM of orders each; attacks are refused on night 1 at receipt
    clock.moment = msk(2, 22)
    for nick, text in NIGHT1.items():
        players[nick].pm("Ночь 1", text)
    tick_at(daemon, clock, msk(2, 22, 30))
    receipts = [d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "receipt"]
    assert sorted(d["target"] for d in receipts) == sorted(NIGHT1)
    assert all(d["status"] == "sent" and d["subject"] == "Re: Ночь 1" for d in receipts)   # [approval] receipt = false
    refused = next(d for d in receipts if d["target"] == "Robozik")
    assert "Атака 5 Аскон" in refused["body"]

    # night 1 resolves once at its deadline: the two reports and the spy's PMs wait for the host
    assert tick_at(daemon, clock, msk(3, 10, 5)).resolved == [f"{GAME}/night-1"]
    night = kinds(daemon.store, "night-1")
    assert night["technical_report"] == night["literary_report"] == 1
    assert night["role_reveal"] >= 1 and night["spy_result"] == 1
    spy = next(d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "spy_result")
    assert spy["target"] == "Аскон" and "Единорог" in spy["body"]
    assert all(d["status"] == "pending" for d in daemon.store.drafts(game_id=GAME) if d["phase_key"] == "night-1"
               and d["kind"] != "receipt")
    approve_all(config, daemon.store)

    # day 1 takes no lynch; night 2 passes quietly
    assert tick_at(daemon, clock, msk(3, 21, 5)).resolved == [f"{GAME}/day-1"]
    assert "Линча нет" in next(d["body"] for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "lynch_report")
    approve_all(config, daemon.store)
    assert tick_at(daemon, clock, msk(4, 10, 5)).resolved == [f"{GAME}/night-2"]

    # day 2: votes in the thread
    clock.moment = msk(4, 12, 30)
    first_vote = players["Аскон"].post("Доброе утро. Голосую за [color=blue]Кума[/color]")
    latin = players["gosha100"].post("[color=blue]Rоbоzik[/color]")          # Cyrillic о in a Latin nick
    tick_at(daemon, clock, msk(4, 13))
    clock.moment = msk(4, 13, 10)
    players["Robozik"].post("[color=blue]Аскон[/color]")
    clock.moment = msk(4, 13, 20)
    server.board.edit_post(int(latin), "Передумал: [color=blue]Аскон[/color]")  # before the deadline: counts
    tick_at(daemon, clock, msk(4, 13, 30))
    clock.moment = msk(4, 20, 30)
    quoted = players["Кума"].post("[quote=Аскон]Голосую за [color=blue]Кума[/color][/quote]\n"
                                  "Почему я? Голосую за [color=blue]Аскона[/color]")     # declined nickname
    report = tick_at(daemon, clock, msk(4, 20, 40))
    assert report.resolved == []
    running = [d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "vote_count"]
    assert [d["ref"] for d in running] == ["vote_count:day-2:2"]        # 3h interval from 12:00: one per slot
    assert main(["votes", "--config", str(config), GAME]) == 0
    now_count = capsys.readouterr().out
    assert "Аскон — 3" in now_count and f"viewtopic.php?p={quoted}#p{quoted}" in now_count
    assert main(["votes", "--config", str(config), GAME, "--draft"]) == 0
    on_demand = [d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "vote_count" and d["ref"] is None]
    assert len(on_demand) == 1 and "Аскон — 3" in on_demand[0]["body"] and "draft" in capsys.readouterr().out

    clock.moment = msk(4, 21, 2)
    server.board.edit_post(int(quoted), "Нет, я за [color=blue]gosha100[/color]")  # after the deadline: not counted
    assert tick_at(daemon, clock, msk(4, 21, 5)).resolved == [f"{GAME}/day-2"]
    votes = daemon.store.votes(GAME, "day-2")
    assert {v["voter"]: v["target"] for v in votes if v["counted"]} == {
        "Аскон": "Кума", "gosha100": "Аскон", "Robozik": "Аскон", "Кума": "Аскон"}
    assert [(v["voter"], v["text"], v["reason"]) for v in votes if not v["counted"]] == [
        ("Кума", "Кума", "quoted"), ("Кума", "gosha100", "after_deadline")]
    lynch = next(d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "lynch_report" and d["phase_key"] == "day-2")
    assert "Линч: [b]Аскон[/b]" in lynch["body"]
    assert f"[url={server.url}viewtopic.php?p={first_vote}#p{first_vote}]Аскон[/url]" in lynch["body"]
    # the day ends in one post: the lynch report with the count, no final vote count beside it
    assert not [d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "vote_count_final"]

    # the host approves everything; publishing is at most once, also after the daemon restarts
    approve_all(config, daemon.store)
    tick_at(daemon, clock, msk(4, 21, 10))
    daemon.store.close()
    daemon = start_daemon(config, server, clock, publish=True)
    tick_at(daemon, clock, msk(4, 21, 20))
    tick_at(daemon, clock, msk(5, 12))
    store = daemon.store
    assert Counter(r["phase_key"] for r in store.resolutions(GAME)) == {
        "night-1": 1, "day-1": 1, "night-2": 1, "day-2": 1}
    assert store.phases(GAME, "pending") == []                   # the Nature clan won
    assert all(d["status"] == "sent" for d in store.drafts(game_id=GAME))
    on_forum_once(server, store)


def test_the_host_finishes_a_game_and_nothing_resolves_after(legends_game, capsys):
    server, clock, config, players = legends_game
    daemon = start_daemon(config, server, clock, publish=True)
    tick_at(daemon, clock, msk(2, 20))
    assert tick_at(daemon, clock, msk(3, 10, 5)).resolved == [f"{GAME}/night-1"]
    assert main(["finish", "--config", str(config), GAME, "--winner", "Клан Природы", "--by", "host"]) == 0
    assert "finished" in capsys.readouterr().out
    assert main(["finish", "--config", str(config), GAME, "--winner", "Клан Хаоса"]) == 1     # only once
    row = daemon.store.game(GAME)
    assert (row["winner"], row["finished_by"]) == ("Клан Природы", "host")
    announcement = next(d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "final_announcement")
    assert "Победитель: [b]Клан Природы[/b]" in announcement["body"] and announcement["status"] == "pending"
    assert tick_at(daemon, clock, msk(5, 12)).resolved == []
    assert [p["status"] for p in daemon.store.phases(GAME)] == ["resolved", "pending"]
    daemon.store.approve(announcement["id"], by="host")
    tick_at(daemon, clock, msk(5, 12, 5))
    on_forum_once(server, daemon.store)


def test_the_continuous_regime_is_a_notice_for_the_host(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        # Эфрит and Гидра start dead: the living warriors of both clans are immune, nobody can be lynched
        roles = 'dead = ["gosha100", "Кума"]\n'
        everyone = {"Аскон": "Вампир", "gosha100": "Эфрит", "Robozik": "Дракон", "Кума": "Гидра"}
        # the host's own notices cannot be switched to "no approval needed": naming them is a config error
        refused = write_installation(tmp_path, server, '[approval]\nhost_notice = false\n\n[setup]\n' + roles,
                                     roles=everyone)
        with pytest.raises(ConfigError, match=r"approval\.host_notice: unknown key"):
            load_installation(refused)
        config = write_installation(tmp_path, server, '[setup]\n' + roles, roles=everyone)
        daemon = start_daemon(config, server, clock, publish=True)
        tick_at(daemon, clock, msk(2, 20))
        assert tick_at(daemon, clock, msk(3, 10, 5)).resolved == [f"{GAME}/night-1"]
        notices = [d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "host_notice"]
        assert len(notices) == 1 and notices[0]["status"] == "pending"     # always needs the host's approval
        assert "непрерывный режим" in notices[0]["body"]
        tick_at(daemon, clock, msk(3, 10, 10))
        assert not any(notices[0]["body"] in p.bbcode for p in server.board.visible_posts(2))
        assert [p["key"] for p in daemon.store.phases(GAME)] == ["night-1", "night-2"]
