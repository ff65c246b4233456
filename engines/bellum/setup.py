"""The start of a Bellum game: the scenario's map and positions, the players' factions, the
host's events and overrides (setup keys: docs/bellum.md)."""
from __future__ import annotations

from typing import Any, Mapping

from forumgm.engines.base import SetupError, SetupFile, SetupProblems, player_tables, reject_unknown_keys
from forumgm.engines.bellum.events import check_events
from forumgm.engines.bellum.state import (
    STATE, BellumState, Faction, RuleConfig, freeze_people, kingdom_province, rule_config,
)
from forumgm.engines.bellum.world import frozen, world_from_scenario
from forumgm.parsers.orders.bellum import OrderError, names_of

SETUP_KEYS = {"scenario", "players", "rolls", "people", "owners", "events", "rules"}
# The setup keys whose text names a TOML file, read by the edge (Rules.setup_files): a bare
# scenario name is a shipped one (config/bellum/scenarios/370.toml); events is always a path.
SETUP_FILES = {"scenario": "scenarios", "events": None}
PLAYER_KEYS = {"nick", "faction", "role", "aliases", "gender"}


def game_scenario(file: Any) -> Any:
    """The scenario a game's [setup] names (`scenario`: a shipped one or a file, read by the edge
    into a SetupFile); SetupError on setup.scenario when it cannot be read or is malformed."""
    from forumgm.engines.bellum.scenario import ScenarioError, parse_scenario

    if not isinstance(file, SetupFile):
        raise SetupError("setup.scenario", 'expected a shipped scenario name ("370") or a scenario file path')
    try:
        return parse_scenario(file.table("setup.scenario"), file.source)
    except ScenarioError as error:
        raise SetupError("setup.scenario", str(error)) from None


def _factions(scenario: Any) -> dict[str, Faction]:
    return {f.id: Faction(id=f.id, name=f.name, aliases=tuple(f.aliases), kind=f.kind, color=f.color,
                          capital=f.capital if f.kind == STATE else None, captured=bool(f.captured),
                          ever_state=bool(f.ever_state) or f.kind == STATE,
                          master=scenario.subjugated.get(f.id))
            for f in scenario.factions.values()}


def _players(entries: Any, factions: dict[str, Faction]) -> dict[str, Faction]:
    names = names_of("народ", [(f.id, f.name, f.aliases) for f in factions.values()], people=True)
    taken: dict[str, str] = {}
    problems = SetupProblems()
    for index, entry in enumerate(player_tables(entries, PLAYER_KEYS)):
        key = f"setup.players[{index}]"
        # a game file gives every player a `role`: in Bellum that is his faction
        field = "faction" if "faction" in entry or "role" not in entry else "role"
        written = entry.get(field)
        if not isinstance(written, str):
            problems.found.append((f"{key}.{field}", "expected the player's faction, its id or Russian name "
                                                     "(role = … in a game file, faction = … in a simulation)"))
            continue
        try:
            faction = names.find(written)
        except OrderError as error:
            problems.found.append((f"{key}.{field}", str(error)))
            continue
        if faction in taken:
            problems.found.append((f"{key}.{field}", f"{factions[faction].name} is already played by {taken[faction]}"))
            continue
        taken[faction] = entry["nick"]
        factions[faction] = Faction(**{**factions[faction].__dict__, "player": entry["nick"],
                                       "player_gender": entry.get("gender")})
    problems.done()
    return factions


def _people(base: Mapping, override: Any, provinces: Mapping, factions: Mapping) -> dict:
    people = {p: dict(here) for p, here in base.items()}
    if not isinstance(override, Mapping):
        raise SetupError("setup.people", "expected a table: province = { faction = count }")
    for province, here in override.items():
        if province not in provinces:
            raise SetupError(f"setup.people.{province}", "unknown province id")
        if not isinstance(here, Mapping):
            raise SetupError(f"setup.people.{province}", "expected a table: faction = count")
        for faction, count in here.items():
            if faction not in factions:
                raise SetupError(f"setup.people.{province}.{faction}", "unknown faction id")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise SetupError(f"setup.people.{province}.{faction}", "expected a whole number, 0 or more")
        people[province] = dict(here)
    return people


