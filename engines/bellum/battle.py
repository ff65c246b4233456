"""Battles in one province (rules «Бой»; phases 5 and 7).

Who fights whom is worked out faction by faction from the orders, then lifted to camps (a
player's factions, or a host-controlled tribe with the tribes it subjugated): factions of one
camp never fight each other and fight on one side. Pairwise fights that share an enemy merge
into one battle — in a fight graph that splits into two sides (bipartite), each connected part
is one battle of its two sides; a part where allies of one side also fight each other is fought
pair by pair.

Strength = people × state_factor (a faction that is or was a state) × roll × event percent,
kept in integer units of 1/10000 so that equal strengths are exactly equal.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Iterable, Mapping

from forumgm.engines.base import PhaseRng
from forumgm.engines.bellum.state import BellumState

UNIT = 10000


def camp_edges(state: BellumState, pairs: Iterable[tuple[str, str]]) -> set[frozenset[str]]:
    return {frozenset((state.camp(a), state.camp(b))) for a, b in pairs if state.camp(a) != state.camp(b)}


def _components(edges: set[frozenset[str]]) -> list[tuple[list[str], list[frozenset[str]]]]:
    near: dict[str, set[str]] = {}
    for edge in edges:
        a, b = sorted(edge)
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    seen: set[str] = set()
    out = []
    for start in sorted(near):
        if start in seen:
            continue
        part, queue = [], deque([start])
        seen.add(start)
        while queue:
            node = queue.popleft()
            part.append(node)
            for other in sorted(near[node]):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        out.append((sorted(part), sorted((e for e in edges if next(iter(e)) in part), key=sorted)))
    return out


def _two_sides(nodes: list[str], edges: list[frozenset[str]]) -> tuple[list[str], list[str]] | None:
    """The two sides of a fight graph, or None when it is not two-sided."""
    side = {nodes[0]: 0}
    queue = deque([nodes[0]])
    while queue:
        node = queue.popleft()
        for edge in edges:
            if node in edge:
                (other,) = edge - {node}
                if other not in side:
                    side[other] = 1 - side[node]
                    queue.append(other)
                elif side[other] == side[node]:
                    return None
    return sorted(n for n in nodes if side[n] == 0), sorted(n for n in nodes if side[n] == 1)


def roll(state: BellumState, rng: PhaseRng, province: str, members: list[str], faction: str) -> int:
    """The faction's coefficient in hundredths, from a hash of (seed, turn, phase, province,
    participants, faction): correcting an order elsewhere never changes it."""
    if state.fixed_roll is not None:
        return state.fixed_roll
    return rng.stream(province, "|".join(members), faction).randint(state.rules.roll_low, state.rules.roll_high)


def _fight(state: BellumState, rng: PhaseRng, province: str, phase: int, camps: tuple[list[str], list[str]],
           strength_percent: Mapping[str, int]) -> dict[str, Any]:
    here = state.present(province)
    sides = [sorted(f for f in here if state.camp(f) in side) for side in camps]
    members = sorted(f for side in sides for f in side)
    rolls = {f: roll(state, rng, province, members, f) for f in members}
    factors = {f: state.rules.state_factor if state.factions[f].doubled else 1 for f in members}
    units = {f: here[f] * factors[f] * rolls[f] * strength_percent.get(f, 100) for f in members}
    totals = [sum(units[f] for f in side) for side in sides]
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return {
        "province": province, "phase": phase,
        "sides": [{"members": side, "strength": round(total / UNIT, 2)} for side, total in zip(sides, totals)],
        "people": {f: here[f] for f in members},
        "factors": factors,
        "rolls": {f: rolls[f] / 100 for f in members},
        "percent": {f: strength_percent[f] for f in members if f in strength_percent},
        "strengths": {f: round(units[f] / UNIT, 2) for f in members},
        "winner": winner,
        "winners": [] if winner is None else sides[winner],
        "losers": [] if winner is None else sides[1 - winner],
    }


def battles_in(state: BellumState, rng: PhaseRng, province: str, phase: int,
               pairs: Iterable[tuple[str, str]], strength_percent: Mapping[str, int]) -> list[dict[str, Any]]:
    """Every battle fought in the province between the given (faction, faction) fights."""
    out = []
    for nodes, edges in _components(camp_edges(state, pairs)):
        sides = _two_sides(nodes, edges)
        if sides is not None:
            out.append(_fight(state, rng, province, phase, sides, strength_percent))
        else:
            out += [_fight(state, rng, province, phase, ([a], [b]), strength_percent)
                    for a, b in (sorted(edge) for edge in edges)]
    return out
