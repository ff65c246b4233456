"""`forumgm deadline --config FILE GAME --extend 2ч | --shorten 30m | --set "ДД.ММ.ГГГГ ЧЧ:ММ"`."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import actor, add_by_argument, add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("deadline", help="move the open phase's deadline (later phases follow it)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--extend", metavar="SPAN", help="later by this much: 2ч, 90 мин, 1д 6ч, 2h "
                                                      "(--extend=-30m: earlier)")
    how.add_argument("--shorten", metavar="SPAN", help="earlier by this much: 30 мин, 1ч")
    how.add_argument("--set", metavar='"ДД.ММ.ГГГГ ЧЧ:ММ"', help="the new deadline in the game's time zone, as "
                                                                 "status and the page show it (or YYYY-MM-DD HH:MM)")
    add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.host_actions.deadline import move_deadline
    from forumgm.daemon.settings.local_time import parse_moment, parse_span, shown
    from forumgm.daemon.store import StoreError

    opened = open_game(args.config, args.game, "deadline")
    if opened is None:
        return 2
    _installation, store, game = opened
    zone = game.config.time_zone
    try:
        extend = parse_span(args.extend) if args.extend else -parse_span(args.shorten) if args.shorten else None
        to = parse_moment(args.set, zone) if args.set else None
    except ValueError as error:
        print(f"forumgm deadline: {error}", file=sys.stderr)
        return 2
    try:
        moved = move_deadline(store, args.game, actor(args), store.now(), zone, extend=extend, to=to)
    except StoreError as error:
        print(f"forumgm deadline: {error}", file=sys.stderr)
        return 1
    print(f"{args.game} {moved.phase}: deadline {shown(moved.old, zone)} -> {shown(moved.new, zone)}")
    return 0
