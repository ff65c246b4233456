"""`forumgm votes --config FILE GAME [--phase KEY] [--draft] [--as-of POST]`: the vote count from the
store — the running count of the open phase, or the final count of a resolved one; thread votes
(Legends) or the day votes sent by PM (Mafia); with --as-of, the thread votes as they stood right
after one post."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("votes", help="print the vote count of a game's open phase (thread or PM votes)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("--phase", help="phase key (default: the open phase)")
    parser.add_argument("--draft", action="store_true", help="also add the count as a draft post for the thread")
    parser.add_argument("--as-of", metavar="POST", help="the thread votes as they stood right after this post "
                                                        "(its id on the board, or its link)")


def run(args) -> int:
    from forumgm.daemon.drafts.compose import draft
    from forumgm.daemon.tick.votes import RUNNING_KIND, count_phase_votes, pm_vote_tally, vote_count_body
    from forumgm.engines.base import Phase

    opened = open_game(args.config, args.game, "votes")
    if opened is None:
        return 2
    _installation, store, game = opened
    if args.as_of is not None:
        return _as_of(game, store, args.as_of)
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


def _as_of(game, store, post: str) -> int:
    from forumgm.daemon.drafts.phase_names import phase_label
    from forumgm.daemon.tick.as_of import NOT_A_POST, NoTally, post_id_of, tally_as_of

    try:
        seen = tally_as_of(game, store, post_id_of(post))
    except NoTally as no:
        print(f"forumgm votes: --as-of: {_why(game, no)}", file=sys.stderr)
        return 2 if no.why == NOT_A_POST else 1
    moment = seen.moment.astimezone(game.config.time_zone)
    print(f"Как на момент сообщения {seen.post_id} ({seen.author}, {moment:%d.%m.%Y %H:%M:%S}), "
          f"{phase_label(game.rules, seen.phase.key)}:\n")
    print(seen.body)
    return 0


def _why(game, no) -> str:
    from forumgm.daemon.tick.as_of import AFTER_THE_END, NOT_A_POST, UNKNOWN_POST

    return {NOT_A_POST: f"expected a post's id on the board or its link (got {no.post!r})",
            UNKNOWN_POST: f"no post {no.post} in the thread of {game.id} as forumgm read it",
            AFTER_THE_END: f"post {no.post} was written after the last deadline of {game.id}"}.get(
        no.why, f"post {no.post} falls in {no.phase}, which takes no thread votes")


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
