"""The real geography a scenario's map is drawn on: land, lakes and rivers (a shipped
config/bellum/geography/<name>.json, read at the edge and handed over parsed), the map's
projection, and the provinces as land areas.

A province's area is the part of its landmass nearer to its point than to any other province's
point on that landmass (a Voronoi cell cut by the coast), at most AREA_RADIUS from the point: an
island with one province is that province, and the sea stays sea. A small island without a
province of its own joins the nearest province within ISLAND_REACH; the rest of the land
belongs to nobody (drawn as land, unowned).

All geometry is in the projected plane (`project`), with shapely. Pure and deterministic.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import shapely
import shapely.ops
from shapely.geometry import LineString, MultiPolygon, Point, Polygon

# An equirectangular projection whose sparse edges are squeezed: east of EAST_FROM and south of
# SOUTH_FROM (steppe, Persia, Arabia, the Sahara) one degree takes less room, so crowded Europe
# gets more of the picture's width.
X_SCALE = 0.85
EAST_FROM, EAST_SCALE = 38.0, 0.55
SOUTH_FROM, SOUTH_SCALE = 30.0, 0.6

AREA_RADIUS = 3.6           # projected degrees: a province reaches no farther from its point
SNAP = 2.0                  # a point this near a coast (but at sea) belongs to that landmass
ISLAND_REACH = 1.2          # a provinceless island this near a province joins it
ISLAND_MAX = 1.5            # … when it is at most this large (square projected degrees)


def project(x: float, y: float) -> tuple[float, float]:
    """Longitude, latitude → the map's plane."""
    if x > EAST_FROM:
        x = EAST_FROM + (x - EAST_FROM) * EAST_SCALE
    if y < SOUTH_FROM:
        y = SOUTH_FROM + (y - SOUTH_FROM) * SOUTH_SCALE
    return x * X_SCALE, y


def _project_array(coords: np.ndarray) -> np.ndarray:
    x, y = coords[:, 0].copy(), coords[:, 1].copy()
    x = np.where(x > EAST_FROM, EAST_FROM + (x - EAST_FROM) * EAST_SCALE, x)
    y = np.where(y < SOUTH_FROM, SOUTH_FROM + (y - SOUTH_FROM) * SOUTH_SCALE, y)
    return np.column_stack([x * X_SCALE, y])


@dataclass(frozen=True, eq=False)       # compared and hashed by identity: one per shipped file
class Geography:
    name: str
    source: str                         # where the data come from and under which terms
    land: MultiPolygon                  # projected
    lakes: MultiPolygon
    rivers: tuple[tuple[int, LineString], ...]      # (Natural Earth's scale rank: 1 the largest, line)


class GeographyError(ValueError):
    pass


def parse_geography(name: str, table: Mapping[str, Any]) -> Geography:
    """A geography file's parsed JSON: `source` (a text), `land` and `lakes` (polygons, each a
    list of rings of [longitude, latitude]; the first ring the outline, the rest holes) and
    `rivers` (each {"rank": n, "line": [[lon, lat], …]})."""
    def fail(key: str, expected: str) -> GeographyError:
        return GeographyError(f"geography {name!r}: {key}: expected {expected}")

    if not isinstance(table, Mapping) or not isinstance(table.get("source"), str):
        raise fail("source", "a text naming where the data come from")
    try:
        land = _polygons(table.get("land"))
        lakes = _polygons(table.get("lakes", []))
    except (TypeError, ValueError, IndexError):
        raise fail("land/lakes", "lists of polygons, each a list of rings of [longitude, latitude]") from None
    try:
        rivers = tuple((int(river["rank"]), shapely.transform(LineString(river["line"]), _project_array))
                       for river in table.get("rivers", []))
    except (TypeError, ValueError, KeyError, IndexError):
        raise fail("rivers", 'a list of {"rank": n, "line": [[longitude, latitude], …]}') from None
    return Geography(name, table["source"], land, lakes, rivers)


def _polygons(entries: Any) -> MultiPolygon:
    polygons = [Polygon(rings[0], rings[1:]) for rings in entries]
    return shapely.transform(MultiPolygon(polygons), _project_array)


@dataclass(frozen=True)
class Areas:
    """The provinces' areas on a geography, and where each province's people stand."""
    areas: Mapping[str, Polygon | MultiPolygon]
    anchors: Mapping[str, tuple[float, float]]      # the point itself, or the nearest inland spot
    unclaimed: MultiPolygon | Polygon               # land no province reaches


def province_areas(points: tuple[tuple[str, float, float], ...], geography: Geography) -> Areas:
    """The areas of the provinces at `points` ((id, projected x, y), sorted by id)."""
    return _areas(points, geography)


@functools.lru_cache(maxsize=8)
def _areas(points: tuple[tuple[str, float, float], ...], geography: Geography) -> Areas:
    masses = list(geography.land.geoms)
    tree = shapely.STRtree(masses)
    on_mass: dict[int, list[tuple[str, Point]]] = {}
    anchors: dict[str, tuple[float, float]] = {}
    for pid, x, y in points:
        point = Point(x, y)
        nearest = tree.query_nearest(point, max_distance=SNAP, all_matches=False)
        if not len(nearest):
            continue                    # far out at sea: the province has no area, its people stand at sea
        index = int(nearest[0])
        mass = masses[index]
        if not mass.contains(point):
            # inland a little, so that its symbols stand on its own shore
            near = shapely.ops.nearest_points(mass, point)[0]
            inward = mass.buffer(-0.25)
            point = shapely.ops.nearest_points(inward, near)[0] if not inward.is_empty else near
        anchors[pid] = (point.x, point.y)
        on_mass.setdefault(index, []).append((pid, point))
    areas: dict[str, Any] = {}
    for index, seeds in on_mass.items():
        mass = masses[index]
        if len(seeds) == 1:
            cells = [mass]
        else:
            cells = _voronoi([point for _, point in seeds], mass)
        for (pid, point), cell in zip(seeds, cells):
            area = cell.intersection(mass).intersection(point.buffer(AREA_RADIUS, 24))
            areas[pid] = area
    unclaimed = []
    for index, mass in enumerate(masses):
        if index in on_mass:
            continue
        owner = _nearest_area(mass, areas) if mass.area <= ISLAND_MAX else None
        if owner is None:
            unclaimed.append(mass)
        else:
            areas[owner] = areas[owner].union(mass)
    claimed = shapely.union_all(list(areas.values()))
    rest = shapely.union_all(unclaimed + [geography.land.difference(claimed)])
    return Areas(areas, anchors, rest)


def _voronoi(points: list[Point], mass) -> list[Polygon]:
    """Each point's Voronoi cell among `points`, in their order."""
    cells = list(shapely.voronoi_polygons(shapely.MultiPoint(points), extend_to=mass.envelope.buffer(10)).geoms)
    by_point = []
    for point in points:
        by_point.append(next(cell for cell in cells if cell.intersects(point)))
    return by_point


def _nearest_area(mass, areas: Mapping[str, Any]) -> str | None:
    best, distance = None, ISLAND_REACH
    for pid in sorted(areas):
        d = areas[pid].distance(mass)
        if d < distance:
            best, distance = pid, d
    return best
