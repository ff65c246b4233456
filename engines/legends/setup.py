"""Setting a game up: roles (given or dealt by the seed) and spells dealt to enemy clans."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from forumgm.engines.base import PhaseRng, SetupError, SetupProblems, player_tables, reject_unknown_keys
from forumgm.engines.legends.state import LegendsState, Player, make_player
from forumgm.engines.legends.table import RuleTable

SETUP_KEYS = {"players", "dead", "spells", "roles", "rules"}
PLAYER_KEYS = {"nick", "role", "aliases", "gender"}


def build_state(table: RuleTable, setup: Mapping[str, Any], seed: int | str) -> LegendsState:
    """The state before night 1.

    `setup` has the shape of a scenario's [setup]: players (nick, optional role, aliases),
    dead, spells (holder -> spell names) and optionally roles, the host's subset of roles
    that missing roles are dealt from (default: every role of the table). The problems that do
    not hide one another are named together.
    """
    problems = SetupProblems()
    problems.attempt(reject_unknown_keys, setup, SETUP_KEYS, "setup")
    rng = PhaseRng(seed, "setup")
    players = problems.attempt(_players, table, setup.get("players"), setup.get("roles"), rng)
    if players is not None:      # the dead and the spells' holders are among them
        dead = problems.attempt(_names, setup.get("dead", []), players, "setup.dead")
        given = problems.attempt(_spells, table, setup.get("spells", {}), players)
    problems.done()
    players = tuple(replace(p, alive=p.nick not in dead) for p in players)
    state = LegendsState(table=table, players=players, spells=tuple((spell, None) for spell in table.spells))
    return _deal_spells(state, given, rng)


def _players(table: RuleTable, entries: Any, subset: Any, rng: PhaseRng) -> tuple[Player, ...]:
    given: dict[str, str | None] = {}
    aliases: dict[str, list[str]] = {}
    genders: dict[str, str | None] = {}
    problems = SetupProblems()
    for index, entry in enumerate(player_tables(entries, PLAYER_KEYS)):
        key = f"setup.players[{index}]"
        role = entry.get("role")
        if role is not None and role not in table.roles:
            problems.found.append((f"{key}.role", f"unknown role {role!r} (expected one of {', '.join(table.roles)})"))
        if entry["nick"] in given:
            problems.found.append((f"{key}.nick", f"{entry['nick']} is listed twice"))
        given[entry["nick"]] = role
        aliases[entry["nick"]] = list(entry.get("aliases", []))
        genders[entry["nick"]] = entry.get("gender")
    problems.done()
    roles = _deal_roles(table, given, subset, rng)
    return tuple(make_player(table, nick, roles[nick], aliases[nick], gender=genders[nick]) for nick in given)


def _deal_roles(table: RuleTable, given: Mapping[str, str | None], subset: Any, rng: PhaseRng) -> dict[str, str]:
    pool = list(table.roles) if subset is None else subset
    if not isinstance(pool, list) or any(role not in table.roles for role in pool):
        raise SetupError("setup.roles", f"expected a list of role names of the rule table (got {subset!r})")
    taken = [role for role in given.values() if role is not None]
    if len(set(taken)) != len(taken):
        raise SetupError("setup.players", "a role is given to two players")
    free = [role for role in pool if role not in taken]
    unassigned = [nick for nick, role in given.items() if role is None]
    if len(free) < len(unassigned):
        raise SetupError("setup.roles", f"{len(unassigned)} players to deal roles to but {len(free)} roles left")
    dealt = dict(zip(unassigned, rng.shuffle(free, "roles")))
    return {nick: role or dealt[nick] for nick, role in given.items()}


def _names(value: Any, players: tuple[Player, ...], key: str) -> set[str]:
    nicks = {p.nick for p in players}
    if not isinstance(value, list) or any(name not in nicks for name in value):
        raise SetupError(key, "expected a list of the players' nicks")
    return set(value)


def _spells(table: RuleTable, given: Any, players: tuple[Player, ...]) -> Mapping[str, list[str]]:
    """The spells the setup hands to players (holder -> spell names), every wrong holder named."""
    if not isinstance(given, Mapping):
        raise SetupError("setup.spells", "expected a table: holder = [spell, ...]")
    nicks = {p.nick for p in players}
    wrong = [(f"setup.spells.{holder}", "not a player" if holder not in nicks
              else f"expected spell names of {', '.join(table.spells)}")
             for holder, spells in given.items()
             if holder not in nicks or not isinstance(spells, list) or any(s not in table.spells for s in spells)]
    if wrong:
        raise SetupError.of(wrong)
    return given


def _deal_spells(state: LegendsState, given: Mapping[str, list[str]], rng: PhaseRng) -> LegendsState:
    """Spells the setup names go where it says; each other spell goes to a random living
    player of another clan, provided its clan and rank are in play."""
    for holder, spells in given.items():
        for spell in spells:
            state = state.with_holder(spell, holder)
    placed = {spell for spells in given.values() for spell in spells}
    in_play = {(p.clan, p.rank) for p in state.players}
    for spell in state.table.spells.values():
        if spell.name in placed or (spell.clan, spell.rank) not in in_play:
            continue
        enemies = [p.nick for p in state.living() if p.clan != spell.clan]
        if enemies:
            state = state.with_holder(spell.name, rng.stream("spell", spell.name).choice(enemies))
    return state
