"""The map a Bellum game is played on: provinces, regions and links, fixed for the whole game.

Built once from a loaded scenario (engines.bellum.scenario) and carried inside the game state,
so a game keeps its map even if the scenario file changes on disk while it runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from forumgm.engines.bellum.scenario import Province, Region

LAND, BLUE, PURPLE = "land", "blue", "purple"
TRIBE_LINKS = (LAND, BLUE)
STATE_LINKS = (LAND, BLUE, PURPLE)


def frozen(mapping: Mapping) -> Mapping:
    """A read-only view of a fresh dict: state fields are never changed in place."""
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class World:
    name: str
    year: int
    provinces: Mapping[str, Province]
    regions: Mapping[str, Region]
    links: Mapping[str, Mapping[str, str]]      # province -> neighbour -> land | blue | purple
    geography: str | None = None                # the real geography its map is drawn on

    def link(self, a: str, b: str) -> str | None:
        return self.links.get(a, {}).get(b)

    def neighbours(self, province: str, kinds: tuple[str, ...]) -> list[str]:
        return sorted(b for b, kind in self.links.get(province, {}).items() if kind in kinds)

    def region_of(self, province: str) -> str:
        return self.provinces[province].region

    def region_provinces(self, region: str) -> list[str]:
        return sorted(p.id for p in self.provinces.values() if p.region == region)

    def region_authority(self, region: str) -> int:
        return sum(self.provinces[p].authority for p in self.region_provinces(region))


def world_from_scenario(scenario: Any) -> World:
    links: dict[str, dict[str, str]] = {p: {} for p in scenario.provinces}
    for link in scenario.links:
        links[link.a][link.b] = link.kind
        links[link.b][link.a] = link.kind
    return World(
        name=str(scenario.name),
        year=int(scenario.year),
        provinces=frozen({p.id: Province(p.id, p.name, tuple(p.aliases), bool(p.civilized), p.region,
                                         int(p.authority), float(p.x), float(p.y))
                          for p in scenario.provinces.values()}),
        regions=frozen({r.id: Region(r.id, r.name, r.upkeep) for r in scenario.regions.values()}),
        links=frozen({p: frozen(n) for p, n in links.items()}),
        geography=scenario.geography,
    )


def dump_world(world: World) -> dict:
    return {
        "name": world.name, "year": world.year, "geography": world.geography,
        "provinces": [{"id": p.id, "name": p.name, "aliases": list(p.aliases), "civilized": p.civilized,
                       "region": p.region, "authority": p.authority, "x": p.x, "y": p.y}
                      for p in world.provinces.values()],
        "regions": [{"id": r.id, "name": r.name, "upkeep": r.upkeep} for r in world.regions.values()],
        "links": sorted([a, b, kind] for a, near in world.links.items() for b, kind in near.items() if a < b),
    }


def load_world(data: Mapping[str, Any]) -> World:
    links: dict[str, dict[str, str]] = {p["id"]: {} for p in data["provinces"]}
    for a, b, kind in data["links"]:
        links[a][b] = kind
        links[b][a] = kind
    return World(
        name=data["name"], year=data["year"],
        provinces=frozen({p["id"]: Province(p["id"], p["name"], tuple(p["aliases"]), p["civilized"], p["region"],
                                            p["authority"], p.get("x", 0.0), p.get("y", 0.0))
                          for p in data["provinces"]}),
        regions=frozen({r["id"]: Region(r["id"], r["name"], r["upkeep"]) for r in data["regions"]}),
        links=frozen({p: frozen(n) for p, n in links.items()}),
        geography=data.get("geography"),
    )
