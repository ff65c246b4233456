"""One round: the day vote (jail, missed votes) and the night after it, as step tables in the
order the rules list them. A player out at an earlier step does not act at a later one."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from forumgm.engines.base import Event, Phase, PhaseRng, Step, run_steps
from forumgm.engines.mafia.orders import RoundOrders, vote_target
from forumgm.engines.mafia.roles import BOSS, COMMISSAR, DOCTOR, MAFIOSO, MANIAC, ROLES, status
from forumgm.engines.mafia.state import LastTarget, MafiaState, Player
from forumgm.engines.mafia.win import winner_of
from forumgm.parsers.orders.mafia import NO_TRIAL, NightOrder, NoTrial

KILL_MANIAC, KILL_MAFIA, JAIL, MISSED_VOTES = "kill_maniac", "kill_mafia", "jail", "missed_votes"
# The events that take a player out of the game; each carries the nick and the cause.
OUT_EVENTS = ("jailed", "missed_votes_out", "killed")


@dataclass(frozen=True)
class RoundState:
    """The game plus what the night's steps learn from each other."""

    game: MafiaState
    number: int
    blocked: tuple[str, ...] = ()
    healed: tuple[str, ...] = ()
    missed: tuple[str, ...] = ()      # missed the day vote, below the limit: warned if alive at the end

    def with_game(self, game: MafiaState) -> "RoundState":
        return replace(self, game=game)


# ---------------------------------------------------------------- the day

def jail(rs: RoundState, orders: RoundOrders, rng: PhaseRng):
    """The unique maximum is jailed; «не судить» more than half of the votes cast, or a tie: nobody."""
    voters = rs.game.living()
    table = [{"voter": p.nick, "vote": vote_target(orders.of(p.nick).vote)} for p in voters]
    cast = [row["vote"] for row in table if row["vote"] is not None]
    events = [Event("votes", {"table": table})]
    game = rs.game
    for p in voters:
        if isinstance(orders.of(p.nick).vote, NoTrial):
            game = game.update(p.nick, no_trials_used=p.no_trials_used + 1)
    counts = Counter(vote for vote in cast if vote != NO_TRIAL)
    top = max(counts.values(), default=0)
    leaders = sorted(nick for nick, count in counts.items() if count == top)
    if not cast:
        return rs.with_game(game), events + [Event("no_jail", {"reason": "no_votes"})]
    if 2 * (len(cast) - sum(counts.values())) > len(cast):
        return rs.with_game(game), events + [Event("no_jail", {"reason": "no_trial"})]
    if len(leaders) != 1:
        return rs.with_game(game), events + [Event("no_jail", {"reason": "tie", "leaders": leaders})]
    nick = leaders[0]
    return (rs.with_game(game.update(nick, alive=False)),
            events + [Event("jailed", {"nick": nick, "role": game.role(nick), "votes": top, "cause": JAIL})])


def missed_votes_out(rs: RoundState, orders: RoundOrders, rng: PhaseRng):
    """The limit of missed day votes (second by default): out at the day, role revealed. A miss
    below the limit is only noted here: it is warned at the round's end, so a player who dies
    this round is neither warned nor charged with the miss."""
    game, events, missed_now = rs.game, [], []
    for p in rs.game.living():
        if orders.of(p.nick).vote is not None:
            continue
        missed = p.missed_votes + 1
        if missed >= game.rules.missed_votes_out:
            game = game.update(p.nick, missed_votes=missed, alive=False)
            events.append(Event("missed_votes_out", {"nick": p.nick, "role": p.role, "missed": missed,
                                                     "cause": MISSED_VOTES}))
        else:
            missed_now.append(p.nick)
    return replace(rs, game=game, missed=tuple(missed_now)), events


def missed_vote_warnings(rs: RoundState, orders: RoundOrders, rng: PhaseRng):
    """A warning for each miss noted at the day, to the players still alive after the night."""
    game, events = rs.game, []
    for nick in rs.missed:
        player = game.player(nick)
        if not player.alive:
            continue
        missed = player.missed_votes + 1
        game = game.update(nick, missed_votes=missed)
        events.append(Event("missed_vote_warning", {"nick": nick, "missed": missed,
                                                    "limit": game.rules.missed_votes_out}))
    return rs.with_game(game), events


DAY = (
    Step("jail", jail),
    Step("missed_votes", missed_votes_out),
)


# ---------------------------------------------------------------- the night

def _acting(rs: RoundState, orders: RoundOrders, roles: tuple[str, ...], action: str):
    """(player, order) of everyone with `roles` who ordered `action` and can still act;
    a void order (actor out or blocked) becomes an event instead."""
    acting: list[tuple[Player, NightOrder]] = []
    events = []
    for p in rs.game.players:
        order = orders.of(p.nick).action(action) if p.role in roles else None
        if order is None:
            continue
        void = "out" if not p.alive else "blocked" if p.nick in rs.blocked else None
        if void:
            events.append(Event("action_void", {"nick": p.nick, "action": action, "target": order.target,
                                                "reason": void}))
        else:
            acting.append((p, order))
    return acting, events


