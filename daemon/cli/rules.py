"""`forumgm rules --config FILE GAME --accept-change`: run a started game under its changed [rules]."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("rules", help="accept a changed [rules] table of a running game")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("--accept-change", action="store_true", required=True,
                        help="required: the game continues under the rules now in its config")


def run(args) -> int:
    from forumgm.daemon.tick.rules_freeze import accept_change

    opened = open_game(args.config, args.game, "rules")
    if opened is None:
        return 2
    _, store, game = opened
    if not accept_change(game, store):
        print(f"forumgm rules: game {args.game} is not started or its rules did not change; nothing to accept",
              file=sys.stderr)
        return 1
    print(f"{args.game}: the changed rules are accepted; the next report says the host changed them")
    return 0
