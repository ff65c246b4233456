"""`forumgm signup --config FILE GAME`: draft the sign-up list read from the synced game thread."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import add_config_argument, open_installation


def register(subparsers) -> None:
    parser = subparsers.add_parser("signup", help="propose the player list from the sign-up posts (a draft)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id (its thread is synced by the daemon while players = [])")


def run(args) -> int:
    from forumgm.daemon.settings.games import game_texts, rules_for
    from forumgm.daemon.tick.signup import draft_signup
    from forumgm.daemon.tick.signup_choices import choice_names

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
    names = choice_names(rules_for(game.type, game.rules), game)
    if names is not None:       # a game of choices (Bellum's factions): the optimal assignment
        return _assignment(store, game, installation.forum.account, game_texts(game.templates), names)
    proposal, draft_id = draft_signup(store, game.id, installation.forum.account, game_texts(game.templates))
    print(f"{game.id}: {len(proposal.players)} player(s) proposed: {', '.join(proposal.players) or '-'}")
    print(f"draft {draft_id} (kind signup) waits for you: forumgm drafts show {draft_id}")
    return 0


def _assignment(store, game, host: str, texts, names) -> int:
    from forumgm.daemon.tick.signup_choices import REPLY_KIND, draft_assignment

    proposal, draft_id = draft_assignment(store, game.id, host, texts, names)
    print(f"{game.id}: {len(proposal.wishes)} player(s) with a valid list, total preference {proposal.assignment.total}")
    for wish in proposal.wishes:
        given = proposal.assignment.given[wish.player]
        print(f"  {wish.player}: {names.name_of(given) if given else '-'} "
              f"(listed: {', '.join(names.name_of(c) for c in wish.choices)})")
    for post in proposal.posts:
        if post.read.wishes:
            print(f"  wishes of {post.author} (post {post.post_id}): {post.read.wishes}")
    replies = [d for d in store.drafts(status="pending", game_id=game.id) if d["kind"] == REPLY_KIND]
    print(f"draft {draft_id} (the assignment) and {len(replies)} reply draft(s) wait for you; approving the "
          f"assignment writes the players into {game.source}")
    return 0
