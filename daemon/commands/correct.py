"""`forumgm correct --config FILE GAME PHASE NICK [FILE]`: the host enters a player's orders (or PM vote)."""
from __future__ import annotations

import sys
from pathlib import Path

from forumgm.daemon.commands.common import actor, add_by_argument, add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("correct", help="correct or add a player's orders or vote of a phase "
                                                   "(his PMs stay; a new receipt is drafted)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("phase", help="phase key, e.g. round-2 or night-3")
    parser.add_argument("nick", help="the player")
    parser.add_argument("file", nargs="?", type=Path,
                        help="the orders as the player would write them (default: standard input)")
    add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.host_actions.correct import correct_order
    from forumgm.daemon.store import StoreError

    try:
        text = args.file.read_text(encoding="utf-8") if args.file else sys.stdin.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"forumgm correct: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    opened = open_game(args.config, args.game, "correct")
    if opened is None:
        return 2
    _installation, store, game = opened
    try:
        done = correct_order(game, store, args.phase, args.nick, text, actor(args), store.now())
    except StoreError as error:
        print(f"forumgm correct: {error}", file=sys.stderr)
        return 1
    replaced = ", ".join(row["pm_id"] for row in done.replaced) or "nothing: added"
    print(f"{args.game} {args.phase}: {done.player}'s orders are now {done.order} (replacing {replaced})")
    for verdict in done.verdicts:
        print(f"  accepted: {verdict.canonical}" if verdict.ok else f"  refused: «{verdict.line}» — {verdict.reason}")
    print(f"receipt: draft {done.receipt} ({store.draft(done.receipt)['status']})")
    if done.phase_resolved:
        print(f"{args.phase} is resolved: the correction counts once it is re-run; see what changes with "
              f"forumgm resolve --config {args.config} {args.game} {args.phase} --rerun --dry-run")
    return 0
