"""The Legends rule table: every number of the game, validated from a parsed mapping.

The table ships as config/legends/rules.toml; the caller reads the file (engines do no I/O)
and hands the parsed mapping to `load_rule_table`, which either returns a `RuleTable` or
raises `SetupError` listing every problem with its key path (`rules.limits.theft_players`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from forumgm.engines.base import SetupError

# Skill identifiers (vocabulary, not numbers): the six base skills, the thefts a thief may
# commit, and an alchemist's modifications ("mod_theft" modifies every theft skill).
BASE_SKILLS = ("attack", "magic_attack", "spying", "defense", "magic_defense", "spy_defense")
STEALABLE = ("attack", "magic_attack", "defense", "magic_defense", "spy_defense")
THEFT_SKILLS = tuple(f"theft_{skill}" for skill in STEALABLE)
MODIFIABLE = BASE_SKILLS + THEFT_SKILLS
MOD_SKILLS = tuple(f"mod_{skill}" for skill in BASE_SKILLS) + ("mod_theft",)
ALL_SKILLS = BASE_SKILLS + THEFT_SKILLS + MOD_SKILLS
DEFENSES = ("defense", "magic_defense", "spy_defense")
# Keys of the commands the night-1 ban list may name.
COMMAND_KEYS = ("attack", "magic_attack", "spying", "defense", "magic_defense", "spy_defense") + tuple(
    f"theft_{skill}" for skill in STEALABLE) + tuple(f"mod_{skill}" for skill in BASE_SKILLS) + (
    "mod_theft", "cast", "transfer", "exchange")
PHASE_KINDS = ("night", "day")


# (key path inside the table, what is expected there)
Problems = list[tuple[str, str]]


@dataclass(frozen=True)
class Rank:
    key: str
    name: str
    skills: Mapping[str, int]
    distributes_defense: bool


@dataclass(frozen=True)
class RoleSpec:
    name: str
    clan: str
    rank: str


@dataclass(frozen=True)
class Clan:
    key: str
    name: str


@dataclass(frozen=True)
class Spell:
    name: str
    clan: str
    rank: str
    effect: Mapping[str, int]


@dataclass(frozen=True)
class RuleTable:
    ranks: Mapping[str, Rank]
    clans: Mapping[str, Clan]
    roles: Mapping[str, RoleSpec]          # role name -> spec, in the table's order
    spells: Mapping[str, Spell]            # spell name -> spec, in the table's order
    theft_players: int                     # distinct victims a thief may rob a night
    spy_targets: int                       # players one may spy on a night
    night1_banned: frozenset[str]          # COMMAND_KEYS refused on night 1
    first_phase: str
    first_lynch_day: int
    vote_colors: frozenset[str]            # "#rrggbb" colours a day vote is written in
    vote_policy: str                       # "last" or "first" vote of a player counts
    source: Mapping[str, Any]              # the validated mapping, kept for snapshots

    def role(self, name: str) -> RoleSpec:
        return self.roles[name]


# The settings each section holds; ranks, clans and spells are tables of named things instead.
SETTINGS = {
    "limits": ("theft_players", "spy_targets"),
    "night1": ("banned",),
    "calendar": ("first_phase", "first_lynch_day", "timezone", "day_start", "night_start", "night_end"),
    "day": ("colors", "policy"),
}
NAMED_TABLES = ("ranks", "clans", "spells")


def _unknown_keys(mapping: Mapping[str, Any], problems: Problems) -> None:
    """A misspelt or misplaced rule would be ignored without a word: name it, and where it belongs."""
    sections = (*SETTINGS, *NAMED_TABLES)
    for key in mapping:
        if key not in sections:
            home = [f"{section}.{key}" for section, keys in SETTINGS.items() if key in keys]
            hint = f"; did you mean {home[0]}?" if home else ""
            problems.append((key, f"unknown rule (expected one of {', '.join(sections)}){hint}"))
    for section, keys in SETTINGS.items():
        value = mapping.get(section)
        for key in value if isinstance(value, Mapping) else ():
            if key not in keys:
                problems.append((f"{section}.{key}", f"unknown rule (expected one of {', '.join(keys)})"))


def load_rule_table(mapping: Mapping[str, Any], root: str = "rules") -> RuleTable:
    """Validate a parsed rules.toml; every problem at once, each named by its key path under `root`."""
    problems: Problems = []
    _unknown_keys(mapping, problems)
    ranks = _ranks(mapping.get("ranks"), problems)
    clans, roles = _clans(mapping.get("clans"), ranks, problems)
    spells = _spells(mapping.get("spells"), clans, ranks, problems)
    limits = _section(mapping, "limits", problems)
    night1 = _section(mapping, "night1", problems)
    calendar = _section(mapping, "calendar", problems)
    day = _section(mapping, "day", problems)
    colors = day.get("colors", [])
    if not isinstance(colors, list) or not colors or not all(
            isinstance(c, str) and re.fullmatch(r"#[0-9a-f]{6}", c) for c in colors):
        problems.append(("day.colors", "expected a non-empty list of lowercase #rrggbb colours" + _got(colors)))
        colors = []
    if day.get("policy") not in ("last", "first"):
        problems.append(("day.policy", "expected last or first" + _got(day.get("policy"))))
    banned = night1.get("banned", [])
    if not isinstance(banned, list) or any(key not in COMMAND_KEYS for key in banned):
        problems.append(("night1.banned", f"expected a list of {', '.join(COMMAND_KEYS)}" + _got(banned)))
        banned = []
    first_phase = calendar.get("first_phase", "night")
    if first_phase not in PHASE_KINDS:
        problems.append(("calendar.first_phase", "expected night or day" + _got(first_phase)))
    table = RuleTable(
        ranks=MappingProxyType(ranks), clans=MappingProxyType(clans), roles=MappingProxyType(roles),
        spells=MappingProxyType(spells),
        theft_players=_count(limits, "limits.theft_players", problems),
        spy_targets=_count(limits, "limits.spy_targets", problems),
        night1_banned=frozenset(banned), first_phase=first_phase,
        first_lynch_day=_count(calendar, "calendar.first_lynch_day", problems),
        vote_colors=frozenset(colors), vote_policy=day.get("policy"),
        source=mapping,
    )
    if problems:
        raise SetupError.of([(f"{root}.{key}", message) for key, message in problems])
    return table


def _got(value: Any) -> str:
    """What was written, for the host to compare with what is expected (as every engine says it)."""
    return " (nothing written)" if value is None else f" (got {value!r})"


def _got_name(spec: Any) -> str:
    if not isinstance(spec, Mapping):
        return _got(spec)
    return " (it has no name)" if spec.get("name") is None else f" (got name {spec['name']!r})"


def _section(mapping: Mapping[str, Any], key: str, problems: Problems) -> Mapping[str, Any]:
    value = mapping.get(key)
    if not isinstance(value, Mapping):
        problems.append((key, "expected a table" + _got(value)))
        return {}
    return value


def _count(section: Mapping[str, Any], path: str, problems: Problems) -> int:
    value = section.get(path.rpartition(".")[2])
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        problems.append((path, "expected a whole number >= 0" + _got(value)))
        return 0
    return value


def _skill_values(section: Mapping[str, Any], path: str, allowed: tuple[str, ...], problems: Problems) -> dict[str, int]:
    values: dict[str, int] = {}
    for key, value in section.items():
        if key in ("name", "distributes_defense", "clan", "rank"):
            continue
        if key not in allowed:
            problems.append((f"{path}.{key}", f"unknown skill (expected one of {', '.join(allowed)})"))
        elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
            problems.append((f"{path}.{key}", "expected a whole number >= 0" + _got(value)))
        else:
            values[key] = value
    return values


def _ranks(section: Any, problems: Problems) -> dict[str, Rank]:
    if not isinstance(section, Mapping) or not section:
        problems.append(("ranks", "expected a table of ranks" + _got(section)))
        return {}
    ranks = {}
    for key, spec in section.items():
        if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str):
            problems.append((f"ranks.{key}", "expected a table with a name" + _got_name(spec)))
            continue
        skills = _skill_values(spec, f"ranks.{key}", ALL_SKILLS, problems)
        missing = [skill for skill in BASE_SKILLS if skill not in skills]
        if missing:
            problems.append((f"ranks.{key}", f"expected every base skill (missing {', '.join(missing)})"))
        full = {skill: skills.get(skill, 0) for skill in ALL_SKILLS}
        ranks[key] = Rank(key, spec["name"], MappingProxyType(full), bool(spec.get("distributes_defense", False)))
    return ranks


def _clans(section: Any, ranks: Mapping[str, Rank], problems: Problems) -> tuple[dict[str, Clan], dict[str, RoleSpec]]:
    if not isinstance(section, Mapping) or not section:
        problems.append(("clans", "expected a table of clans" + _got(section)))
        return {}, {}
    clans, roles = {}, {}
    for key, spec in section.items():
        if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str):
            problems.append((f"clans.{key}", "expected a table with a name" + _got_name(spec)))
            continue
        clans[key] = Clan(key, spec["name"])
        for rank, names in spec.items():
            if rank == "name":
                continue
            if rank not in ranks:
                problems.append((f"clans.{key}.{rank}", f"unknown rank (expected one of {', '.join(ranks)})"))
            elif not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                problems.append((f"clans.{key}.{rank}", "expected a list of role names" + _got(names)))
            else:
                for name in names:
                    if name in roles:
                        problems.append((f"clans.{key}.{rank}", f"role {name} appears twice"))
                    roles[name] = RoleSpec(name, key, rank)
    return clans, roles


def _spells(section: Any, clans: Mapping[str, Clan], ranks: Mapping[str, Rank], problems: Problems) -> dict[str, Spell]:
    if not isinstance(section, Mapping):
        problems.append(("spells", "expected a table of spells" + _got(section)))
        return {}
    spells = {}
    for name, spec in section.items():
        path = f'spells."{name}"'
        if not isinstance(spec, Mapping) or spec.get("clan") not in clans or spec.get("rank") not in ranks:
            written = (f" (got clan {spec.get('clan')!r}, rank {spec.get('rank')!r})" if isinstance(spec, Mapping)
                       else _got(spec))
            problems.append((path, "expected a table with a known clan and rank" + written))
            continue
        effect = _skill_values(spec, path, ALL_SKILLS, problems)
        spells[name] = Spell(name, spec["clan"], spec["rank"], MappingProxyType(effect))
    return spells
