"""Who writes is the forum account, exactly: look-alike accounts never act as a player.

An account named like a player's alias («гоша» for gosha100) or the nick with an invisible
character (a zero-width space, a bidi control) once had its PMs taken as the player's orders.
Here they PM the host over HTTP on the local forum; their orders are nobody's (the host gets a
notice of a PM no game takes), while the real player's orders count.
"""
import unicodedata

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.notices import KIND
from forumgm.daemon.tick.votes import vote_versions
from forumgm.engines.texts import show_invisible
from legends_forum_support import (
    GAME, PASSWORD_ENV, ROLES, Player, legends_board, msk, start_daemon, write_installation,
)
from localforum_support import FakeClock

SPOOFERS = ("гоша", "gosha100\u200b", "\u202egosha100", "gosha\u2060100")


@pytest.fixture
def game(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock, spectators=SPOOFERS)) as server:
        daemon = start_daemon(write_installation(tmp_path, server), server, clock)
        yield server, clock, daemon
        daemon.store.close()


def test_look_alike_accounts_send_no_orders_in_a_players_name(game):
    server, clock, daemon = game
    clock.moment = msk(2, 22)
    for spoofer in SPOOFERS:
        Player(server, clock, spoofer).pm("Ночь 1", "Шпионаж Кума")
    Player(server, clock, "gosha100").pm("Ночь 1", "Шпионаж Аскон")
    daemon.tick()
    orders = daemon.store.orders(GAME, "night-1")
    assert [(o["sender"], o["raw_text"]) for o in orders] == [("gosha100", "Шпионаж Аскон")]
    notices = [d for d in daemon.store.drafts() if d["kind"] == KIND]
    shown = "\n".join(d["body"] for d in notices)
    assert all(show_invisible(spoofer) in shown for spoofer in SPOOFERS), shown
    assert "От: gosha100<U+200B>" in shown


NFC_NAME = "Лёва"
NFD_NAME = "Ле\u0308ва"       # the same letters to every reader, another account to the board


@pytest.fixture
def accented(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock, spectators=(NFC_NAME, NFD_NAME))) as server:
        config = write_installation(tmp_path, server, roles={**ROLES, NFC_NAME: "Гном"})
        daemon = start_daemon(config, server, clock)
        yield server, clock, daemon
        daemon.store.close()


def test_an_account_spelt_with_a_combining_accent_is_not_the_player(accented):
    """Names are compared after NFC, so «Ле\u0308ва» was «Лёва»: on a board that let both register,
    the second account sent orders and votes as the player. The player is the account first seen
    with the name; the other is told to the host, and nothing of it is dropped unseen."""
    server, clock, daemon = accented
    assert unicodedata.normalize("NFC", NFD_NAME) == NFC_NAME and NFD_NAME != NFC_NAME
    clock.moment = msk(2, 22)
    Player(server, clock, NFC_NAME).pm("Ночь 1", "Шпионаж Кума")
    daemon.tick()
    clock.moment = msk(2, 22, 30)
    impostor = Player(server, clock, NFD_NAME)
    impostor.pm("Ночь 1", "Шпионаж Аскон")
    impostor.post("Я тут, [color=blue]Аскон[/color]")
    daemon.tick()
    orders = daemon.store.orders(GAME, "night-1")
    assert [(o["sender"], o["raw_text"]) for o in orders] == [(NFC_NAME, "Шпионаж Кума")]
    real, fake = (server.board.user_named(name).id for name in (NFC_NAME, NFD_NAME))
    notices = [d for d in daemon.store.drafts() if d["kind"] == KIND]
    stray = [d["body"] for d in notices if d["subject"] == "ЛС не от игрока"]
    assert len(stray) == 1 and "Шпионаж Аскон" in stray[0]
    assert f"(id {fake}) — не аккаунт игрока" in stray[0] and f"другой аккаунт (id {real}" in stray[0]
    [posted] = [d["body"] for d in notices if d["subject"] == "Аккаунт под именем игрока"]
    assert f"(id {fake}): его имя читается как ник игрока {NFC_NAME}" in posted and f"у игрока id {real}" in posted
    daemon.tick()                                       # told once
    assert len([d for d in daemon.store.drafts() if d["kind"] == KIND]) == len(notices)
    # its blue nick in the thread is a non-player's vote, under a name no player has
    [version] = [v for v in vote_versions(daemon.store, GAME, None, msk(3, 0)) if v.author.startswith(NFD_NAME)]
    assert version.author == f"{NFD_NAME} (другой аккаунт, id {fake})"


def test_a_look_alikes_thread_vote_is_a_non_players():
    from forumgm.daemon.tick.look_alikes import shown_as, the_players

    bound = {NFC_NAME: "7"}
    assert the_players(bound, NFD_NAME, "8") == "7" and the_players(bound, NFC_NAME, "7") is None
    assert the_players(bound, NFD_NAME, None) is None and the_players({}, NFD_NAME, "8") is None
    assert shown_as(NFD_NAME, "8") == f"{NFD_NAME} (другой аккаунт, id 8)"
