"""A Legends day: the lynch from the counted blue votes (rules §2)."""
from __future__ import annotations

from collections import Counter

from forumgm.engines.base import Event, Tally
from forumgm.engines.legends.inherit import inherit_spells
from forumgm.engines.legends.state import LegendsState


def lynch_open(game: LegendsState, number: int) -> bool:
    return number >= game.table.first_lynch_day and not game.continuous


def resolve_day(game: LegendsState, number: int, tally: Tally | None) -> tuple[LegendsState, list[Event]]:
    if not lynch_open(game, number):
        return game, [Event("no_lynch_day", {"day": number, "continuous": game.continuous})]
    counted = [vote for vote in (tally.counted if tally else ()) if game.is_alive(vote.target)]
    counts = Counter(vote.target for vote in counted)
    ranking = sorted(counts.items(), key=lambda item: -item[1])
    events = [Event("lynch_tally", {"counts": [[nick, n] for nick, n in ranking]})]
    lynched, immune, reason = _verdict(game, ranking)
    if lynched is None:
        return game, events + [Event("no_lynch", {"reason": reason, "immune_leader": immune})]
    heir = _first_voter(counted, lynched)
    events.append(Event("lynched", {"nick": lynched, "votes": counts[lynched], "immune_leader": immune,
                                    "first_voter": heir}))
    game, inherited = inherit_spells(game.without([lynched]), {lynched: heir})
    return game, events + inherited


def _verdict(game: LegendsState, ranking: list[tuple[str, int]]) -> tuple[str | None, str | None, str]:
    """(lynched, immune leader, reason when nobody is lynched). A tie at the deciding place
    means no lynch; an immune unique leader gives way to a unique, lynchable second place."""
    place = _unique_top(ranking)
    if place is None:
        return None, None, "tie" if ranking else "no_votes"
    if game.lynchable(place):
        return place, None, ""
    rest = [(nick, n) for nick, n in ranking if nick != place]
    second = _unique_top(rest)
    if second is None:
        return None, place, "tie_second" if rest else "immune_alone"
    if not game.lynchable(second):
        return None, place, "second_immune"
    return second, place, ""


def _unique_top(ranking: list[tuple[str, int]]) -> str | None:
    if not ranking or (len(ranking) > 1 and ranking[1][1] == ranking[0][1]):
        return None
    return ranking[0][0]


def _first_voter(counted: list, target: str) -> str:
    """The earliest counted vote for the lynched player (tally order when untimed)."""
    votes = [(vote.at is None, vote.at, index, vote.voter) for index, vote in enumerate(counted)
             if vote.target == target]
    return min(votes, key=lambda v: (v[0], v[1] if v[1] is not None else 0, v[2]))[3]
