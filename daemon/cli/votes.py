"""`forumgm votes --config FILE GAME [--phase KEY] [--draft]`: the vote count from the store — the
running count of the open phase, or the final count of a resolved one; thread votes (Legends) or the
day votes sent by PM (Mafia)."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("votes", help="print the vote count of a game's open phase (thread or PM votes)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("--phase", help="phase key (default: the open phase)")
    parser.add_argument("--draft", action="store_true", help="also add the count as a draft post for the thread")


def run(args) -> int:
    from forumgm.daemon.drafts.compose import draft
    from forumgm.daemon.tick.votes import RUNNING_KIND, count_phase_votes, pm_vote_tally, vote_count_body
    from forumgm.engines.base import Phase

    opened = open_game(args.config, args.game, "votes")
    if opened is None:
        return 2
    _installation, store, game = opened
    row = store.phase(game.id, args.phase) if args.phase else next(iter(store.phases(game.id, "pending")), None)
    if row is None:
        print(f"forumgm votes: {_no_phase(store, game.id, args.phase)}", file=sys.stderr)
        return 1
    phase = Phase(row["kind"], row["number"])
    snapshot = store.snapshot_before(game.id, phase.key)
    state = game.rules.load(snapshot["state"])
    tally = count_phase_votes(game, store, state, phase, row, row["deadline"]) or pm_vote_tally(game, store, state, phase)
    if tally is None:
        print(f"forumgm votes: {game.id} {phase.key} takes no votes", file=sys.stderr)
        return 1
    resolved = row["status"] == "resolved"       # a past phase: its final count, not a running one
    if not resolved:
        for line in _stopped(store, game):
            print(f"forumgm votes: {line}", file=sys.stderr)
    body = vote_count_body(game, state, phase, tally, final=resolved, as_of=None if resolved else store.now())
    print(body)
    if args.draft:
        made = draft(store, game.id, RUNNING_KIND, "thread", body, phase.key, approval=game.config.approval)
        print(f"\ndraft {made} added ({store.draft(made)['status']})")
    return 0


def _stopped(store, game) -> list[str]:
    """Why the count may be stale: the daemon reads nothing of a game that stopped (its forum
    pages or engine failed, or it is held); a paused game's inputs are still read."""
    from forumgm.daemon.tick.stops import PAUSED, stops

    return [f"GAME STOPPED since {stop.since.astimezone(game.config.time_zone):%Y-%m-%d %H:%M}: {stop.message}; "
            "this count is what was read before, not the forum as it is now"
            for stop in stops(store, game.id) if not stop.finished and stop.cause != PAUSED]


def _no_phase(store, game_id: str, asked: str | None) -> str:
    """Why there is no phase to count, and which phases there are."""
    from forumgm.daemon.tick.stops import stops

    resolved = [row["key"] for row in store.phases(game_id, status="resolved")]
    known = f" (resolved: {', '.join(resolved)}; name one with --phase)" if resolved else ""
    if asked:
        return f"game {game_id} has no phase {asked!r}{known}"
    ended = next((stop for stop in stops(store, game_id) if stop.finished), None)
    if ended is not None:
        return f"game {game_id} is over ({ended.message}); no phase is open{known}"
    if not resolved:
        return f"game {game_id} has no open phase yet: the daemon deals it at its first tick after the start"
    return f"game {game_id} has no open phase{known}"
