"""`forumgm correct --config FILE GAME PHASE NICK [FILE | --annul]`: the host enters a player's orders (or PM
vote), or his vote in the thread on a day that takes them there, or annuls that vote (none of his counts)."""
from __future__ import annotations

import sys
from pathlib import Path

from forumgm.daemon.cli.common import actor, add_by_argument, add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("correct", help="correct or add a player's orders or vote of a phase "
                                                   "(his PMs and posts stay; orders get a new receipt)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("phase", help="phase key, e.g. round-2 or night-3")
    parser.add_argument("nick", help="the player")
    parser.add_argument("file", nargs="?", type=Path,
                        help="the orders, or the voted name, as the player would write them (default: standard input)")
    parser.add_argument("--annul", action="store_true",
                        help="his vote in the thread does not count that day, whatever his posts say (no FILE)")
    add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.host_actions.correct import annul, correct
    from forumgm.daemon.host_actions.correct_vote import VoteCorrection
    from forumgm.daemon.store import StoreError

    if args.annul and args.file:
        print(f"forumgm correct: --annul takes no text; leave out {args.file}", file=sys.stderr)
        return 2
    try:
        text = "" if args.annul else args.file.read_text(encoding="utf-8") if args.file else sys.stdin.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"forumgm correct: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    opened = open_game(args.config, args.game, "correct")
    if opened is None:
        return 2
    _installation, store, game = opened
    try:
        if args.annul:
            done = annul(game, store, args.phase, args.nick, actor(args), store.now())
        else:
            done = correct(game, store, args.phase, args.nick, text, actor(args), store.now())
    except StoreError as error:
        print(f"forumgm correct: {error}", file=sys.stderr)
        return 1
    print("\n".join(vote_lines(args, done) if isinstance(done, VoteCorrection) else order_lines(args, store, done)))
    if done.phase_resolved:
        print(f"{args.phase} is resolved: the correction counts once it is re-run; see what changes with "
              f"forumgm resolve --config {args.config} {args.game} {args.phase} --rerun --dry-run")
    return 0


def order_lines(args, store, done) -> list[str]:
    replaced = ", ".join(row["pm_id"] for row in done.replaced) or "nothing: added"
    lines = [f"{args.game} {args.phase}: {done.player}'s orders are now {done.order} (replacing {replaced})"]
    for verdict in done.verdicts:
        lines.append(f"  accepted: {verdict.canonical}" if verdict.ok
                     else f"  refused: «{verdict.line}» — {verdict.reason}")
    lines.append(f"receipt: draft {done.receipt} ({store.draft(done.receipt)['status']})")
    return lines


def vote_lines(args, done) -> list[str]:
    if done.annulled:
        lines = [f"{args.game} {args.phase}: {done.player}'s thread vote is annulled by the host ({done.ref}): "
                 "no vote of his counts (his posts stay as they were)"]
    else:
        lines = [f"{args.game} {args.phase}: {done.player}'s thread vote is now the host's {done.ref}: "
                 f"{done.vote.target} (his posts stay as they were)"]
    for row in done.replaced:
        if row.get("annulled"):
            lines.append(f"  replaces the earlier annulment {row['correction']}")
        elif "correction" in row:
            lines.append(f"  replaces the earlier correction {row['correction']}: «{row['text']}»")
        else:
            counted = f"counted for {row['target']}" if row["counted"] else f"not counted: {row['reason']}"
            lines.append(f"  replaces post {row['post_id']}: «{row['text']}» ({counted})")
    if not done.replaced:
        lines.append("  replaces nothing: he had not voted" + ("; a vote he posts later does not count either"
                                                               if done.annulled else ""))
    return lines + redraft_lines(args, done)


def redraft_lines(args, done) -> list[str]:
    """What became of the open day's running vote counts drafted before the correction."""
    lines = [f"vote count draft {old} is drafted again with the new count: draft {new}" for old, new in done.redrafted]
    for kept in done.kept:
        lines.append(f"vote count draft {kept.id} has your edits, so it is left as you wrote it: it counts the votes "
                     "as they were before this correction. The count now differs so:")
        lines += [f"  {line}" for line in kept.lines]
        lines.append(f"  edit it (forumgm drafts --config {args.config} edit {kept.id}) or reject it; "
                     "the next count shows the change")
    return lines
