"""The sign-up's optimal assignment against brute force, and the rules it promises."""
import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from forumgm.engines.assignment import Wish, assign


def brute_force(wishes, offered):
    """Every way to give each player one offered choice or nothing, best by: most players with a
    listed choice, then the largest total preference, then the earliest players' ranks."""
    depth = max((len(w.choices) for w in wishes), default=0)
    best, best_key = None, None
    options = list(offered) + [None] * len(wishes)
    for picks in itertools.permutations(range(len(options)), len(wishes)):
        given = [options[k] for k in picks]
        ranks = []
        for wish, choice in zip(wishes, given):
            if choice is not None and choice not in wish.choices:
                break
            ranks.append(wish.choices.index(choice) + 1 if choice is not None else None)
        else:
            matched = sum(r is not None for r in ranks)
            total = sum(depth - r + 1 for r in ranks if r is not None)
            key = (matched, total, tuple(-(r if r is not None else depth + 1) for r in ranks))
            if best_key is None or key > best_key:
                best, best_key = dict(zip((w.player for w in wishes), given)), key
    return best, best_key


@pytest.mark.parametrize("seed", range(60))
def test_assignment_matches_brute_force_on_small_cases(seed):
    rng = random.Random(seed)
    offered = [f"f{i}" for i in range(rng.randint(2, 5))]
    wishes = [Wish(f"p{i}", tuple(rng.sample(offered, rng.randint(1, len(offered)))))
              for i in range(rng.randint(1, 5))]
    expected, (matched, total, _) = brute_force(wishes, offered)
    result = assign(wishes, offered)
    assert dict(result.given) == expected
    assert result.total == total
    assert sum(choice is not None for choice in result.given.values()) == matched


@st.composite
def sign_ups(draw):
    """Up to 4 players listing up to 4 choices each, repeated ones and ones not on offer among them."""
    offered = [f"f{i}" for i in range(draw(st.integers(1, 4)))]
    choice = st.sampled_from(offered + ["gone"])
    wishes = [Wish(f"p{i}", tuple(draw(st.lists(choice, max_size=4)))) for i in range(draw(st.integers(0, 4)))]
    return wishes, offered


@settings(max_examples=300, deadline=None)
@given(sign_ups())
def test_the_assignment_is_the_best_of_all_by_brute_force(sign_up):
    wishes, offered = sign_up
    listed = [Wish(w.player, tuple(c for c in dict.fromkeys(w.choices) if c in offered)) for w in wishes]
    expected, (_, total, _) = brute_force(listed, offered)
    result = assign(wishes, offered)
    assert dict(result.given) == expected
    assert result.total == total


def test_everyone_gets_a_listed_choice_where_possible_even_at_a_cost_in_preference():
    wishes = [Wish("Аскон", ("a", "b")), Wish("Хан", ("a",))]
    result = assign(wishes, ["a", "b", "c"])
    assert result.given == {"Аскон": "b", "Хан": "a"}
    assert result.missed["Аскон"][0].choice == "a" and result.missed["Аскон"][0].taken_by == "Хан"


def test_a_tie_goes_to_who_signed_up_first():
    wishes = [Wish("first", ("a", "b", "c")), Wish("second", ("a", "b", "c"))]
    assert assign(wishes, ["a", "b", "c"]).given == {"first": "a", "second": "b"}
    assert assign(wishes[::-1], ["a", "b", "c"]).given == {"second": "a", "first": "b"}


def test_a_player_whose_choices_are_all_taken_gets_none_and_misses_them_all():
    wishes = [Wish("a1", ("x",)), Wish("a2", ("x",))]
    result = assign(wishes, ["x", "y"])
    assert result.given == {"a1": "x", "a2": None}
    assert [(m.choice, m.taken_by) for m in result.missed["a2"]] == [("x", "a1")]


def test_choices_not_on_offer_are_ignored():
    result = assign([Wish("a", ("gone", "x"))], ["x"])
    assert result.given == {"a": "x"} and result.rank == {"a": 1}


def test_sixty_players_for_fifty_eight_factions_are_assigned(s370=None):
    rng = random.Random(7)
    offered = [f"f{i}" for i in range(58)]
    wishes = [Wish(f"p{i}", tuple(rng.sample(offered[:20], 3))) for i in range(60)]
    result = assign(wishes, offered)
    given = [c for c in result.given.values() if c is not None]
    assert len(given) == len(set(given)) == 20          # only 20 factions were ever asked for
