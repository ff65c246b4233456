"""The Arena tables: fighter card, actions, sequences, weapons, multipliers, wounds, armour, space.

The tables ship as config/arena/*.toml; the caller reads them (engines do no I/O) and hands the
merged mapping to `load_table`, which returns an `ArenaTable` or raises `SetupError` naming the
key (`rules.weapons.меч.range`) and what is expected. The engine holds no number of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, Callable, Mapping

from forumgm.engines.base import TOML_WORDS, SetupError, SetupProblems
from forumgm.parsers.orders.arena import Vocabulary

ACTION_TYPES = ("rest", "attack", "defense", "move", "turn", "surrender")
SEQUENCE_KINDS = ("", "attack", "defense", "move")
OPTIONAL = ("", "after_rest", "replacement", "always")
REPLACEMENT = ("", "only", "also")
DICE = ("attack", "defense", "move")
FIGHTER_KEYS = ("weapon", "left", "helmet", "attack_dice", "defense_dice", "move_dice",
                "attack_rating", "defense_rating", "speed_rating")
HANDS = ("right", "left", "legs")
BODY_PARTS = ("head", "body", "left_arm", "right_arm", "left_leg", "right_leg")
DIRECTIONS = ("forward", "back", "left", "right")
FACINGS = ("north", "east", "south", "west")       # the order of state.FACING
START_LINES = (0, 0.5, 1)                          # a side of the start square, or the arena's middle line


@dataclass(frozen=True)
class Sequence:
    number: int
    name: str
    cards: tuple[str, ...]            # codes; an optional one is written "(X)"
    kind: str                         # what a lower rating puts a rest after
    optional: str = ""
    replacement: str = ""
    every_weapon: bool = False
    one_wound: bool = False
    range: tuple[int, int] | None = None
    max_rating: bool = False

    def variants(self, after_rest: bool, replacing: bool) -> list[tuple[str, ...]]:
        """The card lists this sequence may be played as, longest first."""
        full = tuple(code.strip("()") for code in self.cards)
        short = tuple(code for code in self.cards if not code.startswith("("))
        if self.optional == "always" or (self.optional == "after_rest" and after_rest):
            return [full, short] if short != full else [full]
        if self.optional == "replacement" and replacing:
            return [short + tuple(c.strip("()") for c in self.cards if c.startswith("("))]
        return [full]


@dataclass(frozen=True)
class Weapon:
    name: str
    sequences: frozenset[int]
    range: tuple[int, int]
    breakage: int
    natural: bool = False
    shield: bool = False


@dataclass(frozen=True)
class Armour:
    name: str
    zones: tuple[str, ...]
    reduces: int
    takes: int
    neighbour_multiplier: float = 0


@dataclass(frozen=True)
class ArenaTable:
    stack_size: int
    hit_on: int
    riposte: str                                     # the card played only after a stopping parry
    riposte_after: str
    riposte_stops: frozenset[str]
    throw: str
    throw_base: int
    throw_from: int
    dice_sides: int
    fighter: Mapping[str, Any]                       # the default fighter card
    actions: Mapping[str, tuple[str, str]]           # code -> (name, type)
    sequences: Mapping[int, Sequence]
    weapons: Mapping[str, Weapon]
    action_multiplier: Mapping[str, Mapping[str, float]]
    weapon_multiplier: Mapping[str, Mapping[str, float]]
    approach: float
    retreat: float
    wound_levels: tuple[str, ...]                    # names of levels 1..n (the last: severing)
    wound_bounds: tuple[int, ...]                    # upper bounds in DEF of all but the last
    severing_by: frozenset[str]
    dice_lost: Mapping[str, tuple[str, ...]]
    armour_units: tuple[int, ...]
    helmet: Armour
    shield: Armour
    size: int
    start_distance: int
    start: Mapping[int, tuple[tuple[float, float, int], ...]]   # fighters -> (x, y, facing) of each
    zones: tuple[str, ...]
    zone_aliases: Mapping[str, str]
    adjacent: frozenset[frozenset[str]]
    opposite: frozenset[frozenset[str]]
    shift: Mapping[str, tuple[str, str]]
    body: Mapping[str, str]                          # head, body, left_arm, … -> zone
    directions: Mapping[str, str]                    # word -> forward | back | left | right
    source: Mapping[str, Any]                         # the validated mapping, kept in snapshots

    def kind(self, code: str) -> str:
        return self.actions[code][1]

    def is_adjacent(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.adjacent

    def is_opposite(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.opposite

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The words the order grammar reads, built once per table (every card shown asks)."""
        zones = {zone.lower(): zone for zone in self.zones}
        zones.update(self.zone_aliases)
        return Vocabulary(
            codes={code: kind for code, (_, kind) in self.actions.items()},
            sequences={s.name.lower(): s.number for s in self.sequences.values()},
            sequence_codes={s.number: s.cards for s in self.sequences.values()},
            zones=zones,
            directions=dict(self.directions),
        )

    def by_name(self, name: str) -> Sequence | None:
        return next((s for s in self.sequences.values() if s.name.lower() == name.lower()), None)


