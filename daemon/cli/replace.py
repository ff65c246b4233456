"""`forumgm replace --config FILE GAME OLD_NICK NEW_NICK`: a new forum account takes over a player."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import actor, add_by_argument, add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("replace", help="a new forum account takes over a player's seat from now on")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("old", metavar="OLD_NICK", help="the player who leaves")
    parser.add_argument("new", metavar="NEW_NICK", help="the forum account that takes over")
    parser.add_argument("--gender", choices=("f", "m"), default=None,
                        help="the new player's grammatical gender, which the texts agree with (default: guessed "
                             "from the nick, else sentences needing none)")
    add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.host_actions.replace import replace_player
    from forumgm.daemon.store import StoreError

    opened = open_game(args.config, args.game, "replace")
    if opened is None:
        return 2
    _installation, store, game = opened
    try:
        done = replace_player(game, store, args.old, args.new, actor(args), store.now(), args.gender)
    except StoreError as error:
        print(f"forumgm replace: {error}", file=sys.stderr)
        return 1
    seat = "" if done["seat"] == done["old"] else f" (the seat dealt as {done['seat']})"
    print(f"{args.game}: {done['new']} plays for {done['old']}{seat} from now on ({done['at']}); a running daemon "
          f"takes it at its next tick. What {done['old']} posted and sent before stays his; his PMs from now on reach "
          f"you as notices, and PMs not sent yet go to {done['new']}. The command does not reach the forum: the daemon "
          f"asks it at its next tick whether the account {done['new']} exists, and tells you if not")
    return 0
