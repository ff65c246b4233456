"""A turn in progress: the game state plus what the turn's phases learn and hand on.

Each rules step takes a `Turn` and returns a new one; `Work` carries, for instance, who moved
where (for the falling back of phase 6) and who lost where (for subjugation at the retreat steps).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Mapping

from forumgm.engines.bellum.orders import PlayerOrders
from forumgm.engines.bellum.state import BellumState
from forumgm.engines.bellum.world import frozen
from forumgm.parsers.orders.bellum import IDLE, Order


@dataclass(frozen=True)
class Arrival:
    """A moved group: `back` once it lost at its destination and fell back to its origin."""

    faction: str
    origin: str
    dest: str
    count: int
    stance: str
    targets: tuple[str, ...] = ()
    back: bool = False


@dataclass(frozen=True)
class Work:
    number: int
    kingdom_holder: str | None = None                  # majority in the kingdom province at the start
    arrivals: tuple[Arrival, ...] = ()
    stances: Mapping[tuple[str, str], tuple[str, tuple[str, ...]]] = field(default_factory=lambda: frozen({}))   # (province, faction)
    after_move: Mapping[str, frozenset[str]] = field(default_factory=lambda: frozen({}))    # faction -> provinces after movement
    lost: frozenset[tuple[str, str]] = frozenset()           # (province, faction) beaten there
    losers: frozenset[str] = frozenset()                     # factions that lost any battle
    beaten_by: Mapping[str, Mapping[str, float]] = field(default_factory=lambda: frozen({}))  # loser -> winner -> strength
    driven: frozenset[tuple[str, str]] = frozenset()         # (faction, province) driven out
    decided: frozenset[str] = frozenset()                    # tribes whose subjugation was decided this turn
    battles: tuple[Mapping[str, Any], ...] = ()
    strength: Mapping[str, int] = field(default_factory=lambda: frozen({}))                 # faction -> percent (host events)

    @cached_property
    def _arrived(self) -> dict[str, list[Arrival]]:
        out: dict[str, list[Arrival]] = {}
        for arrival in self.arrivals:
            if not arrival.back:
                out.setdefault(arrival.dest, []).append(arrival)
        return out

    def arrived_in(self, province: str) -> list[Arrival]:
        """The groups that moved into the province and are still there."""
        return self._arrived.get(province, [])

    def stance(self, province: str, faction: str) -> tuple[str, tuple[str, ...]]:
        return self.stances.get((province, faction), (IDLE, ()))


@dataclass(frozen=True)
class Turn:
    state: BellumState
    work: Work

    def with_state(self, state: BellumState) -> "Turn":
        return replace(self, state=state)

    def with_work(self, **changes: Any) -> "Turn":
        return replace(self, work=replace(self.work, **changes))


@dataclass(frozen=True)
class TurnOrders:
    """The players' orders in force, each with the faction it commands."""

    players: Mapping[str, PlayerOrders] = field(default_factory=dict)

    def each(self, kind: type) -> list[tuple[str, Order]]:
        """(sender, order) for every order of a kind, players in name order."""
        return [(nick, order) for nick in sorted(self.players)
                for order in self.players[nick].orders if isinstance(order, kind)]

    def own(self, nick: str) -> str | None:
        return self.players[nick].own