TOP_KEYS = ("tables", "stack_size", "hit_on", "dice_sides", "riposte", "throw", "fighters", "actions", "sequences",
            "weapons", "multipliers", "wounds", "armour", "space")


class TableCheck:
    """Reads typed values out of the mapping: a problem raises SetupError with its key, which `part`
    keeps, so that every independent part of the table is still read."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.problems = SetupProblems()

    def part(self, read: Callable[[], Any], needs: tuple = ()) -> Any:
        """read(), or None after keeping its problems. None at once when a part it reads is None:
        that part's problems are kept already, and reading on would only add echoes of them."""
        if any(value is None for value in needs):
            return None
        return self.problems.attempt(read)

    def entries(self, table: Mapping, read: Callable[[Any, Any], Any]) -> dict | None:
        """read(name, entry) of every entry of the table, each one's problems kept; None when any had one."""
        before = len(self.problems.found)
        out = {name: self.part(lambda: read(name, entry)) for name, entry in table.items()}
        return None if len(self.problems.found) > before else out

    def fail(self, key: str, message: str) -> None:
        raise SetupError(f"{self.root}.{key}", message)

    def table(self, data: Any, key: str) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            self.fail(key, "expected a table")
        return data

    def get(self, data: Mapping, name: str, key: str, kind: type | tuple, default: Any = ...) -> Any:
        where = f"{key}.{name}" if key else name
        if name not in data:
            if default is ...:
                self.fail(where, "required")
            return default
        value = data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            self.fail(where, f"expected {' or '.join(TOML_WORDS.get(k, k.__name__) for k in kinds)} (got {value!r})")
        return value

    def whole(self, data: Mapping, name: str, key: str, low: int, high: int, default: Any = ...) -> int:
        value = self.get(data, name, key, int, default)
        if not low <= value <= high:
            self.fail(f"{key}.{name}" if key else name, f"expected a whole number {low}…{high} (got {value})")
        return value

    def number(self, value: Any, key: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
            self.fail(key, f"expected a number 0…100 (got {value!r})")
        return float(value)

    def pair(self, data: Mapping, name: str, key: str, default: Any = ...) -> tuple[int, int] | None:
        value = self.get(data, name, key, list, default)
        if value is None:
            return None
        if (len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                or not 0 <= value[0] <= value[1] <= 100):
            self.fail(f"{key}.{name}", f"expected [min, max] in sectors, 0 ≤ min ≤ max (got {value!r})")
        return (value[0], value[1])

    def one_of(self, value: Any, allowed: tuple | list | Mapping, key: str) -> Any:
        if value not in allowed:
            self.fail(key, f"expected one of {', '.join(map(str, allowed))} (got {value!r})")
        return value


def load_table(mapping: Mapping[str, Any], root: str = "rules") -> ArenaTable:
    """The checked table; SetupError with every problem found. A part whose table has problems is
    not read further (its own problems say why)."""
    check = TableCheck(root)
    data = check.table(mapping, "")
    part = check.part
    # a misspelt rule would be ignored without a word
    check.problems.found += [(f"{root}.{key}", f"unknown rule (expected one of {', '.join(TOP_KEYS)})")
                             for key in data if key not in TOP_KEYS]
    actions = part(lambda: _actions(check, data))
    # sequences name actions, weapons name sequences: each is still checked without the one before
    sequences = part(lambda: _sequences(check, data, actions))
    weapons = part(lambda: _weapons(check, data, sequences))
    space, multipliers, wounds, armour, riposte, throw = (
        part(lambda name=name: check.table(data.get(name), name))
        for name in ("space", "multipliers", "wounds", "armour", "riposte", "throw"))
    zones = part(lambda: _zones(check, space), needs=(space,))
    levels = part(lambda: _levels(check, wounds), needs=(wounds,))
    movement = part(lambda: check.table(multipliers.get("movement", {}), "multipliers.movement"), needs=(multipliers,))
    values = dict(
        riposte=part(lambda: check.one_of(riposte.get("card"), list(actions), "riposte.card"), needs=(riposte, actions)),
        riposte_after=part(lambda: check.one_of(riposte.get("after"), list(actions), "riposte.after"),
                           needs=(riposte, actions)),
        riposte_stops=part(lambda: frozenset(_codes(check, riposte.get("stops"), "riposte.stops", actions)),
                           needs=(riposte, actions)),
        throw=part(lambda: check.one_of(throw.get("card"), list(actions), "throw.card"), needs=(throw, actions)),
        throw_base=part(lambda: check.whole(throw, "base", "throw", 0, 100), needs=(throw,)),
        throw_from=part(lambda: check.whole(throw, "from", "throw", 0, 100), needs=(throw,)),
        stack_size=part(lambda: check.whole(data, "stack_size", "", 1, 20)),
        hit_on=part(lambda: check.whole(data, "hit_on", "", 1, 100)),
        dice_sides=part(lambda: check.whole(data, "dice_sides", "", 2, 100)),
        fighter=part(lambda: MappingProxyType(_fighter(check, data, weapons)), needs=(weapons,)),
        actions=None if actions is None else MappingProxyType(actions),
        sequences=None if sequences is None else MappingProxyType(sequences),
        weapons=None if weapons is None else MappingProxyType(weapons),
        action_multiplier=part(lambda: _action_multipliers(check, multipliers, actions), needs=(multipliers, actions)),
        weapon_multiplier=part(lambda: _weapon_multipliers(check, multipliers, actions, weapons),
                               needs=(multipliers, actions, weapons)),
        approach=part(lambda: _signed(check, movement, "approach"), needs=(movement,)),
        retreat=part(lambda: _signed(check, movement, "retreat"), needs=(movement,)),
        wound_levels=None if levels is None else levels[0],
        wound_bounds=None if levels is None else levels[1],
        severing_by=part(lambda: frozenset(_codes(check, wounds.get("severing_by", []), "wounds.severing_by", actions)),
                         needs=(wounds, actions)),
        dice_lost=part(lambda: MappingProxyType(_dice_lost(check, wounds, zones)), needs=(wounds, zones)),
        armour_units=part(lambda: _units(check, armour, levels[0]), needs=(armour, levels)),
        helmet=part(lambda: _armour(check, armour, "helmet", zones), needs=(armour, zones)),
        shield=part(lambda: _armour(check, armour, "shield", zones), needs=(armour, zones)),
        size=part(lambda: check.whole(space, "size", "space", 2, 100), needs=(space,)),
        start_distance=part(lambda: check.whole(space, "start_distance", "space", 1, 99), needs=(space,)),
        start=part(lambda: MappingProxyType(_start(check, space)), needs=(space,)),
        zones=zones,
        zone_aliases=part(lambda: MappingProxyType(_aliases(check, space, zones)), needs=(space, zones)),
        adjacent=part(lambda: _pairs(check, space, "adjacent", zones), needs=(space, zones)),
        opposite=part(lambda: _pairs(check, space, "opposite", zones), needs=(space, zones)),
        shift=part(lambda: MappingProxyType(_shift(check, space, zones)), needs=(space, zones)),
        body=part(lambda: MappingProxyType(_body(check, space, zones)), needs=(space, zones)),
        directions=part(lambda: MappingProxyType(_directions(check, space)), needs=(space,)),
    )
    check.problems.done()
    return ArenaTable(**values, source=mapping)


def _zones(check: TableCheck, space: Mapping) -> tuple[str, ...]:
    zones = tuple(check.get(space, "zones", "space", list))
    if len(zones) < 2 or not all(isinstance(z, str) and z for z in zones):
        check.fail("space.zones", "expected a list of zone names")
    return zones


def _units(check: TableCheck, armour: Mapping, levels: tuple[str, ...]) -> tuple[int, ...]:
    units = check.get(armour, "units", "armour", list)
    if len(units) != len(levels) or not all(isinstance(u, int) and not isinstance(u, bool) and u >= 0 for u in units):
        check.fail("armour.units", f"expected {len(levels)} whole numbers, one per wound level")
    return tuple(units)


def _actions(check: TableCheck, data: Mapping) -> dict[str, tuple[str, str]] | None:
    out = check.entries(check.table(data.get("actions"), "actions"), lambda code, entry: _action(check, code, entry))
    if out is None:
        return None
    for needed in ("rest", "surrender"):
        if needed not in {kind for _, kind in out.values()}:
            check.fail("actions", f"an action of type {needed} is needed")
    return out


def _action(check: TableCheck, code: str, entry: Any) -> tuple[str, str]:
    key = f"actions.{code}"
    entry = check.table(entry, key)
    return check.get(entry, "name", key, str), check.one_of(entry.get("type"), ACTION_TYPES, f"{key}.type")


def _codes(check: TableCheck, value: Any, key: str, actions: Mapping) -> list[str]:
    if not isinstance(value, list):
        check.fail(key, "expected a list of action codes")
    for code in value:
        check.one_of(code, list(actions), key)
    return value


def _sequences(check: TableCheck, data: Mapping, actions: Mapping | None) -> dict[int, Sequence] | None:
    """The sequences; None when any has a problem or the actions they name had one (`actions` None:
    then the codes are not checked)."""
    entries = check.table(data.get("sequences"), "sequences").get("sequence")
    if not isinstance(entries, list) or not entries:
        check.fail("sequences.sequence", "expected an array of [[sequence]] tables")
    read = check.entries(dict(enumerate(entries)), lambda index, entry: _sequence(check, index, entry, actions))
    if read is None:
        return None
    out: dict[int, Sequence] = {}
    for index, sequence in read.items():
        if sequence.number in out:
            check.fail(f"sequences.sequence[{index}].number", f"sequence {sequence.number} appears twice")
        out[sequence.number] = sequence
    return None if actions is None else out


def _sequence(check: TableCheck, index: int, entry: Any, actions: Mapping | None) -> Sequence:
    key = f"sequences.sequence[{index}]"
    entry = check.table(entry, key)
    cards = check.get(entry, "cards", key, list)
    if not cards or not all(isinstance(c, str) for c in cards):
        check.fail(f"{key}.cards", "expected a non-empty list of action codes")
    for code in cards if actions is not None else ():
        check.one_of(code.strip("()"), list(actions), f"{key}.cards")
    return Sequence(
        number=check.whole(entry, "number", key, 1, 999), name=check.get(entry, "name", key, str), cards=tuple(cards),
        kind=check.one_of(entry.get("kind", ""), SEQUENCE_KINDS, f"{key}.kind"),
        optional=check.one_of(entry.get("optional", ""), OPTIONAL, f"{key}.optional"),
        replacement=check.one_of(entry.get("replacement", ""), REPLACEMENT, f"{key}.replacement"),
        every_weapon=check.get(entry, "every_weapon", key, bool, False),
        one_wound=check.get(entry, "one_wound", key, bool, False),
        range=check.pair(entry, "range", key, None),
        max_rating=check.get(entry, "max_rating", key, bool, False),
    )


def _weapons(check: TableCheck, data: Mapping, sequences: Mapping | None) -> dict[str, Weapon] | None:
    """The weapons; None when any has a problem or the sequences they name had one (`sequences` None:
    then the numbers are not checked)."""
    out = check.entries(check.table(data.get("weapons"), "weapons"),
                        lambda name, entry: _weapon(check, name, entry, sequences))
    if out is None:
        return None
    for needed in ("нога", "рука"):
        if needed not in out:
            check.fail("weapons", f"the natural weapon «{needed}» is needed (legs and an empty hand)")
    return None if sequences is None else out


def _weapon(check: TableCheck, name: str, entry: Any, sequences: Mapping | None) -> Weapon | None:
    """One weapon, each of its values checked on its own (a host's override often touches several)."""
    key = f"weapons.{name}"
    entry = check.table(entry, key)
    part = check.part
    values = (part(lambda: frozenset(check.one_of(number, list(sequences), f"{key}.sequences")
                                     if sequences is not None else number
                                     for number in check.get(entry, "sequences", key, list))),
              part(lambda: check.pair(entry, "range", key)),
              part(lambda: check.whole(entry, "breakage", key, 0, 100)),
              part(lambda: check.get(entry, "natural", key, bool, False)),
              part(lambda: check.get(entry, "shield", key, bool, False)))
    return None if any(value is None for value in values) else Weapon(name, *values)


def _fighter(check: TableCheck, data: Mapping, weapons: Mapping) -> dict[str, Any]:
    card = check.table(check.table(data.get("fighters"), "fighters").get("default"), "fighters.default")
    return fighter_card(check, card, "fighters.default", weapons, {})


def fighter_card(check: TableCheck, card: Mapping, key: str, weapons: Mapping, defaults: Mapping) -> dict[str, Any]:
    """One fighter's card, every key checked (all its problems at once); missing keys from `defaults`."""
    problems = SetupProblems()
    problems.found += [(f"{check.root}.{key}.{name}", f"unknown key (expected one of nick, {', '.join(FIGHTER_KEYS)})")
                       for name in card if name not in FIGHTER_KEYS and name not in ("nick", "aliases", "gender")]
    given = {name: problems.attempt(_fighter_value, check, card, name, key, weapons)
             for name in FIGHTER_KEYS if name in card}
    problems.done()
    out = {**defaults, **given}
    missing = [name for name in FIGHTER_KEYS if name not in out]
    if missing:
        check.fail(f"{key}.{missing[0]}", "required")
    return out


def _fighter_value(check: TableCheck, card: Mapping, name: str, key: str, weapons: Mapping) -> Any:
    if name in ("weapon", "left"):
        value = check.get(card, name, key, str)
        held = [w for w, spec in weapons.items() if w != "нога" and (name == "left" or not spec.shield)]
        if value or name == "weapon":
            check.one_of(value, held, f"{key}.{name}")
        return value
    if name == "helmet":
        return check.get(card, name, key, bool)
    return check.whole(card, name, key, 0, 20 if name.endswith("_dice") else 5)


def _action_multipliers(check: TableCheck, multipliers: Mapping, actions: Mapping) -> Mapping:
    rows = check.table(multipliers.get("action"), "multipliers.action")
    columns = ["rest", "attack"] + [code for code, (_, kind) in actions.items() if kind == "defense"]
    out = {}
    for code, row in rows.items():
        key = f"multipliers.action.{code}"
        check.one_of(code, [c for c, (_, kind) in actions.items() if kind == "attack"], key)
        row = check.table(row, key)
        for column in row:
            check.one_of(column, columns, f"{key}.{column}")
        for column in columns:
            if column not in row:
                check.fail(f"{key}.{column}", "required (a number)")
        out[code] = MappingProxyType({column: check.number(row[column], f"{key}.{column}") for column in columns})
    for code, (_, kind) in actions.items():
        if kind == "attack" and code not in out:
            check.fail(f"multipliers.action.{code}", "required (a row of the action multiplier table)")
    return MappingProxyType(out)


def _weapon_multipliers(check: TableCheck, multipliers: Mapping, actions: Mapping, weapons: Mapping) -> Mapping:
    rows = check.table(multipliers.get("weapon", {}), "multipliers.weapon")
    out = {}
    for code, row in rows.items():
        key = f"multipliers.weapon.{code}"
        check.one_of(code, [c for c, (_, kind) in actions.items() if kind == "attack"], key)
        row = check.table(row, key)
        for weapon, value in row.items():
            check.one_of(weapon, list(weapons), f"{key}.{weapon}")
        out[code] = MappingProxyType({w: check.number(v, f"{key}.{w}") for w, v in row.items()})
    return MappingProxyType(out)


def _signed(check: TableCheck, table: Mapping, name: str) -> float:
    value = table.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not -100 <= value <= 100:
        check.fail(f"multipliers.movement.{name}", f"expected a number -100…100 (got {value!r})")
    return float(value)


def _levels(check: TableCheck, wounds: Mapping) -> tuple[tuple[str, ...], tuple[int, ...]]:
    entries = wounds.get("level")
    if not isinstance(entries, list) or len(entries) != 4:
        check.fail("wounds.level", "expected an array of four [[level]] tables: light, wound, heavy, severing")
    names, bounds = [], []
    for index, entry in enumerate(entries):
        key = f"wounds.level[{index}]"
        entry = check.table(entry, key)
        names.append(check.get(entry, "name", key, str))
        if index < len(entries) - 1:
            bound = check.whole(entry, "up_to", key, 1, 100)
            if bounds and bound <= bounds[-1]:
                check.fail(f"{key}.up_to", f"expected more than the level before ({bounds[-1]})")
            bounds.append(bound)
    return tuple(names), tuple(bounds)


def _dice_lost(check: TableCheck, wounds: Mapping, zones: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    table = check.table(wounds.get("dice_lost", {}), "wounds.dice_lost")
    out = {}
    for zone, dice in table.items():
        check.one_of(zone, zones, f"wounds.dice_lost.{zone}")
        if not isinstance(dice, list):
            check.fail(f"wounds.dice_lost.{zone}", "expected a list of attack, defense, move")
        for name in dice:
            check.one_of(name, DICE, f"wounds.dice_lost.{zone}")
        out[zone] = tuple(dice)
    return out


def _armour(check: TableCheck, armour: Mapping, name: str, zones: tuple[str, ...]) -> Armour:
    key = f"armour.{name}"
    entry = check.table(armour.get(name), key)
    listed = entry.get("zones", [])
    if not isinstance(listed, list):
        check.fail(f"{key}.zones", "expected a list of zones")
    for zone in listed:
        check.one_of(zone, zones, f"{key}.zones")
    neighbour = entry.get("neighbour_multiplier", 0)
    if isinstance(neighbour, bool) or not isinstance(neighbour, (int, float)):
        check.fail(f"{key}.neighbour_multiplier", "expected a number")
    return Armour(check.get(entry, "name", key, str), tuple(listed), check.whole(entry, "reduces", key, 0, 10),
                  check.get(entry, "takes", key, int), float(neighbour))


def _aliases(check: TableCheck, space: Mapping, zones: tuple[str, ...]) -> dict[str, str]:
    table = check.table(space.get("zone_aliases", {}), "space.zone_aliases")
    for alias, zone in table.items():
        check.one_of(zone, zones, f"space.zone_aliases.{alias}")
    return {alias.lower(): zone for alias, zone in table.items()}


def _pairs(check: TableCheck, space: Mapping, name: str, zones: tuple[str, ...]) -> frozenset[frozenset[str]]:
    value = check.get(space, name, "space", list)
    out = set()
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            check.fail(f"space.{name}", "expected a list of [zone, zone] pairs")
        for zone in pair:
            check.one_of(zone, zones, f"space.{name}")
        out.add(frozenset(pair))
    return frozenset(out)


def _shift(check: TableCheck, space: Mapping, zones: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    table = check.table(space.get("shift", {}), "space.shift")
    out = {}
    for zone, pair in table.items():
        key = f"space.shift.{zone}"
        check.one_of(zone, zones, key)
        if not isinstance(pair, list) or len(pair) != 2:
            check.fail(key, "expected [zone when the target steps left, zone when it steps right]")
        for target in pair:
            check.one_of(target, ("",) + zones, key)
        out[zone] = (pair[0], pair[1])
    return out


def _start(check: TableCheck, space: Mapping) -> dict[int, tuple[tuple[float, float, int], ...]]:
    table = check.table(space.get("start", {}), "space.start")
    out = {}
    for count, slots in table.items():
        key = f"space.start.{count}"
        if not str(count).isdigit() or int(count) < 2:
            check.fail(key, "expected a number of fighters, 2 or more")
        if not isinstance(slots, list) or len(slots) != int(count):
            check.fail(key, f"expected {count} positions, one per fighter")
        for index, slot in enumerate(slots):
            if (not isinstance(slot, list) or len(slot) != 3 or any(isinstance(v, bool) for v in slot[:2])
                    or slot[0] not in START_LINES or slot[1] not in START_LINES or slot[2] not in FACINGS):
                check.fail(f"{key}[{index}]", "expected [x, y, facing]: x and y 0, 0.5 or 1, facing one of "
                                              f"{', '.join(FACINGS)} (got {slot!r})")
        if len({(x, y) for x, y, _ in slots}) != len(slots):
            check.fail(key, "two fighters on one position")
        out[int(count)] = tuple((x, y, FACINGS.index(facing)) for x, y, facing in slots)
    return out


def _body(check: TableCheck, space: Mapping, zones: tuple[str, ...]) -> dict[str, str]:
    table = check.table(space.get("body"), "space.body")
    for part in BODY_PARTS:
        check.one_of(table.get(part), zones, f"space.body.{part}")
    return {part: table[part] for part in BODY_PARTS}


def _directions(check: TableCheck, space: Mapping) -> dict[str, str]:
    table = check.table(space.get("directions"), "space.directions")
    out = {}
    for direction in DIRECTIONS:
        words = table.get(direction)
        if not isinstance(words, list) or not words or not all(isinstance(w, str) and w for w in words):
            check.fail(f"space.directions.{direction}", "expected a list of words")
        out.update({word.lower(): direction for word in words})
    return out
