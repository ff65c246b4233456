"""The starting position of a fight from a setup table: fighter cards, where each stands (the
tables' start positions for that many fighters), scripted dice."""
from __future__ import annotations

from typing import Any, Mapping

from forumgm.engines.arena.state import ArenaState, Fighter
from forumgm.engines.arena.table import ArenaTable, TableCheck, fighter_card
from forumgm.engines.base import SetupError, SetupProblems, reject_unknown_keys

SETUP_KEYS = ("fighters", "players", "dice", "distance")
MAX_SCRIPTED = 10_000


def _tables(setup: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any]]]:
    """[[setup.fighters]] and the game config's [[players]] (nick and aliases), joined by nick; with
    each, where the host wrote its card and its aliases (`fighters[1]`, `players[0]`)."""
    fighters = setup.get("fighters", [])
    players = setup.get("players", [])
    for key, value in (("setup.fighters", fighters), ("setup.players", players)):
        if not isinstance(value, list) or not all(isinstance(v, Mapping) and isinstance(v.get("nick"), str)
                                                  for v in value):
            raise SetupError(key, "expected an array of tables, each with a nick")
    at = {f["nick"]: index for index, f in enumerate(fighters)}
    tables = []
    for index, p in enumerate(players):
        card = f"fighters[{at[p['nick']]}]" if p["nick"] in at else f"players[{index}]"
        tables.append((card, f"players[{index}]", {**(fighters[at[p["nick"]]] if p["nick"] in at else {}),
                                                   **{k: v for k, v in p.items() if k in ("nick", "aliases", "gender")}}))
    listed = {p["nick"] for p in players}
    if players:
        stray = [f["nick"] for f in fighters if f["nick"] not in listed]
        if stray:
            raise SetupError("setup.fighters", f"not players of this game: {', '.join(stray)}")
    tables += [(f"fighters[{index}]", f"fighters[{index}]", f) for index, f in enumerate(fighters)
               if f["nick"] not in listed]
    if len(tables) < 2:
        raise SetupError("setup.fighters", f"a fight needs two fighters or more (got {len(tables)})")
    if len({t["nick"] for _, _, t in tables}) != len(tables):
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


def _gap(value: Any, table: ArenaTable) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < table.size:
        raise SetupError("setup.distance", f"expected a whole number of sectors 1…{table.size - 1} (got {value!r})")
    return value


def _dice(value: Any, table: ArenaTable) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > MAX_SCRIPTED:
        raise SetupError("setup.dice", f"expected a list of at most {MAX_SCRIPTED} d6 results")
    wrong = [(f"setup.dice[{index}]", f"expected a whole number 1…{table.dice_sides} (got {die!r})")
             for index, die in enumerate(value)
             if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= table.dice_sides]
    if wrong:
        raise SetupError.of(wrong)
    return tuple(value)


def _card(table: ArenaTable, card_at: str, aliases_at: str, entry: Mapping[str, Any]) -> tuple[tuple[str, ...], dict]:
    """One fighter's aliases and card, all their problems at once."""
    problems = SetupProblems()
    aliases = entry.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        problems.found.append((f"setup.{aliases_at}.aliases", "expected a list of names"))
    if entry.get("gender", "m") not in ("m", "f"):
        problems.found.append((f"setup.{card_at}.gender", f"expected \"f\" or \"m\" (got {entry['gender']!r})"))
    card = problems.attempt(fighter_card, TableCheck("setup"), entry, card_at, table.weapons, table.fighter)
    problems.done()
    return tuple(aliases), card


def start_state(table: ArenaTable, setup: Mapping[str, Any]) -> ArenaState:
    """The fight's start; every problem of the setup that can be told apart is named at once."""
    problems = SetupProblems()
    problems.attempt(reject_unknown_keys, setup, SETUP_KEYS, "setup")
    gap = problems.attempt(_gap, setup.get("distance", table.start_distance), table)
    dice = problems.attempt(_dice, setup.get("dice", []), table)
    entries = problems.attempt(_tables, setup) or []
    cards = [problems.attempt(_card, table, *entry) for entry in entries]
    places = problems.attempt(_positions, table, len(entries), gap or table.start_distance) if entries else None
    problems.done()
    fighters = tuple(
        Fighter(nick=entry["nick"], aliases=aliases, gender=entry.get("gender"),
                weapon=card["weapon"], left=card["left"] or "рука", helmet=card["helmet"],
                attack_dice=card["attack_dice"], defense_dice=card["defense_dice"], move_dice=card["move_dice"],
                attack_rating=card["attack_rating"], defense_rating=card["defense_rating"],
                speed_rating=card["speed_rating"], x=x, y=y, facing=facing)
        for (_, _, entry), (aliases, card), (x, y, facing) in zip(entries, cards, places))
    return ArenaState(table=table, fighters=fighters, dice=dice)
