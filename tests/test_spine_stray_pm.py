"""A PM to the host that no game of the forum takes is one notice for the host, never silence."""
from __future__ import annotations

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.stray_pms import draft_stray_pms
from legends_forum_support import (
    GAME, HOST, PASSWORD_ENV, ROLES, Player, legends_board, msk, players_toml, start_daemon, tick_at,
    write_installation,
)
from localforum_support import FakeClock

OTHER_GAME = "legends-b"
OTHER_ROLES = dict(zip(("Лель", "Мира", "Ольх", "Ясь"), ROLES.values()))
GUEST = "Гость"
LOOK_ALIKE = "Кумa"         # a Latin "a": not the player Кума
FULLWIDTH = "\uff3b"   # a player's "[" as it reaches a post (engines/texts.py)


def add_other_game(folder, board) -> None:
    """A second Legends game on the same forum, in its own topic, with its own players."""
    topic = board.add_topic(HOST, "Легенды: вторая партия", "Голосуем [color=blue]ником[/color].")
    own = (folder / "game.toml").read_text(encoding="utf-8")
    other = (own.replace(f'id = "{GAME}"', f'id = "{OTHER_GAME}"')
             .replace("viewtopic.php?t=2", f"viewtopic.php?t={topic.id}")
             .replace(players_toml("players"), players_toml("players", OTHER_ROLES)))
    (folder / "game-b.toml").write_text(other, encoding="utf-8")
    config = folder / "forumgm.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('games = ["game.toml"]',
                                                                  'games = ["game.toml", "game-b.toml"]'),
                      encoding="utf-8")


@pytest.fixture
def forum(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 19))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    board = legends_board(clock, spectators=(*OTHER_ROLES, GUEST, LOOK_ALIKE))
    with LocalForum(board) as server:
        config = write_installation(tmp_path, server, "[approval]\nreceipt = false\n")
        add_other_game(tmp_path, board)
        people = {nick: Player(server, clock, nick) for nick in (*ROLES, *OTHER_ROLES, GUEST, LOOK_ALIKE)}
        yield server, clock, config, people


def notices(store) -> list[dict]:
    return [d for d in store.drafts() if d["ref"] and d["ref"].startswith("stray_pm:")]


def test_a_pm_no_game_takes_is_one_notice_for_the_host(forum):
    server, clock, config, people = forum
    people[GUEST].pm("Старое", "до того, как ведущий запустил игры")     # old mail: before the daemon
    clock.moment = msk(2, 20)
    daemon = start_daemon(config, server, clock, publish=True)
    tick_at(daemon, clock, msk(2, 20))

    clock.moment = msk(2, 22)
    people["Аскон"].pm("Ночь 1", "Шпионаж Кума")
    people["Лель"].pm("Ночь 1", "Шпионаж Мира")                 # the other game's player: its order
    guest_pm = people[GUEST].pm("Вопрос [b]ведущему[/b]", "Можно [zz]вступить[/zz] в игру?")
    impostor_pm = people[LOOK_ALIKE].pm("Ночь 1", "Шпионаж Аскон")
    tick_at(daemon, clock, msk(2, 22, 30))
    tick_at(daemon, clock, msk(2, 22, 40))        # a later tick drafts nothing twice and posts nothing

    assert [o["sender"] for o in daemon.store.orders(GAME)] == ["Аскон"]
    assert [o["sender"] for o in daemon.store.orders(OTHER_GAME)] == ["Лель"]
    drafted = notices(daemon.store)
    assert sorted(d["ref"] for d in drafted) == sorted([f"stray_pm:local:{guest_pm}", f"stray_pm:local:{impostor_pm}"])
    for draft in drafted:
        assert (draft["game_id"], draft["kind"], draft["target"]) == (OTHER_GAME, "host_notice", HOST)   # first by id
        assert draft["needs_approval"] == 1 and draft["status"] == "pending"
    guest, impostor = sorted(drafted, key=lambda d: d["ref"] != f"stray_pm:local:{guest_pm}")
    assert f"От: {GUEST}" in guest["body"] and "Отправлено: 02.03.2026 22:00 (МСК)" in guest["body"]
    assert f"Тема: Вопрос {FULLWIDTH}b]ведущему{FULLWIDTH}/b]" in guest["body"]           # escaped: no BBCode opens
    assert f"Можно {FULLWIDTH}zz]вступить{FULLWIDTH}/zz] в игру?" in guest["body"]
    assert f"От: {LOOK_ALIKE}" in impostor["body"] and "Шпионаж Аскон" in impostor["body"]
    assert f"({OTHER_GAME}, {GAME})" in impostor["body"]
    sent = [server.board.users[m.recipient_id].name for m in server.board.pms.values()
            if server.board.users[m.sender_id].admin]
    assert sorted(sent) == ["Аскон", "Лель"]           # the receipts went out; the notices wait for the host


