"""`forumgm pause --config FILE GAME` and `forumgm resume --config FILE GAME`."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import actor, add_by_argument, add_config_argument, open_game


def register(subparsers) -> None:
    for name, help_text in (("pause", "pause a game: nothing resolves until it is resumed"),
                            ("resume", "resume a paused game (a deadline passed meanwhile resolves at once)")):
        parser = subparsers.add_parser(name, help=help_text)
        add_config_argument(parser)
        parser.add_argument("game", help="game id")
        add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.host_actions.pause import pause_game, resume_game
    from forumgm.daemon.store import StoreError

    opened = open_game(args.config, args.game, args.command)
    if opened is None:
        return 2
    _installation, store, _game = opened
    try:
        if args.command == "pause":
            pause_game(store, args.game, actor(args), store.now())
        else:
            resume_game(store, args.game, actor(args))
    except StoreError as error:
        print(f"forumgm {args.command}: {error}", file=sys.stderr)
        return 1
    print(f"{args.game} {'paused: nothing resolves until forumgm resume' if args.command == 'pause' else 'resumed'}")
    return 0
