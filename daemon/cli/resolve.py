"""`forumgm resolve --config FILE GAME PHASE --rerun [--dry-run | --yes]`: the host re-runs a phase from
its snapshot, after seeing what changes (eliminations, state, each draft's text)."""
from __future__ import annotations

import sys

from forumgm.daemon.cli.common import actor, add_by_argument, add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("resolve", help="re-run a resolved phase (and every later resolved one, in order) "
                                                   "from its snapshot: shows what changes, then asks (supersedes "
                                                   "drafts only when confirmed)")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("phase", help="phase key, e.g. round-2 or night-3")
    parser.add_argument("--rerun", action="store_true", required=True,
                        help="required: the phase was resolved; resolve it again with the orders in force now")
    answer = parser.add_mutually_exclusive_group()
    answer.add_argument("--dry-run", action="store_true", help="only show what would change")
    answer.add_argument("--yes", action="store_true", help="re-run without asking")
    add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.host_actions.rerun import confirm_rerun, preview_rerun
    from forumgm.daemon.store import StoreError

    opened = open_game(args.config, args.game, "resolve")
    if opened is None:
        return 2
    _installation, store, game = opened
    if store.phase(args.game, args.phase) is None:
        print(f"forumgm resolve: game {args.game} has no phase {args.phase!r}", file=sys.stderr)
        return 2
    try:
        expected = None
        if not args.yes:
            diff = preview_rerun(game, store, args.phase, store.now())
            print("\n".join(diff_lines(diff)))
            if args.dry_run:
                return 0
            if not _confirmed(f"Re-run {args.game} {args.phase} with this outcome? [y/N] "):
                print("nothing changed")
                return 1
            expected = diff.digest()
        done = confirm_rerun(game, store, args.phase, actor(args), store.now(), expected)
    except StoreError as error:
        print(f"forumgm resolve: {error}", file=sys.stderr)
        return 1
    phases = [rerun.phase for rerun in done.phases]
    pending = [d for d in store.drafts(status="pending", game_id=args.game) if d["phase_key"] in phases]
    print(f"{args.game} {', '.join(phases)}: resolved again; {len(pending)} new draft(s) wait for approval")
    if done.reopened:
        print(f"{args.game} goes on with {done.reopened}, paused: set its deadline (forumgm deadline --config "
              f"{args.config} {args.game} --set \"ДД.ММ.ГГГГ ЧЧ:ММ\"), then forumgm resume --config {args.config} "
              f"{args.game}")
    return 0


def _confirmed(question: str) -> bool:
    try:
        return input(question).strip().lower() in ("y", "yes", "д", "да")
    except EOFError:
        return False


def diff_lines(diff) -> list[str]:
    """The re-run's difference as the host reads it in a terminal: phase by phase when later phases
    are resolved again too."""
    if not diff.changed:
        return ["the re-run gives the same outcome: nothing changes",
                *(line for rerun in diff.phases for line in edited_lines(rerun))]
    lines = []
    for rerun in diff.phases:
        if len(diff.phases) > 1:
            lines.append(f"== {rerun.phase}" + ("" if rerun.diff.changed else ": the same outcome"))
        lines += phase_diff_lines(rerun.diff)
        lines += edited_lines(rerun)
    if diff.dropped:
        then = f"{diff.scheduled} opens instead" if diff.scheduled else "the game ends there"
        lines.append(f"open phase {diff.dropped}: no longer follows {diff.phases[-1].phase} ({then})")
    if diff.reopened:
        lines.append(f"the game's rules no longer end it after {diff.phases[-1].phase}: {diff.reopened} follows; "
                     "the game reopens, paused, for you to set that phase's deadline and resume it")
    if diff.winner:
        lines.append(f"the game's rules still end it after {diff.phases[-1].phase}, now won by «{diff.winner[1]}» "
                     f"(was «{diff.winner[0]}»)")
    return lines


def phase_diff_lines(diff) -> list[str]:
    lines = []
    if diff.eliminated_before != diff.eliminated_after:
        lines.append("eliminated: " + _eliminated(diff.eliminated_before) + " -> " + _eliminated(diff.eliminated_after))
    for change in diff.state:
        lines.append(f"state {change.path}: {change.old!r} -> {change.new!r}")
    for change in diff.drafts:
        if not change.changed:
            continue
        name = f"draft {change.kind} to {change.target}"
        if change.new is None:
            lines.append(f"{name}: no longer drafted (was {change.old.status})")
        elif change.old is None:
            lines.append(f"{name}: new")
        else:
            lines.append(f"{name}: changed (was {change.old.status}{'; goes out as a correction' if change.old.status == 'sent' else ''})")
        lines += [f"  {line}" for line in change.lines]
    return lines


def edited_lines(rerun) -> list[str]:
    """The drafts the host had edited: where his edit went."""
    return [f"your edit of draft {edit.kind} to {edit.target}: "
            + ("carried over to the new draft (the same text was generated)" if edit.carried else
               f"NOT carried over, the generated text changed: check draft {edit.draft_id} (your edit is shown beside it)")
            for edit in rerun.edited]


def _eliminated(pairs) -> str:
    return ", ".join(f"{nick} ({cause})" for nick, cause in pairs) or "nobody"
