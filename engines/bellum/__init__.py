"""Bellum 2.0: the migration-age strategy game of provinces, tribes and states.

`scenario` holds the map and start position every game begins from (the shipped 370 AD
scenario or a host's own file). `RULES` (or `make_rules(rule_table)`) is the engine the daemon
and `forumgm simulate` drive: one phase a turn («turn»), resolved by the step table in
`turn.TURN`. Beyond the Rules protocol it gives `summary(state)`, the position keys a
simulation prints at its end, and `maps`, the turn map (`turnmap`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar, Mapping, Sequence

from forumgm.engines.base import (REPORT_LABELS, Game, OrderPm, Outcome, Phase, PhaseInputs, Rules, SetupError, StandIn,
                                  Verdict, phase_rng)
from forumgm.engines.bellum import orders as _orders
from forumgm.engines.bellum.authority import authority_table
from forumgm.engines.bellum.report import TurnTexts, player_pms, turn_reports
from forumgm.engines.bellum.setup import SETUP_FILES, setup_warnings, start_state
from forumgm.engines.bellum.standins import stand_ins
from forumgm.engines.bellum.state import BellumState, RuleConfig, dump_state, load_state, rule_config
from forumgm.engines.bellum.turn import resolve_turn
from forumgm.engines.bellum.work import TurnOrders
from forumgm.engines.texts import Texts

TURN = "turn"


def summary(state: BellumState) -> dict[str, Any]:
    """The position keys of `forumgm simulate` for Bellum (docs/simulate.md): people, owners, battles, authority, …"""
    return {
        "people": {p: dict(here) for p, here in state.people.items()},
        "owners": dict(state.owners),
        "battles": [dict(b) for b in state.last_battles],
        "authority": authority_table(state),
        "subjugated": {f.id: f.master for f in state.factions.values() if f.master is not None},
        "captured": sorted(f.id for f in state.factions.values() if f.captured),
        "factions": {f.id: {"name": f.name, "kind": f.kind, "ever_state": f.ever_state, "capital": f.capital,
                            "player": f.player, "color": f.color} for f in state.factions.values()},
    }


@dataclass(frozen=True)
class BellumRules(Rules):
    config: RuleConfig = RuleConfig()
    # what the maps are drawn with, read at the edge with the rule table (config.read_rule_table):
    # the shipped real geographies, parsed JSON by name, and the letters, TrueType bytes by name
    geographies: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    fonts: Mapping[str, bytes] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    name: str = "bellum"
    title: ClassVar[str] = "Bellum 2.0"        # the Russian rules' own name for the game
    setup_files: ClassVar[Mapping[str, str | None]] = MappingProxyType(SETUP_FILES)
    phase_labels: ClassVar[Mapping[str, str]] = {TURN: "ход"}
    draft_labels: ClassVar[Mapping[str, str]] = {**REPORT_LABELS, "turn_pm": "итоги хода игроку"}

    def setup(self, setup: Mapping[str, Any], seed: int) -> BellumState:
        state = start_state(setup, seed, self.config)
        named = state.world.geography
        # rules made from the shipped rule table know the geographies; a game must not start on
        # one its every turn's map could not be drawn on
        if self.geographies and named is not None and named not in self.geographies:
            raise SetupError("setup.scenario", unknown_geography(named, self.geographies))
        return state

    def setup_warnings(self, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        """(key, message) of what check-config shows as warnings (setup.setup_warnings)."""
        return setup_warnings(setup, self.config)

    def first_phase(self, state: BellumState) -> Phase:
        return Phase(TURN, state.turn + 1)

    def next_phase(self, state: BellumState, phase: Phase) -> Phase | None:
        return Phase(TURN, phase.number + 1)     # the host ends the game (forumgm finish)

    def read_orders(self, state: BellumState, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
        return _orders.read_orders(state, phase, pm, earlier)

    def complete_early(self, state: BellumState, phase: Phase, orders: Sequence[OrderPm]) -> bool:
        """The turn ends early once every player has sent «ход готов» (in any of his PMs)."""
        ready = _orders.ready_players(state, phase, orders)
        return set(state.players()) <= ready

    def resolve(self, state: BellumState, phase: Phase, inputs: PhaseInputs, seed: int, texts: Texts) -> Outcome:
        collected = TurnOrders(_orders.collect(state, phase, inputs.orders))
        rng = phase_rng(seed, phase)
        new_state, events = resolve_turn(state, phase.number, collected, rng)
        rendered = TurnTexts(new_state, events, phase.number, texts, rng)
        return Outcome(
            state=new_state,
            events=tuple(events),
            pms=tuple(player_pms(rendered)),
            reports=turn_reports(rendered),
            extra={**summary(new_state),
                   "secessions": [{k: e.data[k] for k in ("state", "region", "new", "reason")}
                                  for e in events if e.type == "secession"]},
        )

    def stand_ins(self, state: BellumState, phase: Phase, seed: int) -> list[StandIn]:
        """Each player moves some people of his into a neighbour or keeps them, then «ход готов» (standins)."""
        return stand_ins(state, phase, seed)

    def alive(self, state: BellumState) -> list[str]:
        return state.players()

    def winner(self, state: BellumState) -> str | None:
        return None

    def with_rules(self, state: BellumState) -> BellumState:
        """The state under the engine's rule numbers."""
        return replace(state, rules=self.config)

    def dump(self, state: BellumState) -> dict:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> BellumState:
        return load_state(data)

    def summary(self, state: BellumState) -> dict[str, Any]:
        return summary(state)

    @cached_property
    def maps(self) -> Any:
        """The turn map (engines.base.Maps): posted with each turn report, shown on the host's page;
        one per rules, so that its geographies are parsed once."""
        from forumgm.engines.bellum.turnmap import BellumMaps     # here: drawing loads Pillow and shapely

        return BellumMaps(self.geographies, self.fonts)

    def signup_choices(self, setup: Mapping[str, Any]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """(id, name, aliases) of every faction of the game's scenario, for the sign-up; the aliases
        carry every case form of the faction's names («хочу за пунов»)."""
        from forumgm.engines.bellum.setup import game_scenario
        from forumgm.parsers.declension import people_forms

        scenario = game_scenario(setup.get("scenario"))
        return tuple((f.id, f.name, (*f.aliases, *sorted(set().union(*map(people_forms, (f.name, *f.aliases))))))
                     for f in scenario.factions.values())


MAP_DATA = ("geography", "fonts")          # the rule table's keys that are no rules


def unknown_geography(name: str, shipped: Mapping[str, Any]) -> str:
    return f"geography: {name!r} is no shipped geography (expected one of: {', '.join(sorted(shipped))})"


def make_rules(rule_table: Mapping[str, Any]) -> BellumRules:
    rules = {key: value for key, value in rule_table.items() if key not in MAP_DATA}
    geographies, fonts = (MappingProxyType(dict(rule_table.get(key, {}))) for key in MAP_DATA)
    return BellumRules(rule_config(rules), geographies, fonts)


RULES = BellumRules()


GAME = Game(make_rules)     # registered in pyproject.toml under forumgm.games
