"""Authority of states (rules «Авторитет»): income from provinces, upkeep of regions, and the
secession of the least stable region while a state spends more than it gets.

Fractions keep the upkeep shares exact (a third of a region's upkeep is 1/3, not 0.333…).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from forumgm.engines.base import Event, PhaseRng
from forumgm.engines.bellum.politics import secede
from forumgm.engines.bellum.state import BellumState
from forumgm.engines.bellum.work import Turn, TurnOrders


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 2)


def region_income(state: BellumState, faction: str, region: str) -> int:
    """Each owned province with at least one of the state's people gives its authority value."""
    world = state.world
    return sum(world.provinces[p].authority for p in state.owned_by(faction)
               if world.region_of(p) == region and state.count(p, faction) > 0)


def region_upkeep(state: BellumState, faction: str, region: str) -> Fraction:
    """The region's upkeep × the state's share of the region's authority value (0 for the capital's)."""
    world, capital = state.world, state.factions[faction].capital
    if capital is not None and world.region_of(capital) == region:
        return Fraction(0)
    owned = sum(world.provinces[p].authority for p in state.owned_by(faction) if world.region_of(p) == region)
    total = world.region_authority(region)
    return Fraction(str(world.regions[region].upkeep)) * owned / total if total else Fraction(0)


def balance(state: BellumState, faction: str) -> dict[str, Any]:
    regions = sorted({state.world.region_of(p) for p in state.owned_by(faction)})
    income = sum(region_income(state, faction, r) for r in regions) + state.authority_bonus.get(faction, 0)
    upkeep = sum((region_upkeep(state, faction, r) for r in regions), Fraction(0))
    return {"income": income, "upkeep": upkeep, "balance": income - upkeep, "regions": regions}


def authority_table(state: BellumState) -> dict[str, dict[str, int | float]]:
    out = {}
    for faction in sorted(state.factions):
        record = state.factions[faction]
        if record.is_state and not record.captured:
            numbers = balance(state, faction)
            out[faction] = {key: _number(Fraction(numbers[key])) for key in ("income", "upkeep", "balance")}
    return out


def _least_stable(state: BellumState, faction: str, regions: list[str]) -> str | None:
    """The region whose upkeep share exceeds its income the most (ties: lowest id)."""
    capital = state.factions[faction].capital
    home = state.world.region_of(capital) if capital else None
    candidates = [r for r in regions if r != home]
    if not candidates:
        return None
    return min(candidates, key=lambda r: (-(region_upkeep(state, faction, r) - region_income(state, faction, r)), r))


def authority(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    state, events = turn.state, []
    for faction in sorted(state.factions):
        record = state.factions[faction]
        if not record.is_state or record.captured:
            continue
        while True:
            numbers = balance(state, faction)
            if numbers["income"] >= numbers["upkeep"]:
                break
            region = _least_stable(state, faction, numbers["regions"])
            if region is None:
                break
            state, new = secede(state, faction, region)
            events.append(Event("secession", {"state": faction, "region": region, "new": new, "reason": "authority",
                                              "income": _number(Fraction(numbers["income"])),
                                              "upkeep": _number(numbers["upkeep"])}))
    for faction, numbers in authority_table(state).items():
        events.append(Event("authority", {"state": faction, **numbers}))
    return turn.with_state(state), events
