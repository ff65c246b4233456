"""A Bellum scenario: the map (regions, provinces, links), the factions and the start position.

The file format is the "Scenario file (TOML)" of docs/bellum-map.md. `parse_scenario` is pure:
it checks a parsed mapping and either returns a frozen `Scenario` or raises `ScenarioError`
listing every problem at once, each naming the file, the key and what is expected, so that a
host fixes a scenario in one pass. The file itself is read by the edge (forumgm.daemon.settings.setup_files:
the engine declares `[setup] scenario` a file it may name), never here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Iterable, Mapping

LINK_KINDS = ("land", "blue", "purple")
FACTION_KINDS = ("state", "tribe")
TOP_KEYS = {"name", "year", "geography", "regions", "provinces", "links", "factions", "people", "owners", "subjugated"}
REGION_KEYS = {"id", "name", "upkeep"}
PROVINCE_KEYS = {"id", "name", "aliases", "civilized", "region", "authority", "x", "y"}
LINK_KEYS = {"a", "b", "kind"}
FACTION_KEYS = {"id", "name", "aliases", "kind", "color", "capital", "captured", "ever_state"}
PEOPLE_KEYS = {"province", "faction", "count"}
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


class ScenarioError(ValueError):
    """Every problem of one scenario file; `problems` are 'file: key: what is expected'."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = [f"{source}: {problem}" for problem in problems]
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    upkeep: float


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    aliases: tuple[str, ...]
    civilized: bool
    region: str
    authority: int
    x: float
    y: float


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    kind: str

    def other(self, province: str) -> str:
        return self.b if province == self.a else self.a


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    aliases: tuple[str, ...]
    kind: str
    color: str
    capital: str | None
    captured: bool
    ever_state: bool

    @property
    def is_state(self) -> bool:
        return self.kind == "state"


@dataclass(frozen=True)
class Stack:
    province: str
    faction: str
    count: int


@dataclass(frozen=True)
class Scenario:
    name: str
    year: int
    regions: Mapping[str, Region]
    provinces: Mapping[str, Province]
    links: tuple[Link, ...]
    factions: Mapping[str, Faction]
    people: tuple[Stack, ...]
    owners: Mapping[str, str]
    subjugated: Mapping[str, str]
    geography: str | None = None        # the shipped real geography its map is drawn on (mapdraw)
    warnings: tuple[str, ...] = ()      # 'file: key: what is odd' — the map plays, but a host should know

    def neighbours(self, province_id: str, kinds: Iterable[str] = LINK_KINDS) -> tuple[str, ...]:
        """Provinces one link of the given kinds away, in id order."""
        wanted = set(kinds)
        return tuple(sorted(
            link.other(province_id) for link in self.links
            if link.kind in wanted and province_id in (link.a, link.b)
        ))

    def link(self, a: str, b: str) -> Link | None:
        """The link between two provinces, whichever way it was written, or None."""
        return next((link for link in self.links if {link.a, link.b} == {a, b}), None)


def parse_scenario(data: Mapping[str, Any], source: str = "(scenario)") -> Scenario:
    """The validated scenario of a parsed TOML mapping; `source` names the file in errors."""
    check = _Checker()
    check.unknown_keys(data, TOP_KEYS, "")
    name = check.typed(data, "name", str, "", "a text such as \"370\"")
    year = check.typed(data, "year", int, "", "the first turn's year, an integer")
    geography = check.typed(data, "geography", str, "", 'the name of a shipped geography ("mediterranean")',
                            None, required=False)
    regions = _regions(check, data.get("regions"))
    provinces = _provinces(check, data.get("provinces"), regions)
    links = _links(check, data.get("links"), provinces)
    factions = _factions(check, data.get("factions"), provinces)
    people = _people(check, data.get("people"), provinces, factions)
    owners = _owners(check, data.get("owners", {}), provinces, factions)
    subjugated = _subjugated(check, data.get("subjugated", {}), factions)
    _cross_checks(check, provinces, factions, people, owners)
    if check.problems:
        raise ScenarioError(source, check.problems)
    return Scenario(
        name=name, year=year, geography=geography,
        regions=MappingProxyType(regions), provinces=MappingProxyType(provinces), links=tuple(links),
        factions=MappingProxyType(factions), people=tuple(people),
        owners=MappingProxyType(owners), subjugated=MappingProxyType(subjugated),
        warnings=tuple(f"{source}: {warning}" for warning in _islands(provinces, links)),
    )


