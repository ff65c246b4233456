"""`forumgm accept-thread --config FILE GAME`: the thread really is as the forum shows it now.

A sync that finds fewer pages than before or many posts gone at once stops the game instead of
taking it as fact. After the host has looked at the thread and found it right (a moderator did
remove those posts), this lets the next sync read it from page 1 and take it as it is.
"""
from __future__ import annotations

import getpass

from forumgm.daemon.cli.common import add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("accept-thread", help="take a game's thread as the forum shows it now "
                                   "(after a sync found pages or posts gone)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("--by", default=None, help="who acts (default: the login name); written to the audit log")


def run(args) -> int:
    from forumgm.daemon.runtime.loop import register as register_games
    from forumgm.daemon.tick.sync import accept_thread

    opened = open_game(args.config, args.game, "accept-thread")
    if opened is None:
        return 2
    installation, store, game = opened
    register_games(store, installation)
    accept_thread(store, game.id, args.by or getpass.getuser())
    print(f"{game.id}: the next sync reads the thread from page 1 and takes it as the forum shows it")
    return 0
