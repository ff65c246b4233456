"""`forumgm localforum`: serve the local phpBB-compatible forum, on real time, until interrupted.

It is the forum to try an installation config on before a real board: the host's account
(Ведущий) and one account per player, a game thread, BBCode, editing and PMs. Passwords come
from environment variables, never from the command line (where `ps` shows them).
"""
from __future__ import annotations

import os
import sys

HOST_PASSWORD_ENV = "FORUMGM_PASSWORD"          # the variable the example config reads too
PLAYER_PASSWORD_ENV = "FORUMGM_LOCALFORUM_PLAYER_PASSWORD"
DEFAULT_HOST_PASSWORD, DEFAULT_PLAYER_PASSWORD = "host", "player"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "localforum", help="serve the local phpBB-compatible forum (passwords: $FORUMGM_PASSWORD for Ведущий, "
                           f"${PLAYER_PASSWORD_ENV} for the players)")
    parser.add_argument("--port", type=int, default=8084, help="default 8084; 0: a free port")
    parser.add_argument("--player", action="append", metavar="NICK", dest="players",
                        help="a player account (repeat for each; default: the demo's players)")


def run(args) -> int:
    from forumgm.daemon.offline.demo import HOST, PLAYERS
    from forumgm.daemon.offline.localforum import LocalForum

    players = args.players or list(PLAYERS)
    if len({nick.casefold() for nick in [HOST, *players]}) != len(players) + 1:
        print(f"forumgm localforum: every --player must be a different name, and not {HOST}", file=sys.stderr)
        return 2
    board = local_board(players, os.environ.get(HOST_PASSWORD_ENV) or DEFAULT_HOST_PASSWORD,
                        os.environ.get(PLAYER_PASSWORD_ENV) or DEFAULT_PLAYER_PASSWORD)
    server = LocalForum(board, port=args.port, quiet=False)
    print(f"local forum at {server.url}viewtopic.php?t=2 (the game thread) — accounts: {HOST}, "
          f"{', '.join(players)}; passwords from ${HOST_PASSWORD_ENV} and ${PLAYER_PASSWORD_ENV} "
          f"(unset: {DEFAULT_HOST_PASSWORD!r} and {DEFAULT_PLAYER_PASSWORD!r}); Ctrl-C stops", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def local_board(players: list[str], host_password: str, player_password: str):
    """A board on the real clock: posts are timed as the daemon's SystemClock expects."""
    from forumgm.daemon.offline.demo import HOST
    from forumgm.daemon.offline.localforum import Board

    board = Board(title="forumgm local board")
    board.add_user(HOST, host_password, admin=True)
    for nick in players:
        board.add_user(nick, player_password)
    board.add_topic(HOST, "Игра", "Тема игры. Днём голосуем ником [color=blue]синим цветом[/color], "
                                  "ночные ходы — в личку ведущему.")
    return board
