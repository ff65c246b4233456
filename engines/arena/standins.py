"""A rehearsal's stand-in fighters for Arena (`Rules.stand_ins`): each lays down his stacks.

When a fighter's stacks are due (the opening ones, or a refill the last step asked for), his
stand-in sends a line for each hand he still has: the hands play sequences their weapon allows,
picked by the die, until the stack is full; the legs step forward while the nearest opponent is
beyond the right hand's reach and rest once he is within it. What is left short the engine fills
with rests, as for a player. The lines are the receipts' canonical forms, which the order
grammar reads back.
"""
from __future__ import annotations

import random

from forumgm.engines.arena.fight import distance
from forumgm.engines.arena.state import ArenaState, Card, Fighter
from forumgm.engines.arena.table import ArenaTable, Sequence
from forumgm.engines.base import Phase, StandIn, phase_rng
from forumgm.parsers.orders.arena import Item, StackLine, canonical_line

HAND_KINDS = frozenset({"rest", "attack", "defense"})
NEEDS_ARG = frozenset({"attack", "defense", "move", "turn"})


def stand_ins(state: ArenaState, phase: Phase, seed: int) -> list[StandIn]:
    if state.result is not None:
        return []
    rng = phase_rng(seed, phase).stream("stand-ins")
    table, moves = state.table, []
    for fighter in state.in_fight():
        if fighter.sent and not fighter.refill_due:
            continue
        size = fighter.refill_due or table.stack_size
        lines = [canonical_line(StackLine(hand, tuple(_stack(state, fighter, hand, size, rng))), table.vocabulary)
                 for hand in fighter.active_hands()]
        moves.append(StandIn(fighter.nick, pm="\n".join(lines)))
    return moves


def _stack(state: ArenaState, fighter: Fighter, hand: str, size: int, rng: random.Random) -> list[Item]:
    table = state.table
    stack = fighter.stack(hand)
    items = _finish(stack[-1], table) if stack and stack[-1].ahead else []
    room = size - len(items)
    if hand == "legs":
        step = _step(table, fighter)
        far = _nearest(state, fighter) > _reach(table, fighter, "right")[1]
        if step is not None and len(step.cards) <= room and far:
            items.append(Item(None, step.number, "forward"))
    else:
        zones, opponents = _safe_zones(table), state.opponents(fighter.nick)
        while fits := [s for s in _plan(state, fighter, hand) if len(s.cards) <= room]:
            sequence = rng.choice(fits)
            target = None
            if sequence.kind == "attack" and len(opponents) > 1:     # more than one: the attack names whom
                reach = _reach(table, fighter, hand, sequence)
                target = rng.choice([o.nick for o in opponents if _within(reach, distance(fighter, o))])
            items.append(Item(None, sequence.number, rng.choice(zones), target=target))
            room -= len(sequence.cards)
    return items or [Item(None, _rest(table).number, None)]


def _plan(state: ArenaState, fighter: Fighter, hand: str) -> list[Sequence]:
    """The left hand defends where it can; a hand that attacks plays what reaches the nearest
    opponent, and defends while nothing does."""
    table = state.table
    fighting = _hand_sequences(table, fighter, hand)
    defenses = [s for s in fighting if s.kind == "defense"]
    if hand == "left" and defenses:
        return defenses
    near = _nearest(state, fighter)
    attacks = [s for s in fighting if s.kind == "attack" and _within(_reach(table, fighter, hand, s), near)]
    return attacks or defenses


def _reach(table: ArenaTable, fighter: Fighter, hand: str, sequence: Sequence | None = None) -> tuple[int, int]:
    """The distances a hand's attack hits at (fight._attack): the sequence's own or the weapon's."""
    low, high = (sequence and sequence.range) or table.weapons[fighter.weapon_of(hand)].range
    return low, high + (fighter.attack_rating if sequence and sequence.max_rating else 0)


def _within(reach: tuple[int, int], far: int) -> bool:
    return reach[0] <= far <= reach[1]


def _nearest(state: ArenaState, fighter: Fighter) -> int:
    return min(distance(fighter, other) for other in state.opponents(fighter.nick))


def _finish(last: Card, table: ArenaTable) -> list[Item]:
    """The cards a sequence begun in the stack still owes, first in the refill as the rules want,
    aimed where its begun cards were."""
    return [Item(code, None, last.arg if table.kind(code) in NEEDS_ARG else None,
                 target=last.target if table.kind(code) in ("attack", "defense") else None) for code in last.ahead]


def _kinds(sequence: Sequence, table: ArenaTable) -> set[str]:
    return {table.kind(code.strip("()")) for code in sequence.cards}


def _allowed(table: ArenaTable, fighter: Fighter, hand: str) -> list[Sequence]:
    weapon = table.weapons[fighter.weapon_of(hand)]
    return [s for s in table.sequences.values()
            if (s.every_weapon or s.number in weapon.sequences) and s.replacement != "only"]


def _hand_sequences(table: ArenaTable, fighter: Fighter, hand: str) -> list[Sequence]:
    """What the hand may play that fights: an attack or a defense; never a surrender, nor a throw
    (a stand-in keeps his weapon for the next stack)."""
    return [s for s in _allowed(table, fighter, hand)
            if _kinds(s, table) <= HAND_KINDS and _kinds(s, table) != {"rest"}
            and table.throw not in (code.strip("()") for code in s.cards)]


def _step(table: ArenaTable, fighter: Fighter) -> Sequence | None:
    """The legs' shortest move forward (a step): moves and rests only, so that it never clashes
    with a hand's attack or defense in the same step."""
    moves = [s for s in _allowed(table, fighter, "legs") if _kinds(s, table) == {"move", "rest"}]
    return min(moves, key=lambda s: (len(s.cards), s.number), default=None)


def _rest(table: ArenaTable) -> Sequence:
    return next(s for s in table.sequences.values() if _kinds(s, table) == {"rest"})


def _safe_zones(table: ArenaTable) -> list[str]:
    """Zones any two of which the hands may aim at in the same step: no two opposite (the left
    hand would give way) and no arm (a shield may not guard the other one)."""
    arms = {table.body["left_arm"], table.body["right_arm"]}
    zones: list[str] = []
    for zone in table.zones:
        if zone not in arms and not any(table.is_opposite(zone, kept) for kept in zones):
            zones.append(zone)
    return zones
