"""The assignment problem: rows to distinct columns at the least total cost (the Hungarian method).

Pure Python over exact integers, for the sizes a game has (a few dozen players, as many
choices): O(rows² × columns) steps, a sign-up of 60 players is solved in a fraction of a second.
"""
from __future__ import annotations

from typing import Sequence


def least_cost(cost: Sequence[Sequence[int | None]]) -> list[int]:
    """For each row, the column it gets in an assignment of every row to a column of its own with
    the least total cost. None marks a pair that may not be chosen; every row needs a column
    whatever the others take (at least as many columns as rows, and an assignment using none of
    the forbidden pairs must exist: ValueError otherwise).

    The shortest augmenting path form of the method (Kuhn–Munkres with potentials, as in
    Jonker–Volgenant): each row in turn joins the assignment along the cheapest path in the
    reduced costs, which stay non-negative.
    """
    rows = len(cost)
    if rows == 0:
        return []
    columns = len(cost[0])
    if any(len(row) != columns for row in cost) or columns < rows:
        raise ValueError("every row needs the same columns, at least as many as there are rows")
    u = [0] * (rows + 1)            # the rows' potentials (1-based; 0 is the row being added)
    v = [0] * (columns + 1)         # the columns' potentials (0: a virtual column)
    owner = [0] * (columns + 1)     # the row (1-based) holding each column, 0: none
    for row in range(1, rows + 1):
        owner[0] = row
        column = 0
        lowest: list[int | None] = [None] * (columns + 1)   # the cheapest reduced cost reaching each column
        previous = [0] * (columns + 1)                        # ... from which column of the path
        used = [False] * (columns + 1)
        while True:
            used[column] = True
            holder = owner[column]
            costs, potential = cost[holder - 1], u[holder]
            delta, nearest = None, 0
            for j in range(1, columns + 1):
                if used[j]:
                    continue
                c = costs[j - 1]
                if c is not None:
                    reduced = c - potential - v[j]
                    if lowest[j] is None or reduced < lowest[j]:
                        lowest[j], previous[j] = reduced, column
                if lowest[j] is not None and (delta is None or lowest[j] < delta):
                    delta, nearest = lowest[j], j
            if delta is None:
                raise ValueError("no assignment avoids the forbidden pairs")
            for j in range(columns + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                elif lowest[j] is not None:
                    lowest[j] -= delta
            column = nearest
            if owner[column] == 0:
                break
        while column:               # the path's columns change hands back to the new row
            before = previous[column]
            owner[column] = owner[before]
            column = before
    given = [0] * rows
    for j in range(1, columns + 1):
        if owner[j]:
            given[owner[j] - 1] = j - 1
    return given