def _owners(base: Mapping, override: Any, provinces: Mapping, factions: Mapping) -> dict:
    owners = dict(base)
    if not isinstance(override, Mapping):
        raise SetupError("setup.owners", "expected a table: province = state")
    for province, state in override.items():
        if province not in provinces:
            raise SetupError(f"setup.owners.{province}", "unknown province id")
        if state == "":
            owners.pop(province, None)
        elif state not in factions or factions[state].kind != STATE:
            raise SetupError(f"setup.owners.{province}", f"expected a state id or \"\" (got {state!r})")
        else:
            owners[province] = state
    return owners


def _events(value: Any, provinces: Mapping, factions: Mapping) -> tuple[dict, ...]:
    """[[setup.events]] tables, or the [[events]] of the events file the edge read."""
    if isinstance(value, SetupFile):
        value = value.table("setup.events").get("events", [])
    return check_events(value, provinces, factions)


def _rolls(value: Any) -> int | None:
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= 10:
        raise SetupError("setup.rolls", f"expected a battle coefficient such as 1.0 (got {value!r})")
    return round(value * 100)


def setup_rules(setup: Mapping[str, Any], rules: RuleConfig) -> RuleConfig:
    """The rule numbers a game plays by: the engine's (config/bellum/rules.toml), with a
    simulation's own [setup.rules] over them."""
    if "rules" not in setup:
        return rules
    if not isinstance(setup["rules"], Mapping):
        raise SetupError("setup.rules", "expected a table of rule numbers")
    return rule_config({**rules.as_json(), **setup["rules"]}, "setup.rules")


def _base_people(scenario: Any) -> dict[str, dict[str, int]]:
    people: dict[str, dict[str, int]] = {}
    for stack in scenario.people:
        here = people.setdefault(stack.province, {})
        here[stack.faction] = here.get(stack.faction, 0) + stack.count
    return people


def start_state(setup: Mapping[str, Any], seed: int, rules: RuleConfig) -> BellumState:
    """The game's start; the setup's problems that do not hide one another are named together."""
    problems = SetupProblems()
    problems.attempt(reject_unknown_keys, setup, SETUP_KEYS, "setup")
    rules = problems.attempt(setup_rules, setup, rules)
    fixed_roll = problems.attempt(_rolls, setup.get("rolls"))
    scenario = problems.attempt(game_scenario, setup.get("scenario"))
    if scenario is not None:      # the map and the factions the rest of the setup names
        world = world_from_scenario(scenario)
        known = _factions(scenario)
        factions = problems.attempt(_players, setup.get("players"), dict(known))
        people = problems.attempt(_people, _base_people(scenario), setup.get("people", {}), world.provinces, known)
        owners = problems.attempt(_owners, scenario.owners, setup.get("owners", {}), world.provinces, known)
        host_events = problems.attempt(_events, setup.get("events", []), world.provinces, known)
    problems.done()
    return BellumState(
        world=world, rules=rules, factions=frozen(factions), people=freeze_people(people), owners=frozen(owners),
        fixed_roll=fixed_roll, host_events=host_events,
    )


def setup_warnings(setup: Mapping[str, Any], rules: RuleConfig) -> list[tuple[str, str]]:
    """(key, message) of what a game may well be played with but its host should know: a map
    without the kingdom province (nobody makes kingdoms), a province no link reaches. None when
    the setup has problems: those are named instead."""
    try:
        scenario = game_scenario(setup.get("scenario"))
        rules = setup_rules(setup, rules)
    except SetupError:
        return []
    warnings = [("setup.scenario", warning) for warning in scenario.warnings]
    if kingdom_province(scenario.provinces, rules.kingdom_province) is None:
        warnings.append(("rules.kingdom_province", f"{scenario.name}: no province {rules.kingdom_province!r} on this "
                                                   "map: nobody can make a tribe a state"))
    return warnings