class _Checker:
    """Collects problems instead of stopping at the first one."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, key: str, message: str) -> None:
        self.problems.append(f"{key}: {message}")

    def unknown_keys(self, table: Mapping[str, Any], allowed: set[str], key: str) -> None:
        for name in table:
            if name not in allowed:
                self.add(_join(key, name), f"unknown key (expected one of {', '.join(sorted(allowed))})")

    def typed(self, table: Mapping[str, Any], name: str, kind: type | tuple, key: str, expected: str,
              default: Any = None, required: bool = True) -> Any:
        if name not in table:
            if required:
                self.add(_join(key, name), f"missing (expected {expected})")
            return default
        value = table[name]
        # bool is an int in Python; a TOML `true` is never a count or a coordinate
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            self.add(_join(key, name), f"expected {expected} (got {value!r})")
            return default
        return value

    def table_array(self, value: Any, key: str, allowed: set[str]) -> list[tuple[str, Mapping[str, Any]]]:
        """`[[key]]` entries with their display keys; anything else is one problem."""
        if value is None:
            self.add(key, f"missing (expected an array of tables [[{key}]])")
            return []
        if not isinstance(value, list):
            self.add(key, f"expected an array of tables [[{key}]]")
            return []
        entries = []
        for index, entry in enumerate(value):
            entry_key = f"{key}[{index}]"
            if not isinstance(entry, Mapping):
                self.add(entry_key, "expected a table")
                continue
            if isinstance(entry.get("id"), str):
                entry_key += f" ({entry['id']})"
            self.unknown_keys(entry, allowed, entry_key)
            entries.append((entry_key, entry))
        return entries

    def identifier(self, entry: Mapping[str, Any], key: str, seen: set[str]) -> str | None:
        value = self.typed(entry, "id", str, key, "an id of lowercase latin letters, digits and _")
        if value is None:
            return None
        if not _ID.match(value):
            self.add(f"{key}.id", f"expected lowercase latin letters, digits and _ (got {value!r})")
            return None
        if value in seen:
            self.add(f"{key}.id", f"duplicate id {value!r}")
            return None
        seen.add(value)
        return value

    def names(self, entry: Mapping[str, Any], key: str) -> tuple[str, tuple[str, ...]]:
        name = self.typed(entry, "name", str, key, "the Russian name") or ""
        aliases = self.typed(entry, "aliases", list, key, "a list of names", [], required=False)
        if any(not isinstance(alias, str) or not alias.strip() for alias in aliases):
            self.add(f"{key}.aliases", "expected a list of non-empty texts")
            aliases = []
        return name, tuple(aliases)

    def known(self, value: Any, known: Mapping[str, Any], key: str, what: str) -> bool:
        if value is None:
            return False
        if value not in known:
            self.add(key, f"unknown {what} {value!r}")
            return False
        return True


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


def _regions(check: _Checker, value: Any) -> dict[str, Region]:
    regions: dict[str, Region] = {}
    seen: set[str] = set()
    for key, entry in check.table_array(value, "regions", REGION_KEYS):
        rid = check.identifier(entry, key, seen)
        name = check.typed(entry, "name", str, key, "the Russian name")
        upkeep = check.typed(entry, "upkeep", (int, float), key, "the region's authority upkeep, a number ≥ 0")
        if upkeep is not None and upkeep < 0:
            check.add(f"{key}.upkeep", f"expected a number ≥ 0 (got {upkeep})")
        if rid and name is not None and upkeep is not None:
            regions[rid] = Region(rid, name, upkeep)
    return regions


def _provinces(check: _Checker, value: Any, regions: Mapping[str, Region]) -> dict[str, Province]:
    provinces: dict[str, Province] = {}
    seen: set[str] = set()
    for key, entry in check.table_array(value, "provinces", PROVINCE_KEYS):
        pid = check.identifier(entry, key, seen)
        name, aliases = check.names(entry, key)
        civilized = check.typed(entry, "civilized", bool, key, "true or false")
        region = check.typed(entry, "region", str, key, "a region id")
        region_ok = check.known(region, regions, f"{key}.region", "region")
        authority = check.typed(entry, "authority", int, key, "an integer ≥ 0", 1, required=False)
        if authority < 0:
            check.add(f"{key}.authority", f"expected an integer ≥ 0 (got {authority})")
        x = check.typed(entry, "x", (int, float), key, "the map's x (longitude)")
        y = check.typed(entry, "y", (int, float), key, "the map's y (latitude)")
        if pid and name and civilized is not None and region_ok and x is not None and y is not None:
            provinces[pid] = Province(pid, name, aliases, civilized, region, authority, float(x), float(y))
    _unique_names(check, "provinces", provinces.values())
    return provinces


def _links(check: _Checker, value: Any, provinces: Mapping[str, Province]) -> list[Link]:
    """Each pair once; a link is read both ways, so a pair written twice (in either order)
    is a conflict rather than a second, one-way link."""
    links: list[Link] = []
    first_key: dict[frozenset, str] = {}
    for key, entry in check.table_array(value, "links", LINK_KEYS):
        a = check.typed(entry, "a", str, key, "a province id")
        b = check.typed(entry, "b", str, key, "a province id")
        kind = check.typed(entry, "kind", str, key, f"one of {', '.join(LINK_KINDS)}")
        ok = check.known(a, provinces, f"{key}.a", "province")
        ok = check.known(b, provinces, f"{key}.b", "province") and ok
        if kind is not None and kind not in LINK_KINDS:
            check.add(f"{key}.kind", f"expected one of {', '.join(LINK_KINDS)} (got {kind!r})")
            ok = False
        if not ok or kind is None:
            continue
        if a == b:
            check.add(key, f"a link from {a!r} to itself")
            continue
        pair = frozenset((a, b))
        if pair in first_key:
            check.add(key, f"the pair {a}–{b} is already linked by {first_key[pair]} "
                           "(a link is read both ways: write each pair once)")
            continue
        first_key[pair] = key
        links.append(Link(a, b, kind))
    return links


def _factions(check: _Checker, value: Any, provinces: Mapping[str, Province]) -> dict[str, Faction]:
    factions: dict[str, Faction] = {}
    seen: set[str] = set()
    for key, entry in check.table_array(value, "factions", FACTION_KEYS):
        fid = check.identifier(entry, key, seen)
        name, aliases = check.names(entry, key)
        kind = check.typed(entry, "kind", str, key, "state or tribe")
        if kind is not None and kind not in FACTION_KINDS:
            check.add(f"{key}.kind", f"expected state or tribe (got {kind!r})")
            kind = None
        color = check.typed(entry, "color", str, key, "a colour #rrggbb")
        if color is not None and not _COLOR.match(color):
            check.add(f"{key}.color", f"expected a colour #rrggbb (got {color!r})")
            color = None
        capital = _capital(check, entry, key, kind, provinces)
        captured = check.typed(entry, "captured", bool, key, "true or false", False, required=False)
        ever_state = check.typed(entry, "ever_state", bool, key, "true or false", False, required=False)
        if kind == "tribe" and captured:
            check.add(f"{key}.captured", "only a state can be captured")
        if fid and name and kind and color:
            factions[fid] = Faction(fid, name, aliases, kind, color, capital, captured,
                                    ever_state or kind == "state")
    _unique_names(check, "factions", factions.values())
    return factions


def _capital(check: _Checker, entry: Mapping[str, Any], key: str, kind: str | None,
             provinces: Mapping[str, Province]) -> str | None:
    if kind == "tribe":
        if "capital" in entry:
            check.add(f"{key}.capital", "a tribe has no capital (only kind = \"state\")")
        return None
    capital = check.typed(entry, "capital", str, key, "the capital's province id", required=kind == "state")
    if not check.known(capital, provinces, f"{key}.capital", "province"):
        return None
    if not provinces[capital].civilized:
        check.add(f"{key}.capital", f"the capital {capital!r} is not civilized (a capital must be)")
    return capital


def _people(check: _Checker, value: Any, provinces: Mapping[str, Province],
            factions: Mapping[str, Faction]) -> list[Stack]:
    people: list[Stack] = []
    first_key: dict[tuple[str, str], str] = {}
    for key, entry in check.table_array(value, "people", PEOPLE_KEYS):
        province = check.typed(entry, "province", str, key, "a province id")
        faction = check.typed(entry, "faction", str, key, "a faction id")
        count = check.typed(entry, "count", int, key, "a number of people ≥ 1")
        ok = check.known(province, provinces, f"{key}.province", "province")
        ok = check.known(faction, factions, f"{key}.faction", "faction") and ok
        if count is not None and count < 1:
            check.add(f"{key}.count", f"expected a number of people ≥ 1 (got {count})")
            ok = False
        if not ok or count is None:
            continue
        if (province, faction) in first_key:
            check.add(key, f"{faction} in {province} is already given by {first_key[province, faction]}")
            continue
        first_key[province, faction] = key
        people.append(Stack(province, faction, count))
    return people


def _owners(check: _Checker, value: Any, provinces: Mapping[str, Province],
            factions: Mapping[str, Faction]) -> dict[str, str]:
    if not isinstance(value, Mapping):
        check.add("owners", "expected a table: province id = state id")
        return {}
    owners = {}
    for province, owner in value.items():
        key = f"owners.{province}"
        ok = check.known(province, provinces, key, "province")
        if not isinstance(owner, str) or not check.known(owner, factions, key, "faction"):
            if not isinstance(owner, str):
                check.add(key, f"expected a state id (got {owner!r})")
            continue
        if not factions[owner].is_state:
            check.add(key, f"{owner!r} is a tribe (only states own provinces)")
        elif factions[owner].captured:
            check.add(key, f"{owner!r} is captured (a captured state owns no province)")
        elif ok:
            owners[province] = owner
    return owners


def _subjugated(check: _Checker, value: Any, factions: Mapping[str, Faction]) -> dict[str, str]:
    if not isinstance(value, Mapping):
        check.add("subjugated", "expected a table: tribe id = master tribe id")
        return {}
    subjugated = {}
    for tribe, master in value.items():
        key = f"subjugated.{tribe}"
        ok = check.known(tribe, factions, key, "faction")
        if not isinstance(master, str):
            check.add(key, f"expected the master tribe's id (got {master!r})")
            continue
        ok = check.known(master, factions, key, "faction") and ok
        if not ok:
            continue
        if factions[tribe].is_state or factions[master].is_state:
            check.add(key, "only a tribe subjugates a tribe (states neither subjugate nor are subjugated)")
        elif tribe == master:
            check.add(key, "a tribe cannot subjugate itself")
        else:
            subjugated[tribe] = master
    for tribe, master in subjugated.items():
        if master in subjugated:
            check.add(f"subjugated.{tribe}", f"its master {master!r} is itself subjugated (expected a free master)")
    return subjugated


def _islands(provinces: Mapping[str, Province], links: list[Link]) -> list[str]:
    """A province no link reaches is an island nobody can enter or leave: allowed (a host's map may
    want one), but said, since it is more often a link forgotten."""
    linked = {end for link in links for end in (link.a, link.b)}
    return [f"provinces ({pid}): no link reaches it: nobody can move into it or out of it"
            for pid in provinces if pid not in linked]


def _cross_checks(check: _Checker, provinces: Mapping[str, Province], factions: Mapping[str, Faction],
                  people: list[Stack], owners: Mapping[str, str]) -> None:
    placed = {stack.faction for stack in people}
    for fid in factions:
        if fid not in placed:
            check.add(f"factions ({fid})", "the faction is in no province (expected a [[people]] entry)")
    for fid, faction in factions.items():
        if not faction.is_state or faction.captured or faction.capital is None:
            continue
        if owners.get(faction.capital) != fid:
            check.add(f"factions ({fid}).capital",
                      f"a free state must own its capital {faction.capital!r} (add owners.{faction.capital} = \"{fid}\")")


def _unique_names(check: _Checker, key: str, entries: Iterable[Province | Faction]) -> None:
    """Orders name provinces and factions by name or alias: each must point at one entry."""
    owner_of: dict[str, list[str]] = {}
    for entry in entries:
        # ё and е are one letter in names: «Мезия» and «Мёзия» are one name
        for name in {n.casefold().replace("ё", "е") for n in (entry.name, *entry.aliases)}:
            owner_of.setdefault(name, []).append(entry.id)
    for name, ids in sorted(owner_of.items()):
        if len(ids) > 1:
            check.add(key, f"the name {name!r} belongs to {', '.join(sorted(ids))} (expected each name once)")
