"""`forumgm rules accept --config FILE GAME`: a running game goes on under its changed [rules]."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("rules", help="a running game's rule table (frozen at the deal)")
    actions = parser.add_subparsers(dest="action", required=True)
    accept = actions.add_parser("accept", help="accept a changed [rules] table of a running game")
    add_config_argument(accept)
    accept.add_argument("game", help="game id")


def run(args) -> int:
    from forumgm.daemon.tick.rules_freeze import accept_change, toml_value

    opened = open_game(args.config, args.game, "rules")
    if opened is None:
        return 2
    _, store, game = opened
    changed = accept_change(game, store)
    if not changed:
        print(f"forumgm rules: game {args.game} is not dealt yet or its rules did not change; nothing to accept",
              file=sys.stderr)
        return 1
    for change in changed:
        print(f"  {change.key}: {toml_value(change.old) or '(absent)'} → {toml_value(change.new) or '(absent)'}")
    print(f"{args.game}: the changed rules are accepted; the game goes on under them "
          "(a running daemon takes them at its next tick)")
    return 0

