"""`forumgm deadline --config FILE GAME --extend 2h | --shorten 30m | --set "YYYY-MM-DD HH:MM"`."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import actor, add_by_argument, add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("deadline", help="move the open phase's deadline (later phases follow it)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--extend", metavar="SPAN", help="later by this much: 2h, 90m, 1d 6h (--extend=-30m: earlier)")
    how.add_argument("--shorten", metavar="SPAN", help="earlier by this much: 30m, 1h")
    how.add_argument("--set", metavar='"YYYY-MM-DD HH:MM"', help="the new deadline in the game's time zone")
    add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.host_actions.deadline import move_deadline, parse_local, parse_span
    from forumgm.daemon.store import StoreError

    opened = open_game(args.config, args.game, "deadline")
    if opened is None:
        return 2
    _installation, store, game = opened
    zone = game.config.time_zone
    try:
        extend = parse_span(args.extend) if args.extend else -parse_span(args.shorten) if args.shorten else None
        to = parse_local(args.set, zone) if args.set else None
    except ValueError as error:
        print(f"forumgm deadline: {error}", file=sys.stderr)
        return 2
    try:
        moved = move_deadline(store, args.game, actor(args), store.now(), extend=extend, to=to)
    except StoreError as error:
        print(f"forumgm deadline: {error}", file=sys.stderr)
        return 1
    print(f"{args.game} {moved.phase}: deadline {moved.old.astimezone(zone):%Y-%m-%d %H:%M} -> "
          f"{moved.new.astimezone(zone):%Y-%m-%d %H:%M} ({zone.key})")
    return 0
