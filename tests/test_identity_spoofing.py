"""Who writes is the forum account, exactly: look-alike accounts never act as a player.

An account named like a player's alias («гоша» for gosha100) or the nick with an invisible
character (a zero-width space, a bidi control) once had its PMs taken as the player's orders.
Here they PM the host over HTTP on the local forum; their orders are nobody's (the host gets a
notice of a PM no game takes), while the real player's orders count.
"""
import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.notices import KIND
from forumgm.engines.texts import show_invisible
from legends_forum_support import (
    GAME, PASSWORD_ENV, Player, legends_board, msk, start_daemon, write_installation,
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
