"""Inputs real boards produce that are no game input: a moderator's soft-deleted or unapproved
post (phpBB and MyBB show it to the host, marked), and PMs sent before the game was dealt."""
from dataclasses import replace
from datetime import timedelta

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.sync import sync_game
from forumgm.daemon.tick.votes import vote_versions
from forumgm.engines.tally import count_votes
from legends_forum_support import GAME, PASSWORD_ENV, Player, legends_board, msk, start_daemon, write_installation
from localforum_support import HOST, FakeClock, game_store, host_forum, seeded_board, thread_url
from test_tally_count import ROSTER, post, reasons, rules, DEADLINE, counted


def test_a_hidden_post_is_no_vote_and_the_tally_says_why():
    hidden = replace(post("7", "Кума", 10, "Аскон"), hidden=True)
    tally = count_votes([post("5", "gosha100", 5, "Аскон"), hidden], ROSTER, rules(), DEADLINE)
    assert counted(tally) == {"gosha100": "Аскон"}
    assert reasons(tally) == [("Кума", "Аскон", "hidden_post")]


def test_a_post_soft_deleted_by_a_moderator_is_read_as_hidden_and_does_not_count(tmp_path):
    clock = FakeClock()
    with LocalForum(seeded_board(clock)) as server:
        askon = server.board.reply("Аскон", 2, "Голосую за [color=blue]Кума[/color]")
        kuma = server.board.reply("Кума", 2, "Голосую за [color=blue]Аскон[/color]")
        server.board.soft_delete_post(kuma.id)
        store = game_store(tmp_path, server, clock)
        game = {"id": "g1", "thread_url": thread_url(server), "engine": "phpbb"}
        assert sync_game(game, host_forum(server, clock), store, clock.now()).ok
        rows = {row["post_id"]: row for row in store.posts("g1")}
        assert (rows[str(askon.id)]["hidden"], rows[str(kuma.id)]["hidden"]) == (0, 1)   # the host sees both
        tally = count_votes(vote_versions(store, "g1", None, clock.now() + timedelta(hours=1), HOST), ROSTER, rules(),
                            clock.now() + timedelta(hours=1))
        assert counted(tally) == {"Аскон": "Кума"}
        assert reasons(tally) == [("Кума", "Аскон", "hidden_post")]
        server.board.posts[kuma.id].soft_deleted = False          # the moderator restores it
        assert sync_game(game, host_forum(server, clock), store, clock.now()).ok
        assert {row["post_id"]: row["hidden"] for row in store.posts("g1")}[str(kuma.id)] == 0


@pytest.fixture
def legends(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 19))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        yield server, clock, write_installation(tmp_path, server)


def test_a_pm_sent_before_the_game_was_dealt_is_no_order_of_it(legends):
    """The host's account played another game on this board: a player's PM from before this game
    existed gets no receipt and is no order; one sent after the deal is."""
    server, clock, config = legends
    Player(server, clock, "Аскон").pm("Прошлая игра", "Шпионаж Кума")
    clock.moment = msk(2, 20)
    daemon = start_daemon(config, server, clock)
    assert daemon.tick().errors == []                      # dealt now, at 20:00
    assert daemon.store.orders(GAME) == []
    assert [d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "receipt"] == []
    clock.moment = msk(2, 21, 30)
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    clock.moment = msk(2, 21, 35)
    assert daemon.tick().errors == []
    assert [o["sender"] for o in daemon.store.orders(GAME)] == ["Аскон"]
    assert len([d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "receipt"]) == 1
    daemon.store.close()


def test_orders_sent_after_the_opening_count_though_the_daemon_dealt_the_game_later(legends):
    """The first night opened at 21:00 with the daemon down: it came back and dealt the game at
    21:30. A PM of 21:05 is an order of night 1 with its receipt (it was dropped as old mail, being
    older than the deal); one of 20:40, before the opening and the deal, is no order of this game."""
    server, clock, config = legends
    clock.moment = msk(2, 20, 40)
    Player(server, clock, "gosha100").pm("Прошлая игра", "Шпионаж Кума")
    clock.moment = msk(2, 21, 5)
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    clock.moment = msk(2, 21, 30)
    daemon = start_daemon(config, server, clock)
    assert daemon.tick().errors == []                      # dealt now, half an hour after the opening
    [phase] = daemon.store.phases(GAME)
    assert [(o["sender"], o["phase_key"]) for o in daemon.store.orders(GAME)] == [("Аскон", phase["key"])]
    [receipt] = [d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "receipt"]
    assert receipt["target"] == "Аскон" and "Шпионаж" in receipt["body"]
    assert "не началась" not in receipt["body"]
    daemon.store.close()


def test_a_pm_sent_after_the_deal_but_before_the_game_opened_is_answered_and_is_no_order(legends):
    """The roles went out at 20:00, the first night opens at 21:00: a PM of 20:03 is no order of
    night 1 (it got a receipt as one on phpBB, MyBB and SMF); its answer says the game has not
    started and when it does, once, approved as receipts are."""
    server, clock, config = legends
    clock.moment = msk(2, 20)
    daemon = start_daemon(config, server, clock)
    assert daemon.tick().errors == []                      # dealt now, at 20:00
    clock.moment = msk(2, 20, 3)
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    for minute in (10, 20):
        clock.moment = msk(2, 20, minute)
        assert daemon.tick().errors == []
    [phase] = daemon.store.phases(GAME)
    assert daemon.store.orders(GAME, phase["key"]) == []
    [early] = daemon.store.orders(GAME)
    assert early["phase_key"] == phase["key"] + "/early" and early["sender"] == "Аскон"
    [receipt] = [d for d in daemon.store.drafts(game_id=GAME) if d["kind"] == "receipt"]
    assert receipt["target"] == "Аскон" and receipt["subject"] == "Re: Ночь 1"
    assert receipt["body"].startswith("Аскон, игра ещё не началась: приказы принимаются с 02.03.2026 21:00.")
    assert "• «Шпионаж Кума» — игра ещё не началась" in receipt["body"]
    clock.moment = msk(2, 21, 5)
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    clock.moment = msk(2, 21, 10)
    assert daemon.tick().errors == []
    assert [o["sender"] for o in daemon.store.orders(GAME, phase["key"])] == ["Аскон"]
    daemon.store.close()
