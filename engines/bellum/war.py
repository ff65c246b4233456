"""Phases 4–8 of the rules: movement, battle, retreat, the battle of those who fell back, the
last retreat (rules «Переселения», «Бой», «Очередность действий»)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable

from forumgm.engines.base import Event, PhaseRng
from forumgm.engines.bellum.battle import battles_in
from forumgm.engines.bellum.state import BellumState, thaw_people
from forumgm.engines.bellum.tribes import subjugate
from forumgm.engines.bellum.work import Arrival, Turn, TurnOrders
from forumgm.engines.bellum.world import frozen
from forumgm.parsers.orders.bellum import ATTACK, ATTACK_ALL, MEET, MEET_ALL, Move, Retreat, Stay

FIRST_BATTLE, SECOND_BATTLE = 5, 7


# ---------------------------------------------------------------- phase 4: movement

def movement(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    """Every move at once: people leave their origin and arrive together. A move of more people
    than are left there (after assimilation or an event) takes those that are left."""
    state = turn.state
    people = thaw_people(state)
    stances = {}
    for nick, stay in orders.each(Stay):
        faction = stay.faction or orders.own(nick)
        if state.controller(faction) == nick:
            stances[(stay.province, faction)] = (stay.stance, stay.targets)
    arrivals, events = [], []
    for nick, move in orders.each(Move):
        faction = move.faction or orders.own(nick)
        if state.controller(faction) != nick:
            continue            # the faction was subjugated or freed since the receipt
        count = min(move.count, state.count(move.origin, faction) - sum(
            a.count for a in arrivals if a.faction == faction and a.origin == move.origin))
        if count <= 0:
            events.append(Event("move_void", {"faction": faction, "origin": move.origin, "dest": move.dest,
                                              "count": move.count}))
            continue
        arrivals.append(Arrival(faction, move.origin, move.dest, count, move.stance, move.targets))
        events.append(Event("moved", {"faction": faction, "origin": move.origin, "dest": move.dest, "count": count,
                                      "ordered": move.count, "stance": move.stance, "targets": list(move.targets)}))
    for a in arrivals:
        people[a.origin][a.faction] -= a.count
        people.setdefault(a.dest, {})
        people[a.dest][a.faction] = people[a.dest].get(a.faction, 0) + a.count
    state = state.with_people(people)
    after_move = {f: frozenset(state.provinces_of(f)) for f in state.factions}
    return (turn.with_state(state).with_work(arrivals=tuple(arrivals), stances=frozen(stances),
                                             after_move=frozen(after_move)), events)


# ---------------------------------------------------------------- phase 5: battle

def _arrived(turn: Turn, province: str) -> list[Arrival]:
    return turn.work.arrived_in(province)


def _stayers(turn: Turn, province: str, faction: str) -> int:
    return turn.state.count(province, faction) - sum(a.count for a in _arrived(turn, province) if a.faction == faction)


def first_fights(turn: Turn, province: str) -> set[tuple[str, str]]:
    """Who fights whom in a province after movement (docs/bellum.md «How a turn is resolved»: movers' and stayers' orders)."""
    here = turn.state.present(province)
    arrived = _arrived(turn, province)
    arriving = {a.faction for a in arrived}
    pairs: set[tuple[str, str]] = set()
    for a in arrived:
        if a.stance == ATTACK:
            pairs |= {(a.faction, t) for t in a.targets if t in here}
        elif a.stance == ATTACK_ALL:
            pairs |= {(a.faction, other) for other in here if other != a.faction}
    for faction in here:
        if _stayers(turn, province, faction) <= 0:
            continue
        stance, targets = turn.work.stance(province, faction)
        if stance == MEET:
            pairs |= {(faction, t) for t in targets if t in here}
        elif stance == MEET_ALL:
            pairs |= {(faction, other) for other in arriving if other != faction}
        elif stance == ATTACK_ALL:
            pairs |= {(faction, other) for other in here if other != faction}
    return pairs


def _fought(turn: Turn, rng: PhaseRng, phase: int, fights: dict[str, set[tuple[str, str]]]) -> tuple[Turn, list[Event]]:
    """Battles of the given fights; the losers are recorded for the retreat and subjugation."""
    battles = []
    for province in sorted(fights):
        battles += battles_in(turn.state, rng, province, phase, fights[province], turn.work.strength)
    lost, losers = set(turn.work.lost), set(turn.work.losers)
    beaten_by = {loser: dict(by) for loser, by in turn.work.beaten_by.items()}
    for battle in battles:
        for loser in battle["losers"]:
            lost.add((battle["province"], loser))
            losers.add(loser)
            for winner in battle["winners"]:
                beaten_by.setdefault(loser, {})
                beaten_by[loser][winner] = beaten_by[loser].get(winner, 0) + battle["strengths"][winner]
    turn, losses = _losses(turn, battles)
    turn = turn.with_work(
        lost=frozenset(lost), losers=frozenset(losers), battles=turn.work.battles + tuple(battles),
        beaten_by=frozen({k: frozen(v) for k, v in beaten_by.items()}))
    return turn, [Event("battle", battle) for battle in battles] + losses


def _losses(turn: Turn, battles: list[dict[str, Any]]) -> tuple[Turn, list[Event]]:
    """The host's optional battle losses (config battle_losses, default none: the rules kill
    nobody): a beaten faction loses that fraction of each of its groups there, once however many
    battles it lost in the province, so that the groups falling back carry only the survivors."""
    fraction = turn.state.rules.battle_losses
    beaten = sorted({(b["province"], loser) for b in battles for loser in b["losers"]})
    if not fraction or not beaten:
        return turn, []
    events = []
    people = thaw_people(turn.state)
    arrivals = list(turn.work.arrivals)
    for province, faction in beaten:
        for i, a in enumerate(arrivals):
            if a.dest == province and a.faction == faction and not a.back:
                arrivals[i] = replace(a, count=a.count - int(a.count * fraction))
        moved = sum(a.count for a in turn.work.arrived_in(province) if a.faction == faction)
        stayed = people[province][faction] - moved
        left = stayed - int(stayed * fraction) + sum(
            a.count for a in arrivals if a.dest == province and a.faction == faction and not a.back)
        events.append(Event("battle_losses", {"faction": faction, "province": province,
                                              "count": people[province][faction] - left}))
        people[province][faction] = left
    return turn.with_state(turn.state.with_people(people)).with_work(arrivals=tuple(arrivals)), events


def battle(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    fights = {p: first_fights(turn, p) for p in turn.state.people}
    return _fought(turn, rng, FIRST_BATTLE, {p: f for p, f in fights.items() if f})


# ---------------------------------------------------------------- phases 6 and 8: retreat

def _preferences(state: BellumState, orders: TurnOrders) -> dict[tuple[str, str], str]:
    out = {}
    for nick, order in orders.each(Retreat):
        faction = order.faction or orders.own(nick)
        if state.controller(faction) == nick:
            out[(order.origin, faction)] = order.dest
    return out


def retreat_to(state: BellumState, faction: str, province: str, driven: Iterable[tuple[str, str]],
               preferred: str | None) -> str | None:
    """Where beaten people go: the stated preference if legal, else the neighbour with most of
    their people, then their state's own province, then the lowest id; never back where the
    faction was driven from this turn."""
    barred = {p for f, p in driven if f == faction} | {province}
    legal = [p for p in state.world.neighbours(province, state.factions[faction].link_kinds) if p not in barred]
    if preferred in legal:
        return preferred
    if not legal:
        return None
    return min(legal, key=lambda p: (-state.count(p, faction), state.owners.get(p) != faction, p))


def _stay_put(state: BellumState, faction: str, province: str, owners: dict[str, str]) -> str | None:
    """Why beaten people do not retreat: subjugated, captured, or a state beaten in its last province."""
    record = state.factions[faction]
    if record.master is not None:
        return "subjugated"
    if record.captured:
        return "captured"
    if record.is_state and [p for p, o in owners.items() if o == faction] == [province]:
        return "capture"
    return None


def _retreat(turn: Turn, orders: TurnOrders, phase: int) -> tuple[Turn, list[Event]]:
    """Tribes beaten everywhere are subjugated first, and stay where they were beaten; then losing
    movers fall back to their origin (so do movers of a drawn battle: nobody gains ground; a
    beaten attacker «остаться в своей провинции», subjugated or not) and losing defenders leave
    for a neighbour. Destinations are chosen once everyone driven out in this phase is known, and
    before the fallen-back people come home."""
    work = turn.work
    state, events, decided = subjugate(turn.state, work)
    battles = [b for b in work.battles if b["phase"] == phase]
    losing = sorted({(b["province"], f) for b in battles for f in b["losers"]})
    drawn = sorted({(b["province"], f) for b in battles if b["winner"] is None
                    for side in b["sides"] for f in side["members"]})
    owners = dict(state.owners)
    leaving, captured = [], []
    for province, faction in losing:
        home = state.count(province, faction) - sum(a.count for a in _arrived(turn, province) if a.faction == faction)
        if home <= 0:
            continue
        reason = _stay_put(state, faction, province, owners)
        if reason == "capture":
            del owners[province]
            captured.append(faction)
            events.append(Event("captured", {"state": faction, "province": province, "count": home}))
        elif reason:
            events.append(Event("held", {"faction": faction, "province": province, "count": home, "reason": reason}))
        else:
            leaving.append((province, faction, home))
    driven = set(work.driven) | {(faction, province) for province, faction, _ in leaving}
    preferences = _preferences(state, orders)
    people = thaw_people(state)
    for province, faction, home in leaving:
        preferred = preferences.get((province, faction))
        dest = retreat_to(state, faction, province, driven, preferred)
        people[province][faction] -= home
        if dest is None:
            events.append(Event("retreat_lost", {"faction": faction, "count": home, "from": province, "phase": phase + 1}))
            continue
        people.setdefault(dest, {})
        people[dest][faction] = people[dest].get(faction, 0) + home
        events.append(Event("retreated", {"faction": faction, "count": home, "from": province, "to": dest,
                                          "phase": phase + 1, "preferred": dest == preferred}))
    arrivals = list(work.arrivals)
    going_back = set(losing) | set(drawn)
    for i, a in enumerate(arrivals):
        if (a.dest, a.faction) in going_back and not a.back:
            people[a.dest][a.faction] -= a.count
            people.setdefault(a.origin, {})
            people[a.origin][a.faction] = people[a.origin].get(a.faction, 0) + a.count
            arrivals[i] = replace(a, back=True)
            events.append(Event("fell_back", {"faction": a.faction, "count": a.count, "from": a.dest, "to": a.origin,
                                              "phase": phase + 1, "draw": (a.dest, a.faction) not in losing}))
    state = replace(state.with_people(people), owners=frozen(owners))
    for faction in captured:
        state = state.update(faction, captured=True)
    return turn.with_state(state).with_work(arrivals=tuple(arrivals), driven=frozenset(driven), decided=decided), events


def retreat(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    return _retreat(turn, orders, FIRST_BATTLE)


# ---------------------------------------------------------------- phase 7: those who fell back

def second_battle(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    """Troops that fell back into their own province fight those attacking that province."""
    fights: dict[str, set[tuple[str, str]]] = {}
    for a in turn.work.arrivals:
        if not a.back or turn.state.count(a.origin, a.faction) <= 0:
            continue
        here = turn.state.present(a.origin)
        for attacker in _arrived(turn, a.origin):
            if attacker.faction in here and (attacker.stance == ATTACK_ALL
                                             or (attacker.stance == ATTACK and a.faction in attacker.targets)):
                fights.setdefault(a.origin, set()).add((a.faction, attacker.faction))
        for other in here:
            if turn.work.stance(a.origin, other)[0] == ATTACK_ALL and other != a.faction:
                fights.setdefault(a.origin, set()).add((a.faction, other))
    return _fought(turn, rng, SECOND_BATTLE, fights)


def last_retreat(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    return _retreat(turn, orders, SECOND_BATTLE)
