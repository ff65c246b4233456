"""The map of a Bellum game's position, from the state (its map carries the scenario's
coordinates), for the daemon to show on the host's page and post with the turn report."""
from __future__ import annotations

from types import MappingProxyType

from forumgm.engines.bellum.mapdraw import draw_map
from forumgm.engines.bellum.scenario import Link, Province, Scenario
from forumgm.engines.bellum.state import BellumState

def map_scenario(state: BellumState) -> Scenario:
    """The drawing's view of the game's map; factions come from the position itself."""
    world = state.world
    provinces = {p.id: Province(p.id, p.name, p.aliases, p.civilized, p.region, p.authority, p.x, p.y)
                 for p in world.provinces.values()}
    links = tuple(Link(a, b, kind) for a, near in sorted(world.links.items()) for b, kind in sorted(near.items())
                  if a < b)
    empty = MappingProxyType({})
    return Scenario(world.name, world.year, empty, MappingProxyType(provinces), links, empty, (), empty, empty)


def map_title(first_year: int, years_per_turn: int, turn: int) -> str:
    """The title of the map after `turn` (0: the start); turn N is played in the year
    first_year + (N - 1) × years_per_turn and ends when the next begins."""
    if turn == 0:
        return f"{first_year} г. — начало"
    return f"После хода {turn} ({first_year + turn * years_per_turn} г.)"


def turn_images(state: BellumState, position: dict) -> dict[str, bytes]:
    """`map.png` and `map.svg` of the position after the state's last turn."""
    title = map_title(state.world.year, state.rules.years_per_turn, state.turn)
    scenario = map_scenario(state)
    return {f"map.{fmt}": draw_map(scenario, position["people"], position["owners"], position["subjugated"],
                                   fmt=fmt, factions=position["factions"], title=title)
            for fmt in ("png", "svg")}
