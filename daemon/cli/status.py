"""`forumgm status --config FILE`: each game's open phase, its deadline, inputs so far, drafts waiting,
and first of all every reason the game is not being run (daemon/tick/stops.py)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from forumgm.daemon.cli.common import add_config_argument, open_installation
from forumgm.daemon.runtime.wakeups import STOPPED
from forumgm.daemon.settings.games import rules_for
from forumgm.daemon.settings.local_time import shown
from forumgm.daemon.tick.roles import roles_now
from forumgm.daemon.tick.stops import PAUSED, stops


OVERDUE = timedelta(minutes=2)    # a tick this late means no daemon is running on this store
THROTTLE_LOOKBACK = 500            # audit entries searched for the web page's password pause


def register(subparsers) -> None:
    parser = subparsers.add_parser("status", help="games, current phase and deadline, votes/orders, pending drafts")
    add_config_argument(parser)
    parser.add_argument("--roles", action="store_true",
                        help="also list who holds which role (secret: for the host's eyes, never for a log)")


def run(args) -> int:
    opened = open_installation(args.config, check_store=True)
    if opened is None:
        return 2
    installation, store = opened
    print(tick_line(store.tick_plan(), ZoneInfo(installation.forum.time_zone or "UTC"), store.now()))
    for line in web_throttle_lines(store, store.now()):
        print(line)
    for forum_id, note in store.sent_space_notes().items():
        print(f"forum {forum_id}: {note}")
    for game in installation.games:
        for line in game_status(store, game):
            print(line)
        if args.roles:
            for line in role_lines(store, game):
                print(line)
    return 0


def tick_line(plan: dict | None, zone: ZoneInfo, now: datetime) -> str:
    """When the daemon reads the forum next, and why then (a deadline, a reminder, polling). `now`
    is real time; a daemon on a fast game clock (the demo) planned in game time, and said when its
    next tick comes in real time too."""
    if plan is None:
        return "daemon: has not ticked yet"
    last, upcoming = plan["last_tick_at"].astimezone(zone), plan["next_tick_at"].astimezone(zone)
    fast = plan["clock_speed"] != 1
    clock = f", game time ×{plan['clock_speed']:g}" if fast else ""
    reason, _, why = plan["next_reason"].partition(": ")
    if reason == STOPPED:
        return (f"daemon: last tick {last:%Y-%m-%d %H:%M:%S} ({zone.key}{clock}), then it stopped"
                f"{f' ({why})' if why else ''}; no daemon reads the forum now")
    due = plan["due_at"] if fast else plan["next_tick_at"]
    when = f", due {due.astimezone(zone):%H:%M:%S} real time" if fast else ""
    late = " — overdue: is the daemon running?" if now > due + OVERDUE else ""
    return (f"daemon: last tick {last:%Y-%m-%d %H:%M:%S}, next tick {upcoming:%Y-%m-%d %H:%M:%S} "
            f"({zone.key}{clock}, {plan['next_reason']}{when}){late}")


def web_throttle_lines(store, now: datetime) -> list[str]:
    """The host's web page holding every login back now: its hourly budget of wrong passwords is
    spent (daemon/web/throttle.py)."""
    for entry in store.audit_log(limit=THROTTLE_LOOKBACK):
        if entry["action"] == "web.password_budget":
            until = datetime.fromisoformat(entry["detail"]["until"])
            if until <= now:
                return []
            return [f"web page: too many wrong passwords in the last hour (the last from "
                    f"{entry['detail']['address']}): every login waits until "
                    f"{until.astimezone(timezone.utc):%Y-%m-%d %H:%M:%S} UTC"]
    return []


def game_status(store, game) -> list[str]:
    pending = store.phases(game.id, status="pending")
    resolved = store.phases(game.id, status="resolved")
    drafts = store.drafts(status="pending", game_id=game.id)
    lines = [f"{game.id} ({game.type}): {len(game.players)} players, {len(resolved)} phase(s) resolved"]
    found = stops(store, game.id)
    for stop in found:
        since = f"{stop.since.astimezone(game.time_zone):%Y-%m-%d %H:%M}"
        if stop.finished:
            lines.append(f"  GAME FINISHED {since}: {stop.message} (nothing resolves any more)")
        else:
            lines.append(f"  {'PAUSED' if stop.cause == PAUSED else 'GAME STOPPED'} since {since}: {stop.message}")
    if not any(stop.finished for stop in found):
        lines += phase_lines(store, game, pending, resolved)
    for row in store.replacements(game.id):     # who held each seat when (forumgm replace)
        lines.append(f"  seat {row['seat']}: {row['new_nick']} since "
                     f"{row['at'].astimezone(game.time_zone):%Y-%m-%d %H:%M}, after {row['old_nick']}")
    lines.append(f"  drafts waiting for approval: {len(drafts)}")
    stuck = [d for status in ("approved", "sending") for d in store.drafts(status=status, game_id=game.id)
             if d["send_error"]]
    for draft in stuck:    # approved, but publishing it failed: tried again every tick
        lines.append(f"  draft {draft['id']} ({draft['kind']} → {draft['target']}) not published: {draft['send_error']}")
    return lines


def role_lines(store, game) -> list[str]:
    """The roles table of `--roles` (the game's own words: role, clan or side, what the player knows)."""
    rows = roles_now(store, game.id, rules_for(game.type, game.rules))
    if not rows:
        return ["  roles: none (not dealt yet, or the game has no secret roles)"]
    return ["  roles (secret):"] + [
        f"    {row.nick}: {row.role}, {row.side}, {'in the game' if row.alive else 'out'}"
        f"{f' ({row.knows})' if row.knows else ''}" for row in rows]


def phase_lines(store, game, pending: list[dict], resolved: list[dict]) -> list[str]:
    if not pending:
        return ["  no open phase" + (" (the game has not started: run the daemon)" if not resolved else "")]
    phase = pending[0]
    deadline = shown(phase["deadline"], game.time_zone)
    votes = [v for v in store.votes(game.id, phase["key"]) if v["counted"]]
    return [f"  open phase {phase['key']}, deadline {deadline}",
            f"  thread votes counted: {len(votes)}, order PMs: {len(store.orders(game.id, phase['key']))}"]
