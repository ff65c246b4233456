"""The assignment problem's solver against brute force: every small matrix, forbidden pairs too."""
import itertools

import pytest
from hypothesis import given, settings, strategies as st

from forumgm.engines.hungarian import least_cost


def cheapest(cost):
    """The least total cost of any assignment by trying them all (None: none avoids the forbidden pairs)."""
    totals = [sum(cost[i][j] for i, j in enumerate(columns))
              for columns in itertools.permutations(range(len(cost[0])), len(cost))
              if all(cost[i][j] is not None for i, j in enumerate(columns))]
    return min(totals, default=None)


@st.composite
def matrices(draw):
    rows = draw(st.integers(1, 5))
    columns = draw(st.integers(rows, 6))
    entry = st.one_of(st.integers(-10**30, 10**30), st.integers(-5, 5), st.none())
    return [draw(st.lists(entry, min_size=columns, max_size=columns)) for _ in range(rows)]


@settings(max_examples=400, deadline=None)
@given(matrices())
def test_the_assignment_costs_the_least_any_assignment_costs(cost):
    best = cheapest(cost)
    if best is None:
        with pytest.raises(ValueError, match="forbidden"):
            least_cost(cost)
        return
    columns = least_cost(cost)
    assert len(set(columns)) == len(cost)
    assert all(cost[i][j] is not None for i, j in enumerate(columns))
    assert sum(cost[i][j] for i, j in enumerate(columns)) == best


def test_no_rows_no_assignment_and_fewer_columns_than_rows_are_refused():
    assert least_cost([]) == []
    with pytest.raises(ValueError, match="at least as many"):
        least_cost([[1], [2]])
