"""`forumgm localforum`: serve the local phpBB-compatible forum until interrupted."""
from __future__ import annotations


def register(subparsers) -> None:
    parser = subparsers.add_parser("localforum", help="serve the local phpBB-compatible forum")
    parser.add_argument("--port", type=int, default=8084)
    parser.add_argument("--host-password", default="host", help="password of the account Ведущий")
    parser.add_argument("--player-password", default="player", help="password of every player account")


def run(args) -> int:
    from forumgm.daemon.demo import HOST, PLAYERS, DemoClock, demo_board
    from forumgm.daemon.localforum import LocalForum

    board = demo_board(DemoClock(speed=1), args.host_password)
    for nick in PLAYERS:
        board.user_named(nick).password = args.player_password
    server = LocalForum(board, port=args.port, quiet=False)
    print(f"local forum at {server.url}viewtopic.php?t=2 — accounts: {HOST}, {', '.join(PLAYERS)}; Ctrl-C stops")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0
