"""Reading order PMs against the state: receipts, and the orders a turn resolves from.

A receipt refuses what is wrong when the order arrives (syntax, names, adjacency, links, people
present, whose faction it is); what can only fail at resolution (a lost majority, a creation
without consent) is reported with the turn. The last PM before the deadline replaces earlier
orders for the same group: a later PM that orders the people of a faction in a province drops
every earlier order for those people.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Sequence

from forumgm.engines.base import Accepted, OrderPm, Phase, Rejected, Verdict, read_lines, split_lines
from forumgm.engines.bellum.state import BellumState
from forumgm.engines.bellum.world import PURPLE
from forumgm.parsers.orders.bellum import (
    Abandon, AbandonRegion, Annex, Assimilate, Book, Consent, EventChoice, Independence, MakeState, Move,
    Order, Ready, Retreat, Stay, canonical, inflect, names_of, parse_line,
)

REPLACES = " (заменяет прежний приказ)"


def phase_events(state: BellumState, turn: int) -> dict[int, tuple[str, ...]]:
    """The host events players choose options of this turn: number -> option letters."""
    return {e["number"]: tuple(o["letter"] for o in e["options"])
            for e in state.host_events if e["turn"] == turn}


@lru_cache(maxsize=16)
def _book(provinces: tuple, factions: tuple, regions: tuple, events: tuple) -> Book:
    return Book(names_of("провинция", provinces), names_of("народ", factions, people=True),
                names_of("регион", regions), dict(events))


def book_of(state: BellumState, turn: int) -> Book:
    world = state.world
    return _book(
        tuple((p.id, p.name, p.aliases) for p in world.provinces.values()),
        tuple((f.id, f.name, f.aliases) for f in state.factions.values()),
        tuple((r.id, r.name, ()) for r in world.regions.values()),
        tuple(sorted(phase_events(state, turn).items())),
    )


def group_of(order: Order, own: str | None) -> tuple:
    """Orders of one group replace each other PM by PM (see the module doc)."""
    match order:
        case Move() | Stay():
            return ("people", order.origin if isinstance(order, Move) else order.province, order.faction or own)
        case Retreat():
            return ("retreat", order.origin, order.faction or own)
        case Annex() | Abandon():
            return ("province", order.province)
        case AbandonRegion():
            return ("region", order.region)
        case MakeState():
            return ("make_state", order.tribe)
        case EventChoice():
            return ("event", order.number)
    return (type(order).__name__,)


class Refusal(Exception):
    pass


@dataclass
class _Review:
    """What earlier lines of the same PM already took: people moved per group, assimilation."""

    state: BellumState
    nick: str
    book: Book
    moved: dict[tuple[str, str], int] = field(default_factory=dict)
    assimilating: Assimilate | None = None

    @property
    def own(self) -> str | None:
        return self.state.own_faction(self.nick)

    def name(self, faction: str) -> str:
        return self.state.factions[faction].name

    def place(self, province: str, case: str = "loct") -> str:
        return inflect(self.state.world.provinces[province].name, case)

    def faction(self, named: str | None) -> str:
        faction = named or self.own
        if faction is None:
            raise Refusal("у вас нет своего народа в этой игре")
        if self.state.controller(faction) != self.nick:
            raise Refusal(f"{self.name(faction)} — не ваш народ")
        return faction

    def state_faction(self) -> str:
        own = self.own
        if own is None or not self.state.factions[own].is_state:
            raise Refusal("это приказ для государства, а ваш народ — племя")
        return own

    def present(self, faction: str, province: str) -> int:
        count = self.state.count(province, faction)
        if count == 0:
            raise Refusal(f"в {self.place(province)} нет людей ({self.name(faction)})")
        return count

    def reachable(self, faction: str, origin: str, dest: str) -> None:
        kind = self.state.world.link(origin, dest)
        if kind is None:
            raise Refusal(f"{self.state.world.provinces[dest].name} не граничит с {inflect(self.state.world.provinces[origin].name, 'ablt')}")
        if kind == PURPLE and not self.state.factions[faction].is_state:
            raise Refusal("пурпурный морской путь доступен только государствам")

    def targets(self, faction: str, targets: Iterable[str]) -> None:
        for target in targets:
            if self.state.camp(target) == self.state.camp(faction):
                raise Refusal(f"{self.name(target)} — ваш же народ (свои не сражаются друг с другом)")

    def check(self, order: Order) -> None:
        state, world = self.state, self.state.world
        match order:
            case Move():
                faction = self.faction(order.faction)
                there = self.present(faction, order.origin)
                key = (order.origin, faction)
                if self.moved.get(key, 0) + order.count > there:
                    left = there - self.moved.get(key, 0)
                    raise Refusal(f"в {self.place(order.origin)} {there} чел. ({self.name(faction)}), "
                                  f"из них ещё не отправлено {left}")
                self.reachable(faction, order.origin, order.dest)
                self.targets(faction, order.targets)
                self.moved[key] = self.moved.get(key, 0) + order.count
            case Stay():
                faction = self.faction(order.faction)
                self.present(faction, order.province)
                self.targets(faction, order.targets)
            case Retreat():
                faction = self.faction(order.faction)
                self.present(faction, order.origin)
                self.reachable(faction, order.origin, order.dest)
            case Annex():
                own = self.state_faction()
                if state.owners.get(order.province) == own:
                    raise Refusal(f"{world.provinces[order.province].name} уже ваша")
            case Abandon():
                own = self.state_faction()
                if state.owners.get(order.province) != own:
                    raise Refusal(f"{world.provinces[order.province].name} вам не принадлежит")
                if order.province == state.factions[own].capital:
                    raise Refusal("столицу оставить нельзя")
            case AbandonRegion():
                own = self.state_faction()
                capital = state.factions[own].capital
                if capital and world.region_of(capital) == order.region:
                    raise Refusal("нельзя оставить регион своей столицы")
                if not any(world.region_of(p) == order.region for p in state.owned_by(own)):
                    raise Refusal(f"в регионе {world.regions[order.region].name} у вас нет провинций")
            case Assimilate():
                own = self.state_faction()
                if self.assimilating is not None:
                    raise Refusal("ассимилировать можно 1 человека за ход; уже принято: "
                                  + canonical(self.assimilating, self.book))
                if state.owners.get(order.province) != own:
                    raise Refusal(f"{world.provinces[order.province].name} вам не принадлежит")
                if order.target == own:
                    raise Refusal("нельзя ассимилировать собственный народ")
                self.present(order.target, order.province)
                self.assimilating = order
            case MakeState():
                if state.kingdom_province() is None:
                    raise Refusal(f"на этой карте нет провинции «{state.rules.kingdom_province}»: "
                                  "государства из племён здесь не создаются")
                if state.factions[order.tribe].is_state:
                    raise Refusal(f"{self.name(order.tribe)} уже государство")
                if not world.provinces[order.capital].civilized:
                    raise Refusal(f"{world.provinces[order.capital].name} — не цивилизованная провинция")
            case Consent():
                own = self.own
                if own is None or state.factions[own].is_state:
                    raise Refusal("согласие нужно только от племени")
            case Independence():
                own = self.state_faction()
                if not state.factions[own].captured:
                    raise Refusal("ваше государство не захвачено")
            case EventChoice() | Ready():
                pass


def review_pm(state: BellumState, phase: Phase, pm: OrderPm) -> list[Verdict]:
    book = book_of(state, phase.number)
    review = _Review(state, pm.sender, book)

    def read(line: str) -> Verdict:
        verdict = parse_line(line, book)
        if verdict.ok:
            try:
                review.check(verdict.order)
            except Refusal as refusal:
                return Rejected(line, str(refusal))
        return verdict

    return read_lines(pm.text, read)


def read_orders(state: BellumState, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
    if state.own_faction(pm.sender) is None and not state.controlled_by(pm.sender):
        return [Rejected(line, "вы не участвуете в этой игре") for line in split_lines(pm.text)]
    verdicts = review_pm(state, phase, pm)
    own = state.own_faction(pm.sender)
    before = {group_of(order, own) for order in _valid(state, phase, earlier)}
    return [Accepted(v.line, v.order, v.canonical + REPLACES) if v.ok and group_of(v.order, own) in before else v
            for v in verdicts]


def _valid(state: BellumState, phase: Phase, pms: Iterable[OrderPm]) -> list[Order]:
    return [v.order for pm in pms for v in review_pm(state, phase, pm) if v.ok]


@dataclass(frozen=True)
class PlayerOrders:
    """One player's orders in force at the deadline, with the faction each acts for."""

    nick: str
    own: str | None
    orders: tuple[Order, ...]
    ready: bool = False


def collect(state: BellumState, phase: Phase, pms: Iterable[OrderPm]) -> dict[str, PlayerOrders]:
    """Each player's orders in force: a later PM replaces the earlier orders of the same groups."""
    kept: dict[str, list[Order]] = {}
    for pm in pms:
        own = state.own_faction(pm.sender)
        orders = _valid(state, phase, [pm])
        groups = {group_of(order, own) for order in orders}
        kept[pm.sender] = [o for o in kept.get(pm.sender, []) if group_of(o, own) not in groups] + orders
    return {nick: PlayerOrders(nick, state.own_faction(nick), tuple(orders), any(isinstance(o, Ready) for o in orders))
            for nick, orders in kept.items()}


def ready_players(state: BellumState, phase: Phase, pms: Iterable[OrderPm]) -> set[str]:
    """Players who sent «ход готов» this turn."""
    return {pm.sender for pm in pms if any(isinstance(order, Ready) for order in _valid(state, phase, [pm]))}
