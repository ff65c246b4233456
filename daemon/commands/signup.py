"""`forumgm signup --config FILE GAME`: draft the sign-up list read from the synced game thread."""
from __future__ import annotations

import sys

from forumgm.daemon.commands.common import add_config_argument, open_installation


def register(subparsers) -> None:
    parser = subparsers.add_parser("signup", help="propose the player list from the sign-up posts (a draft)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id (its thread is synced by the daemon while players = [])")


def run(args) -> int:
    from forumgm.config import load_texts
    from forumgm.daemon.signup import draft_signup

    opened = open_installation(args.config)
    if opened is None:
        return 2
    installation, store = opened
    games = {game.id: game for game in installation.games}
    game = games.get(args.game)
    if game is None:
        print(f"forumgm signup: no game {args.game!r} in {args.config} (games: {', '.join(games)})", file=sys.stderr)
        return 2
    if store.game(game.id) is None or not store.posts(game.id):
        print(f"forumgm signup: no posts of game {game.id} are stored yet; run the daemon so it syncs the thread",
              file=sys.stderr)
        return 1
    proposal, draft_id = draft_signup(store, game.id, installation.forum.account, load_texts(game.templates))
    print(f"{game.id}: {len(proposal.players)} player(s) proposed: {', '.join(proposal.players) or '-'}")
    print(f"draft {draft_id} (kind signup) waits for you: forumgm drafts show {draft_id}")
    return 0
