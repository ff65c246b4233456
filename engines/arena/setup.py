"""The starting position of a fight from a setup table: fighter cards, where each stands (the
tables' start positions for that many fighters), scripted dice."""
from __future__ import annotations

from typing import Any, Mapping

from forumgm.engines.arena.state import ArenaState, Fighter
from forumgm.engines.arena.table import ArenaTable, TableCheck, fighter_card
from forumgm.engines.base import SetupError, reject_unknown_keys

SETUP_KEYS = ("fighters", "players", "dice", "distance")
MAX_SCRIPTED = 10_000


def _tables(setup: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """[[setup.fighters]] and the game config's [[players]] (nick and aliases), joined by nick."""
    fighters = setup.get("fighters", [])
    players = setup.get("players", [])
    for key, value in (("setup.fighters", fighters), ("setup.players", players)):
        if not isinstance(value, list) or not all(isinstance(v, Mapping) and isinstance(v.get("nick"), str)
                                                  for v in value):
            raise SetupError(key, "expected an array of tables, each with a nick")
    by_nick = {f["nick"]: f for f in fighters}
    tables = [{**by_nick.get(p["nick"], {}), **{k: v for k, v in p.items() if k in ("nick", "aliases")}}
              for p in players]
    listed = {p["nick"] for p in players}
    if players:
        stray = [f["nick"] for f in fighters if f["nick"] not in listed]
        if stray:
            raise SetupError("setup.fighters", f"not players of this game: {', '.join(stray)}")
    tables += [f for f in fighters if f["nick"] not in listed]
    if len(tables) < 2:
        raise SetupError("setup.fighters", f"a fight needs two fighters or more (got {len(tables)})")
    if len({t["nick"] for t in tables}) != len(tables):
        raise SetupError("setup.fighters", "a nick appears twice")
    return tables


def _positions(table: ArenaTable, count: int, gap: int) -> tuple[tuple[int, int, int], ...]:
    """(x, y, facing) of each fighter: the tables' start positions on a square of side `gap` in
    the middle of the arena."""
    if count not in table.start:
        counts = ", ".join(map(str, sorted(table.start))) or "no number of"
        raise SetupError("setup.fighters", f"the arena's start positions (rules.space.start) are for {counts} "
                                           f"fighters, not {count}")
    low = (table.size - 1 - gap) // 2
    line = {0: low, 1: low + gap, 0.5: table.size // 2}
    return tuple((line[x], line[y], facing) for x, y, facing in table.start[count])


def _dice(value: Any, table: ArenaTable) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > MAX_SCRIPTED:
        raise SetupError("setup.dice", f"expected a list of at most {MAX_SCRIPTED} d6 results")
    for index, die in enumerate(value):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= table.dice_sides:
            raise SetupError(f"setup.dice[{index}]", f"expected a whole number 1…{table.dice_sides} (got {die!r})")
    return tuple(value)


def start_state(table: ArenaTable, setup: Mapping[str, Any]) -> ArenaState:
    reject_unknown_keys(setup, SETUP_KEYS, "setup")
    check = TableCheck("setup")
    fighters = []
    size, gap = table.size, setup.get("distance", table.start_distance)
    if isinstance(gap, bool) or not isinstance(gap, int) or not 1 <= gap < size:
        raise SetupError("setup.distance", f"expected a whole number of sectors 1…{size - 1} (got {gap!r})")
    entries = _tables(setup)
    for index, (entry, (x, y, facing)) in enumerate(zip(entries, _positions(table, len(entries), gap))):
        aliases = entry.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise SetupError(f"setup.fighters[{index}].aliases", "expected a list of names")
        card = fighter_card(check, entry, f"fighters[{index}]", table.weapons, table.fighter)
        fighters.append(Fighter(
            nick=entry["nick"], aliases=tuple(aliases),
            weapon=card["weapon"], left=card["left"] or "рука", helmet=card["helmet"],
            attack_dice=card["attack_dice"], defense_dice=card["defense_dice"], move_dice=card["move_dice"],
            attack_rating=card["attack_rating"], defense_rating=card["defense_rating"],
            speed_rating=card["speed_rating"],
            x=x, y=y, facing=facing,
        ))
    return ArenaState(table=table, fighters=tuple(fighters), dice=_dice(setup.get("dice", []), table))
