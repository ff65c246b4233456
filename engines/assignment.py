"""The sign-up's optimal assignment: every player one of the choices he listed where possible.

Each player lists choices (factions) in order of preference. The assignment first gives a
listed choice to as many players as possible, then maximises the total preference (a first
choice is worth more than a second), and among assignments that tie it favours the players
who signed up first: the earliest player gets the best choice any optimal assignment can give
him, then the next one, and so on. Every step is one `scipy.optimize.linear_sum_assignment`
over the players × (choices + "nothing") matrix. Pure: the same lists give the same answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

if TYPE_CHECKING:
    import numpy as np

# Pairs that may not be chosen (finite: linear_sum_assignment wants a feasible matrix; every
# player can always take a "nothing" column, so a forbidden pair is never needed).
_FORBIDDEN = -1e12


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
    # imported here, not at the top: the daemon imports this module (through the host's pages) but
    # only a sign-up by choices calls it, and scipy would otherwise sit in its memory for months
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    offered = list(dict.fromkeys(offered))
    column = {choice: j for j, choice in enumerate(offered)}
    listed = [[c for c in dict.fromkeys(w.choices) if c in column] for w in wishes]
    players, choices = len(wishes), len(offered)
    depth = max((len(choices_) for choices_ in listed), default=0)
    bonus = depth * players + 1            # one more player with a listed choice outweighs any preference gain
    score = np.full((players, choices + players), _FORBIDDEN)
    score[:, choices:] = 0.0               # "nothing" columns, one per player
    for i, mine in enumerate(listed):
        for rank, choice in enumerate(mine):
            score[i, column[choice]] = bonus + depth - rank
    best = _optimum(score)
    for i, mine in enumerate(listed):      # sign-up order breaks ties
        for option in [column[c] for c in mine] + [None]:
            trial = _fix(score, i, option, choices)
            if _optimum(trial) >= best - 0.5:
                score = trial
                break
    rows, cols = linear_sum_assignment(score, maximize=True)
    given = {wishes[i].player: (offered[j] if j < choices else None) for i, j in zip(rows, cols)}
    holder = {choice: player for player, choice in given.items() if choice is not None}
    rank, missed = {}, {}
    for wish, mine in zip(wishes, listed):
        got = given[wish.player]
        rank[wish.player] = mine.index(got) + 1 if got is not None else None
        better = mine[:rank[wish.player] - 1] if got is not None else mine
        missed[wish.player] = tuple(Missed(choice, holder.get(choice)) for choice in better)
    total = sum(depth - r + 1 for r in rank.values() if r is not None)
    return Assignment(given, rank, missed, total)


def _fix(score: np.ndarray, row: int, column: int | None, choices: int) -> np.ndarray:
    """The matrix with player `row` held to `column` (None: to nothing)."""
    fixed = score.copy()
    if column is None:
        fixed[row, :choices] = _FORBIDDEN
    else:
        keep = fixed[row, column]
        fixed[row, :] = _FORBIDDEN
        fixed[:, column] = _FORBIDDEN
        fixed[row, column] = keep
    return fixed


def _optimum(score: np.ndarray) -> float:
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(score, maximize=True)
    return float(score[rows, cols].sum())
