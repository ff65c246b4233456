"""Phases 2 and 3 of the rules and the end-of-turn fate of states: assimilation, kingdom
creation, annexation and abandonment, independence of captured states, secession of regions,
capital loss (rules «Механика игры за государства», «Превращение племени в государство»)."""
from __future__ import annotations

from dataclasses import replace

from forumgm.engines.base import Event, PhaseRng
from forumgm.engines.bellum.state import STATE, TRIBE, BellumState, Faction, thaw_people
from forumgm.engines.bellum.work import Turn, TurnOrders
from forumgm.engines.bellum.world import frozen
from forumgm.parsers.orders.bellum import (
    Abandon, AbandonRegion, Annex, Assimilate, Consent, Independence, MakeState,
)


def _owners(state: BellumState, **changes: str | None) -> BellumState:
    owners = dict(state.owners)
    for province, owner in changes.items():
        if owner is None:
            owners.pop(province, None)
        else:
            owners[province] = owner
    return replace(state, owners=frozen(owners))


# ---------------------------------------------------------------- phase 2: assimilation

def assimilation(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    """A state turns one person of another faction into its own, in a province it owns and
    holds the majority of (one a turn in all: the receipt keeps only the first line)."""
    state, events = turn.state, []
    for nick, order in orders.each(Assimilate):
        own = orders.own(nick)
        reason = None
        if state.owners.get(order.province) != own:
            reason = "province_not_owned"
        elif state.majority(order.province) != own:
            reason = "no_majority"
        elif state.count(order.province, order.target) <= 0:
            reason = "nobody_there"
        if reason:
            events.append(Event("assimilation_failed", {"state": own, "target": order.target,
                                                        "province": order.province, "reason": reason}))
            continue
        people = thaw_people(state)
        people[order.province][order.target] -= 1
        people[order.province][own] += 1
        state = state.with_people(people)
        events.append(Event("assimilated", {"state": own, "target": order.target, "province": order.province}))
    return turn.with_state(state), events


# ---------------------------------------------------------------- phase 3: kingdoms, annexation, abandonment

def _majorities(state: BellumState, faction: str) -> list[str]:
    return [p for p in state.provinces_of(faction) if state.majority(p) == faction]


def _kingdom_refusal(turn: Turn, orders: TurnOrders, nick: str, order: MakeState) -> str | None:
    state, holder = turn.state, turn.work.kingdom_holder
    kingdom = state.kingdom_province()
    if holder is None or state.controller(holder) != nick or state.majority(kingdom) != holder:
        return "no_kingdom_majority"
    tribe = state.factions[order.tribe]
    if tribe.is_state:
        return "already_state"
    consent = state.controller(order.tribe)
    if consent is None or not any(isinstance(o, Consent) for o in orders.players.get(consent, _NONE).orders):
        return "no_consent"
    held = _majorities(state, order.tribe)
    if not held:
        return "no_majority"
    if 2 * sum(state.world.provinces[p].civilized for p in held) < len(held):
        return "not_civilized"
    if order.capital not in held or not state.world.provinces[order.capital].civilized:
        return "bad_capital"
    return None


class _NoOrders:
    orders: tuple = ()


_NONE = _NoOrders()


def make_kingdom(state: BellumState, tribe: str, capital: str) -> BellumState:
    """The tribe becomes a state for good, owns every province it holds the majority of, and its
    subjugated tribes go free."""
    state = state.update(tribe, kind=STATE, ever_state=True, capital=capital, master=None)
    for other in state.factions.values():
        if other.master == tribe:
            state = state.update(other.id, master=None)
    return _owners(state, **{p: tribe for p in _majorities(state, tribe)})


def politics(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    """Rules phase 3: making kingdoms, then independence, annexation and abandonment."""
    events = []
    for nick, order in orders.each(MakeState):
        refusal = _kingdom_refusal(turn, orders, nick, order)
        if refusal:
            events.append(Event("kingdom_failed", {"tribe": order.tribe, "by": nick, "reason": refusal}))
            continue
        state = make_kingdom(turn.state, order.tribe, order.capital)
        turn = turn.with_state(state)
        events.append(Event("kingdom", {"tribe": order.tribe, "by": turn.work.kingdom_holder, "capital": order.capital,
                                        "provinces": state.owned_by(order.tribe)}))
    state = turn.state
    for nick, order in orders.each(Independence):
        own = orders.own(nick)
        record = state.factions[own]
        if not record.captured:
            continue
        if state.majority(order.province) != own:
            events.append(Event("independence_failed", {"state": own, "province": order.province, "reason": "no_majority"}))
        elif record.master is not None and order.province != record.capital:
            events.append(Event("independence_failed", {"state": own, "province": order.province, "reason": "not_capital"}))
        else:
            state = _owners(state.update(own, captured=False, master=None), **{order.province: own})
            events.append(Event("independence", {"state": own, "province": order.province}))
    for nick, order in orders.each(Annex):
        own = orders.own(nick)
        if state.majority(order.province) != own:
            events.append(Event("annex_failed", {"state": own, "province": order.province, "reason": "no_majority"}))
            continue
        events.append(Event("annexed", {"state": own, "province": order.province,
                                        "from": state.owners.get(order.province)}))
        state = _owners(state, **{order.province: own})
    for nick, order in orders.each(Abandon):
        own = orders.own(nick)
        if state.owners.get(order.province) != own:
            continue
        if state.majority(order.province) == own:
            events.append(Event("abandon_failed", {"state": own, "province": order.province, "reason": "majority"}))
            continue
        state = _owners(state, **{order.province: None})
        events.append(Event("abandoned", {"state": own, "province": order.province}))
    for nick, order in orders.each(AbandonRegion):
        own = orders.own(nick)
        if any(state.world.region_of(p) == order.region for p in state.owned_by(own)):
            state, new = secede(state, own, order.region)
            events.append(Event("secession", {"state": own, "region": order.region, "new": new, "reason": "abandoned"}))
    return turn.with_state(state), events


# ---------------------------------------------------------------- secession, capital loss

def free_id(state: BellumState, base: str) -> str:
    number, ident = 1, base
    while ident in state.factions:
        number += 1
        ident = f"{base}_{number}"
    return ident


def _new_name(state: BellumState, base: str) -> str:
    taken = {f.name for f in state.factions.values()}
    number, name = 1, base
    while name in taken:
        number += 1
        name = f"{base} {number}"
    return name


def secede(state: BellumState, faction: str, region: str) -> tuple[BellumState, str]:
    """A region of a state becomes a new host-controlled faction with the state's provinces and
    people there: a state whose capital is its most valuable civilized province, or a tribe
    (owning nothing) when the region has no civilized province of the state."""
    world, parent = state.world, state.factions[faction]
    provinces = [p for p in state.owned_by(faction) if world.region_of(p) == region]
    civilized = sorted((p for p in provinces if world.provinces[p].civilized),
                       key=lambda p: (-world.provinces[p].authority, -state.count(p, faction), p))
    new = Faction(
        id=free_id(state, f"{faction}_{region}"),
        name=_new_name(state, world.regions[region].name),
        kind=STATE if civilized else TRIBE,
        color=parent.color,
        capital=civilized[0] if civilized else None,
        ever_state=True,
    )
    state = state.with_factions([*state.factions.values(), new])
    people = thaw_people(state)
    for province in world.region_provinces(region):
        moved = people.get(province, {}).pop(faction, 0)
        if moved:
            people[province][new.id] = moved
    state = state.with_people(people)
    return _owners(state, **{p: (new.id if civilized else None) for p in provinces}), new.id


def capital_loss(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    """A state without the majority in its capital at the end of the turn: every region of it
    but the capital's declares independence (a captured state has nothing to lose)."""
    state, events = turn.state, []
    for faction in sorted(state.factions):
        record = state.factions[faction]
        if not record.is_state or record.captured or record.capital is None:
            continue
        if state.majority(record.capital) == faction:
            continue
        home = state.world.region_of(record.capital)
        regions = sorted({state.world.region_of(p) for p in state.owned_by(faction)} - {home})
        events.append(Event("capital_lost", {"state": faction, "capital": record.capital, "regions": regions}))
        for region in regions:
            state, new = secede(state, faction, region)
            events.append(Event("secession", {"state": faction, "region": region, "new": new, "reason": "capital"}))
    return turn.with_state(state), events