def _armoured(rs: RoundState, target: Player, cause: str) -> bool:
    if not (rs.game.rules.first_night_armour and rs.number == 1):
        return False
    return target.role == COMMISSAR or (target.role == BOSS and cause == KILL_MANIAC)


def _kill(rs: RoundState, nick: str, cause: str):
    target = rs.game.player(nick)
    if not target.alive:
        return rs, [Event("kill_prevented", {"nick": nick, "cause": cause, "reason": "already_out"})]
    if nick in rs.healed:
        return rs, [Event("kill_prevented", {"nick": nick, "cause": cause, "reason": "healed"})]
    if _armoured(rs, target, cause):
        return rs, [Event("kill_prevented", {"nick": nick, "cause": cause, "reason": "armour"})]
    return (rs.with_game(rs.game.update(nick, alive=False)),
            [Event("killed", {"nick": nick, "role": target.role, "cause": cause})])


def _marking(role: str, action: str, marked: str, last: str):
    """A step whose target is marked for the later steps (blocked, healed) and remembered in the
    game (`last`), because the same target may not be named two nights in a row."""
    def step(rs: RoundState, orders: RoundOrders, rng: PhaseRng):
        acting, events = _acting(rs, orders, (role,), action)
        for actor, order in acting:
            rs = replace(rs, **{marked: getattr(rs, marked) + (order.target,)},
                         game=replace(rs.game, **{last: LastTarget(rs.number, order.target)}))
            events.append(Event(marked, {"by": actor.nick, "nick": order.target}))
        return rs, events
    return step


boss_block = _marking(BOSS, "block", "blocked", "last_block")
doctor_heal = _marking(DOCTOR, "heal", "healed", "last_heal")


def maniac_kill(rs: RoundState, orders: RoundOrders, rng: PhaseRng):
    acting, events = _acting(rs, orders, (MANIAC,), "kill")
    for maniac, order in acting:
        rs, produced = _kill(rs, order.target, KILL_MANIAC)
        events += produced
    return rs, events


def mafia_kill(rs: RoundState, orders: RoundOrders, rng: PhaseRng):
    """Most shots dies; a tie goes to the boss's choice if he named a tied target, else nobody."""
    acting, events = _acting(rs, orders, (BOSS, MAFIOSO), "kill")
    if not acting:
        return rs, events
    shots = Counter(order.target for _, order in acting)
    top = max(shots.values())
    leaders = [nick for nick, count in shots.items() if count == top]
    boss_choice = [order.target for p, order in acting if p.role == BOSS and order.target in leaders]
    target = leaders[0] if len(leaders) == 1 else (boss_choice[0] if boss_choice else None)
    events.append(Event("mafia_shots", {"shots": {p.nick: order.target for p, order in acting},
                                        "target": target, "tie": len(leaders) > 1}))
    if target is None:
        return rs, events
    rs, produced = _kill(rs, target, KILL_MAFIA)
    return rs, events + produced


def commissar_check(rs: RoundState, orders: RoundOrders, rng: PhaseRng):
    acting, events = _acting(rs, orders, (COMMISSAR,), "check")
    for commissar, order in acting:
        events.append(Event("checked", {"by": commissar.nick, "nick": order.target,
                                        "status": status(rs.game.role(order.target))}))
    return rs, events


NIGHT = (
    Step("block", boss_block),
    Step("heal", doctor_heal),
    Step("maniac", maniac_kill),
    Step("mafia", mafia_kill),
    Step("check", commissar_check),
)

# After the night, for a game that goes on: the dead and a finished game warn nobody.
CLOSE = (
    Step("missed_vote_warnings", missed_vote_warnings),
)


# ---------------------------------------------------------------- the round

def _settle(rs: RoundState, when: str):
    side = winner_of(rs.game)
    if side is None:
        return rs, []
    return rs.with_game(replace(rs.game, winner=side)), [Event("winner", {"side": side, "after": when})]


def survivors(game: MafiaState) -> Event:
    living = game.living()
    roles = {role: sum(1 for p in living if p.role == role) for role in ROLES}
    return Event("survivors", {"alive": [p.nick for p in living],
                               "roles": {role: count for role, count in roles.items() if count}})


def resolve_round(state: MafiaState, phase: Phase, orders: RoundOrders, rng: PhaseRng):
    events = [Event("rules_forced", {"hash": h}) for h in state.forced_changes]
    rs = RoundState(replace(state, forced_changes=()), phase.number)
    for table, when in ((DAY, "day"), (NIGHT, "night")):
        rs, produced = run_steps(table, rs, orders, rng)
        events += produced
        rs, produced = _settle(rs, when)
        events += produced
        if rs.game.winner:
            break
    else:
        rs, produced = run_steps(CLOSE, rs, orders, rng)
        events += produced
    game = replace(rs.game, round=phase.number)
    return game, events + [survivors(game)]
