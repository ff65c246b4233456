"""Bellum's maps (`BellumRules.maps`, the engines.base `Maps`): the position of a game's state,
the start of a game's [setup] or of a scenario file, drawn for the turn report, the host's page
and `forumgm map`, on the real geography the scenario names (one of the shipped ones, handed
over parsed) or, without one, as cells around the provinces' points."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from forumgm.engines.base import Picture
from forumgm.engines.bellum import summary, unknown_geography
from forumgm.engines.bellum.canvas import Fonts
from forumgm.engines.bellum.geography import Geography, parse_geography
from forumgm.engines.bellum.mapdraw import FORMATS, draw_map, start_position
from forumgm.engines.bellum.scenario import Link, Province, Scenario, parse_scenario
from forumgm.engines.bellum.setup import game_scenario
from forumgm.engines.bellum.state import BellumState


REGULAR, BOLD = "DejaVuSans", "DejaVuSans-Bold"     # config/bellum/fonts/<name>.ttf


@dataclass(frozen=True)
class BellumMaps:
    geographies: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))   # parsed JSON by name
    fonts: Mapping[str, bytes] = field(default_factory=lambda: MappingProxyType({}))       # TrueType bytes by name
    formats: tuple[str, ...] = FORMATS
    _parsed: dict[str, Geography] = field(default_factory=dict, compare=False, repr=False)

    def draw(self, state: BellumState, fmt: str) -> Picture:
        position = summary(state)
        title = map_title(state.world.year, state.rules.years_per_turn, state.turn)
        return Picture(title, draw_map(map_scenario(state), position["people"], position["owners"],
                                       position["subjugated"], self.letters(), fmt=fmt, factions=position["factions"],
                                       title=title, geography=self.geography(state.world.geography)))

    def start(self, setup: Mapping[str, Any], fmt: str) -> Picture:
        """The start of the scenario the setup names, before the setup's own overrides and players."""
        return self._start(game_scenario(setup.get("scenario")), fmt)

    def of_file(self, table: Mapping[str, Any], source: str, fmt: str) -> Picture | None:
        return self._start(parse_scenario(table, source), fmt) if "provinces" in table else None

    def geography(self, name: str | None) -> Geography | None:
        """The shipped geography of that name, parsed once; None (the map drawn as cells) for a
        scenario without one; ValueError for one this forumgm does not ship."""
        if name is None:
            return None
        if name not in self.geographies:
            raise ValueError(unknown_geography(name, self.geographies))
        if name not in self._parsed:
            self._parsed[name] = parse_geography(name, self.geographies[name])
        return self._parsed[name]

    def letters(self) -> Fonts:
        """The shipped fonts the map is written in; ValueError when they were not handed over."""
        if REGULAR not in self.fonts or BOLD not in self.fonts:
            raise ValueError(f"the map's fonts ({REGULAR}.ttf and {BOLD}.ttf of config/bellum/fonts) were not "
                             f"handed over: draw with the rules make_rules makes of the shipped rule table")
        return Fonts(self.fonts[REGULAR], self.fonts[BOLD])

    def _start(self, scenario: Scenario, fmt: str) -> Picture:
        title = map_title(scenario.year, 0, 0)
        return Picture(title, draw_map(scenario, fonts=self.letters(), fmt=fmt, title=title,
                                       geography=self.geography(scenario.geography), **start_position(scenario)))


def map_scenario(state: BellumState) -> Scenario:
    """The drawing's view of the game's map; factions come from the position itself."""
    world = state.world
    provinces = {p.id: Province(p.id, p.name, p.aliases, p.civilized, p.region, p.authority, p.x, p.y)
                 for p in world.provinces.values()}
    links = tuple(Link(a, b, kind) for a, near in sorted(world.links.items()) for b, kind in sorted(near.items())
                  if a < b)
    empty = MappingProxyType({})
    return Scenario(world.name, world.year, empty, MappingProxyType(provinces), links, empty, (), empty, empty,
                    world.geography)


def map_title(first_year: int, years_per_turn: int, turn: int) -> str:
    """The title of the map after `turn` (0: the start), naming the year the turn's reports and
    PMs name (BellumState.year): turn N is played in first_year + (N - 1) × years_per_turn."""
    if turn == 0:
        return f"{first_year} г. — начало"
    return f"После хода {turn} ({first_year + (turn - 1) * years_per_turn} г.)"
