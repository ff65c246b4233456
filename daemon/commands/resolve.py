"""`forumgm resolve --config FILE GAME PHASE --rerun`: the host re-runs a phase from its snapshot."""
from __future__ import annotations

import sys

from forumgm.daemon.commands.common import add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("resolve", help="re-run a resolved phase from its snapshot (supersedes its drafts)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("phase", help="phase key, e.g. round-2 or night-3")
    parser.add_argument("--rerun", action="store_true", required=True,
                        help="required: the phase was resolved; resolve it again with the current orders")


def run(args) -> int:
    from forumgm.daemon.store import StoreError
    from forumgm.daemon.tick import resolve_once

    opened = open_game(args.config, args.game, "resolve")
    if opened is None:
        return 2
    _installation, store, game = opened
    phase = store.phase(args.game, args.phase)
    if phase is None:
        print(f"forumgm resolve: game {args.game} has no phase {args.phase!r}", file=sys.stderr)
        return 2
    try:
        resolve_once(game, store, args.phase, phase["deadline"], store.now(), rerun=True)
    except StoreError as error:
        print(f"forumgm resolve: {error}", file=sys.stderr)
        return 1
    pending = [d for d in store.drafts(status="pending", game_id=args.game) if d["phase_key"] == args.phase]
    print(f"{args.game} {args.phase}: resolved again; {len(pending)} new draft(s) wait for approval")
    return 0
