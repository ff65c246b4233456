"""The sign-up's optimal assignment: every player one of the choices he listed where possible.

Each player lists choices (factions) in order of preference. The assignment first gives a
listed choice to as many players as possible, then maximises the total preference (a first
choice is worth more than a second), and among assignments that tie it favours the players
who signed up first: the earliest player gets the best choice any optimal assignment can give
him, then the next one, and so on. All three at once are one assignment problem
(`engines/hungarian.py`): each pair's weight writes the three criteria as digits of one number,
the first worth more than any sum of the others (Python's integers are exact at any size).
Pure: the same lists give the same answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from forumgm.engines.hungarian import least_cost


@dataclass(frozen=True)
class Wish:
    player: str
    choices: tuple[str, ...]        # in order of preference, best first


@dataclass(frozen=True)
class Missed:
    choice: str                     # a choice the player ranked above what he got
    taken_by: str | None            # who got it


@dataclass(frozen=True)
class Assignment:
    given: Mapping[str, str | None]             # player -> choice (None: every listed choice went to others)
    rank: Mapping[str, int | None]              # player -> 1-based rank of what he got
    missed: Mapping[str, tuple[Missed, ...]]    # player -> the better choices he did not get
    total: int                                  # sum over players of (depth - rank + 1)


def assign(wishes: Sequence[Wish], offered: Sequence[str]) -> Assignment:
    """`wishes` in sign-up order; `offered` are the choices that may be given (others are ignored)."""
    offered = set(offered)
    listed = [[c for c in dict.fromkeys(w.choices) if c in offered] for w in wishes]
    asked = list(dict.fromkeys(c for mine in listed for c in mine))    # a choice nobody listed is nobody's
    column = {choice: j for j, choice in enumerate(asked)}
    players = len(wishes)
    depth = max((len(mine) for mine in listed), default=0)
    # A player's rank r (0: his first choice) is worth `depth - r + 1`; nothing is worth 0. Most
    # players with a listed choice first: one more outweighs any preference (`bonus`); then the
    # total preference; then player i's rank as digit i of a number in base depth + 1, the first
    # player's digit the highest (`tie`): the sum of all those numbers is below one `order`.
    bonus = depth * players + 1
    order = (depth + 1) ** players
    cost: list[list[int | None]] = []
    for i, mine in enumerate(listed):
        tie = (depth + 1) ** (players - 1 - i)
        row: list[int | None] = [None] * len(asked) + [0] * players      # then one "nothing" column each
        for r, choice in enumerate(mine):
            row[column[choice]] = -((bonus + depth - r) * order + (depth - r) * tie)
        cost.append(row)
    given = {wish.player: (asked[j] if j < len(asked) else None) for wish, j in zip(wishes, least_cost(cost))}
    holder = {choice: player for player, choice in given.items() if choice is not None}
    rank, missed = {}, {}
    for wish, mine in zip(wishes, listed):
        got = given[wish.player]
        rank[wish.player] = mine.index(got) + 1 if got is not None else None
        better = mine[:rank[wish.player] - 1] if got is not None else mine
        missed[wish.player] = tuple(Missed(choice, holder.get(choice)) for choice in better)
    total = sum(depth - r + 1 for r in rank.values() if r is not None)
    return Assignment(given, rank, missed, total)
