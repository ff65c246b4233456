"""`forumgm finish --config FILE GAME --winner "<name>" [--force]`: the host ends a game and names the winner
(--force when the game's rules already found another one)."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import actor, add_by_argument, add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("finish", help="end a game, naming its winner (drafts the final announcement)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("--winner", required=True, help='the winner as the thread should read it, e.g. "Клан Хаоса"')
    parser.add_argument("--force", action="store_true",
                        help="name this winner even though the game's rules found another one")
    add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.tick.finish import EngineFinished, finish_game
    from forumgm.daemon.runtime.loop import register
    from forumgm.daemon.store import StoreError

    opened = open_game(args.config, args.game, "finish")
    if opened is None:
        return 2
    installation, store, game = opened
    register(store, installation)      # a game not started yet can be finished too
    try:
        draft = finish_game(game, store, args.winner, actor(args), store.now(), force=args.force)
    except StoreError as error:
        insist = (f"; чтобы всё же назвать «{error.winner}», повторите с --force"
                  if isinstance(error, EngineFinished) else "")
        print(f"forumgm finish: {error}{insist}", file=sys.stderr)
        return 1
    print(f"{args.game} finished; winner: {args.winner.strip()}. The final announcement is draft {draft} "
          f"({store.draft(draft)['status']}): forumgm drafts --config {args.config} show {draft}")
    return 0
