"""The frozen state of a Bellum game between turns, and its JSON form.

`people` is province -> faction -> count (only counts above zero are kept); `owners` is
province -> state. Factions change during the game (a tribe becomes a state, a region secedes,
a tribe splits), so their records live here, not in the map.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from functools import cached_property
from typing import Any, Iterable, Mapping

from forumgm.engines.base import SetupProblems, typed_table
from forumgm.engines.bellum.world import STATE_LINKS, TRIBE_LINKS, World, dump_world, frozen, load_world

STATE, TRIBE = "state", "tribe"


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    aliases: tuple[str, ...] = ()
    kind: str = TRIBE                  # state | tribe
    color: str = "#808080"
    capital: str | None = None         # states only
    captured: bool = False             # a state without provinces (rules: «захваченное»)
    ever_state: bool = False           # ×2 in battle for as long as the game lasts
    player: str | None = None          # None: host-controlled
    player_gender: str | None = None   # the player's grammatical gender ("m", "f") as the host gave it
    master: str | None = None          # the tribe that subjugated this one
    losing_turns: int = 0              # consecutive turns with at least one lost battle
    cut_turns: int = 0                 # consecutive turns a tribe's groups were cut off

    @property
    def is_state(self) -> bool:
        return self.kind == STATE

    @property
    def doubled(self) -> bool:
        return self.is_state or self.ever_state

    @property
    def link_kinds(self) -> tuple[str, ...]:
        return STATE_LINKS if self.is_state else TRIBE_LINKS


@dataclass(frozen=True)
class RuleConfig:
    """config/bellum/rules.toml: the numbers the rules leave to the host."""

    years_per_turn: int = 5
    state_factor: int = 2               # strength of a faction that is or was a state
    roll_low: int = 80                  # battle coefficient range, in hundredths
    roll_high: int = 120
    battle_losses: float = 0.0          # fraction of a loser's people lost in a battle
    freed_after: int = 3                # master's consecutive losing turns that free a tribe
    split_after: int = 3                # turns a tribe's groups are cut off before it splits
    kingdom_province: str = "Италия"    # id or name: its majority holder makes tribes into states

    def as_json(self) -> dict:
        return asdict(self)


_RULE_TYPES = {f.name: (float if f.type == "float" else int if f.type == "int" else str) for f in fields(RuleConfig)}


def rule_config(data: Mapping[str, Any], key: str = "rules") -> RuleConfig:
    """The rule table of a game config (or a setup table), checked key by key (every problem at once)."""
    problems = SetupProblems()
    config = RuleConfig(**typed_table(data, _RULE_TYPES, key, problems))
    if not 0 < config.roll_low <= config.roll_high:
        problems.found.append((f"{key}.roll_low", f"expected 0 < roll_low <= roll_high, in hundredths "
                                                  f"(got {config.roll_low} and {config.roll_high})"))
    if not 0.0 <= config.battle_losses <= 1.0:
        problems.found.append((f"{key}.battle_losses", f"expected a fraction from 0 to 1 (got {config.battle_losses})"))
    problems.done()
    return config


@dataclass(frozen=True)
class BellumState:
    world: World
    rules: RuleConfig
    factions: Mapping[str, Faction]
    people: Mapping[str, Mapping[str, int]]
    owners: Mapping[str, str]
    turn: int = 0                        # the last resolved turn
    fixed_roll: int | None = None        # hundredths: every battle coefficient (simulate's rolls)
    authority_bonus: Mapping[str, int] = field(default_factory=lambda: frozen({}))
    host_events: tuple[Mapping[str, Any], ...] = ()
    last_battles: tuple[Mapping[str, Any], ...] = ()

    # ---------------------------------------------------------------- people
    def count(self, province: str, faction: str) -> int:
        return self.people.get(province, {}).get(faction, 0)

    def present(self, province: str) -> Mapping[str, int]:
        return self.people.get(province, {})

    # Indexes of the (never changed) tables, built on first use: a turn asks "where are they"
    # and "what does it own" for every faction many times.
    @cached_property
    def _where(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for province in sorted(self.people):
            for faction in self.people[province]:
                out.setdefault(faction, []).append(province)
        return out

    @cached_property
    def _owned(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for province in sorted(self.owners):
            out.setdefault(self.owners[province], []).append(province)
        return out

    def provinces_of(self, faction: str) -> list[str]:
        return list(self._where.get(faction, ()))

    def majority(self, province: str) -> str | None:
        """The faction with the strictly largest number of people there, or None on a tie."""
        here = sorted(self.present(province).items(), key=lambda item: -item[1])
        if not here or (len(here) > 1 and here[0][1] == here[1][1]):
            return None
        return here[0][0]

    def owned_by(self, state: str) -> list[str]:
        return list(self._owned.get(state, ()))

    # ---------------------------------------------------------------- control
    def root(self, faction: str) -> str:
        """The faction at the top of a chain of subjugation (the one whose player commands)."""
        seen = {faction}
        while self.factions[faction].master is not None and self.factions[faction].master not in seen:
            faction = self.factions[faction].master
            seen.add(faction)
        return faction

    def camp(self, faction: str) -> str:
        """Who a faction fights for: its commanding player, or its top master if the host commands."""
        root = self.root(faction)
        player = self.factions[root].player
        return f"player:{player}" if player else f"faction:{root}"

    def controller(self, faction: str) -> str | None:
        return self.factions[self.root(faction)].player

    def controlled_by(self, nick: str) -> list[str]:
        return sorted(f for f in self.factions if self.controller(f) == nick)

    def own_faction(self, nick: str) -> str | None:
        return next((f.id for f in self.factions.values() if f.player == nick), None)

    def players(self) -> list[str]:
        return sorted({f.player for f in self.factions.values() if f.player})

    def kingdom_province(self) -> str | None:
        """The province whose majority holder makes kingdoms (rules: Italy); None on a map without it."""
        return kingdom_province(self.world.provinces, self.rules.kingdom_province)

    def year(self, turn: int) -> int:
        return self.world.year + (turn - 1) * self.rules.years_per_turn

    # ---------------------------------------------------------------- changes
    def with_people(self, people: Mapping[str, Mapping[str, int]]) -> "BellumState":
        return replace(self, people=freeze_people(people))

    def with_factions(self, factions: Iterable[Faction]) -> "BellumState":
        return replace(self, factions=frozen({f.id: f for f in factions}))

    def update(self, faction: str, **changes: Any) -> "BellumState":
        return replace(self, factions=frozen({**self.factions, faction: replace(self.factions[faction], **changes)}))


def kingdom_province(provinces: Mapping[str, Any], wanted: str) -> str | None:
    """The id of the province named `wanted` (by id or name), or None."""
    if wanted in provinces:
        return wanted
    return next((p.id for p in provinces.values() if p.name == wanted), None)


def freeze_people(people: Mapping[str, Mapping[str, int]]) -> Mapping[str, Mapping[str, int]]:
    return frozen({p: frozen({f: n for f, n in sorted(here.items()) if n > 0})
                   for p, here in sorted(people.items()) if any(n > 0 for n in here.values())})


def thaw_people(state: BellumState) -> dict[str, dict[str, int]]:
    """A mutable copy of the people table, for a step to build the next one."""
    return {p: dict(here) for p, here in state.people.items()}


def dump_state(state: BellumState) -> dict:
    return {
        "world": dump_world(state.world),
        "rules": state.rules.as_json(),
        "factions": [{**asdict(f), "aliases": list(f.aliases)} for f in state.factions.values()],
        "people": {p: dict(here) for p, here in state.people.items()},
        "owners": dict(state.owners),
        "turn": state.turn,
        "fixed_roll": state.fixed_roll,
        "authority_bonus": dict(state.authority_bonus),
        "host_events": [dict(e) for e in state.host_events],
        "last_battles": [dict(b) for b in state.last_battles],
    }


def load_state(data: Mapping[str, Any]) -> BellumState:
    return BellumState(
        world=load_world(data["world"]),
        rules=rule_config(data.get("rules", {})),
        factions=frozen({f["id"]: Faction(**{**f, "aliases": tuple(f["aliases"])}) for f in data["factions"]}),
        people=freeze_people(data["people"]),
        owners=frozen(data["owners"]),
        turn=data["turn"],
        fixed_roll=data.get("fixed_roll"),
        authority_bonus=frozen(data.get("authority_bonus", {})),
        host_events=tuple(data.get("host_events", ())),
        last_battles=tuple(data.get("last_battles", ())),
    )
