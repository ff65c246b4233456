"""A rehearsal's stand-in players for Bellum (`Rules.stand_ins`): each sends a plain turn.

A stand-in moves some of his people (or of a people his subjugated) from one province into a
neighbour (peacefully, or attacking all there when others stand in it), or keeps them where they
are, then ends the turn with «ход готов», so that a turn of stand-ins ends early like a turn of
players who are done. The lines are the receipts' canonical forms, which the order grammar reads back.
"""
from __future__ import annotations

import random

from forumgm.engines.base import Phase, StandIn, phase_rng
from forumgm.engines.bellum.orders import book_of
from forumgm.engines.bellum.state import BellumState
from forumgm.parsers.orders.bellum import ATTACK_ALL, PEACE, Move, Ready, Stay, canonical

STAY_ODDS = 0.25        # how often a stand-in keeps his people where they are
ATTACK_ODDS = 0.5       # how often he attacks where others stand rather than come in peace


def stand_ins(state: BellumState, phase: Phase, seed: int) -> list[StandIn]:
    rng = phase_rng(seed, phase).stream("stand-ins")
    book = book_of(state, phase.number)
    moves = []
    for nick in state.players():
        order = _order(state, nick, rng)
        lines = [canonical(line, book) for line in (order, Ready()) if line is not None]
        moves.append(StandIn(nick, pm="\n".join(lines)))
    return moves


def _order(state: BellumState, nick: str, rng: random.Random) -> Move | Stay | None:
    """Of one province the die picks, of one faction he commands (his own, or one his people
    subjugated: named then): some people to a neighbour, or all of them staying. None when he
    commands nobody (his people subjugated, or gone)."""
    factions = [f for f in state.controlled_by(nick) if state.provinces_of(f)]
    if not factions:
        return None
    faction = rng.choice(factions)
    named = None if faction == state.own_faction(nick) else faction
    origin = rng.choice(state.provinces_of(faction))
    neighbours = state.world.neighbours(origin, state.factions[faction].link_kinds)
    if not neighbours or rng.random() < STAY_ODDS:
        return Stay(origin, named)
    dest = rng.choice(neighbours)
    there = state.count(origin, faction)
    strangers = [f for f in state.present(dest) if state.camp(f) != state.camp(faction)]
    stance = ATTACK_ALL if strangers and rng.random() < ATTACK_ODDS else PEACE
    return Move(rng.randint(1, max(1, there // 2)), origin, dest, named, stance)