def test_a_rejected_notice_is_not_drafted_again(forum):
    server, clock, config, people = forum
    clock.moment = msk(2, 20)
    daemon = start_daemon(config, server, clock)
    people[GUEST].pm("Привет", "Я просто зритель")
    tick_at(daemon, clock, msk(2, 20, 10))
    [notice] = notices(daemon.store)
    daemon.store.reject(notice["id"], by="host")
    tick_at(daemon, clock, msk(2, 20, 20))
    assert [d["status"] for d in notices(daemon.store)] == ["rejected"]


def test_a_pm_from_a_player_of_a_finished_game_is_a_notice_that_says_so(forum):
    from forumgm.daemon.tick.finish import finish_game

    server, clock, config, people = forum
    clock.moment = msk(2, 20)
    daemon = start_daemon(config, server, clock, publish=True)
    tick_at(daemon, clock, msk(2, 20))
    [other] = [game for game in daemon.games if game.id == OTHER_GAME]
    finish_game(other, daemon.store, "Клан Порядка", "host", clock.now())
    clock.moment = msk(2, 22)
    late = people["Лель"].pm("Ночь 1", "Шпионаж Мира")
    tick_at(daemon, clock, msk(2, 22, 30))
    assert daemon.store.orders(OTHER_GAME) == []
    [notice] = notices(daemon.store)
    assert notice["ref"] == f"stray_pm:local:{late}"
    assert f"Отправитель Лель — игрок уже оконченной игры ({OTHER_GAME})" in notice["body"]
    assert "не записан игроком" not in notice["body"]


def test_a_tick_after_no_new_mail_reads_no_settled_pm_again(forum, monkeypatch):
    # a month of mail must not make every tick slower: a PM a game took as an order, or one a notice
    # already answers, is not loaded from the store again
    server, clock, config, people = forum
    clock.moment = msk(2, 20)
    daemon = start_daemon(config, server, clock)
    tick_at(daemon, clock, msk(2, 20))
    clock.moment = msk(2, 22)
    order_pm = people["Аскон"].pm("Ночь 1", "Шпионаж Кума")
    guest_pm = people[GUEST].pm("Вопрос", "Можно вступить в игру?")
    tick_at(daemon, clock, msk(2, 22, 30))
    assert [o["pm_id"] for o in daemon.store.orders(GAME)] == [order_pm]
    assert [d["ref"] for d in notices(daemon.store)] == [f"stray_pm:local:{guest_pm}"]

    loaded: list[str] = []
    rows = daemon.store._rows

    def counted(sql, params=()):
        found = rows(sql, params)
        loaded.extend(row["pm_id"] for row in found if {"pm_id", "html"} <= row.keys())   # rows of stored PMs
        return found

    monkeypatch.setattr(daemon.store, "_rows", counted)
    assert draft_stray_pms(daemon.games, daemon.store) == []
    assert loaded == []
