"""`forumgm status --config FILE`: each game's open phase, its deadline, inputs so far, drafts waiting,
and first of all why a game stopped when its forum pages could not be read."""
from __future__ import annotations

from forumgm.daemon.commands.common import add_config_argument, open_installation


def register(subparsers) -> None:
    parser = subparsers.add_parser("status", help="games, current phase and deadline, votes/orders, pending drafts")
    add_config_argument(parser)


def run(args) -> int:
    opened = open_installation(args.config)
    if opened is None:
        return 2
    installation, store = opened
    for game in installation.games:
        for line in game_status(store, game):
            print(line)
    return 0


def game_status(store, game) -> list[str]:
    pending = store.phases(game.id, status="pending")
    resolved = store.phases(game.id, status="resolved")
    drafts = store.drafts(status="pending", game_id=game.id)
    lines = [f"{game.id} ({game.type}): {len(game.players)} players, {len(resolved)} phase(s) resolved"]
    row = store.game(game.id) or {}
    if row.get("problem"):
        since = row["problem_since"].astimezone(game.time_zone)
        lines.append(f"  GAME STOPPED since {since:%Y-%m-%d %H:%M}: {row['problem']} "
                     "(no phase resolves until the forum is read again)")
    if row.get("paused_at") and not row.get("finished_at"):
        since = row["paused_at"].astimezone(game.time_zone)
        lines.append(f"  PAUSED by {row['paused_by']} since {since:%Y-%m-%d %H:%M} "
                     "(no phase resolves until forumgm resume)")
    if row.get("finished_at"):
        lines.append(f"  finished by {row['finished_by']}, winner: {row['winner']} (nothing resolves any more)")
    elif not pending:
        lines.append("  no open phase" + (" (the game has not started: run the daemon)" if not resolved else ""))
    else:
        phase = pending[0]
        deadline = phase["deadline"].astimezone(game.time_zone)
        votes = [v for v in store.votes(game.id, phase["key"]) if v["counted"]]
        lines.append(f"  open phase {phase['key']}, deadline {deadline:%Y-%m-%d %H:%M} ({game.time_zone.key})")
        lines.append(f"  thread votes counted: {len(votes)}, order PMs: {len(store.orders(game.id, phase['key']))}")
    lines.append(f"  drafts waiting for approval: {len(drafts)}")
    return lines
