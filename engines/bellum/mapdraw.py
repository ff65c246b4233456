"""The turn map: provinces in their owners' colours, links, and every faction's people drawn with
the rules' symbols, as PNG or SVG bytes.

On a scenario drawn on real geography (its `geography`: engines/bellum/geography.py) the
provinces are land areas, the sea is sea with the sea links curved over it, and rivers and
lakes are drawn; a scenario without one draws each province as the Voronoi cell of its point,
cut to a disc around it.

The position comes as plain mappings in the shapes of `forumgm simulate`'s output (`people`
province → faction → count, `owners` province → state, `subjugated` tribe → master, and
optionally `factions` id → {kind, ever_state, …} for factions born during the game), so the
same function draws the start of a scenario, a simulated turn or a stored game's turn.

Symbols (rules, «Карта»): a square for a civilized people (a state, or a tribe that ever was
one), a circle for a tribe, a ringed circle for a subjugated tribe (the ring in its master's
colour), a concave square for a tribe that subjugates another; the area grows with the count.
In the SVG every province cell, link and symbol is a group whose id says what it is
(`province:<id>`, `link:<kind>:<a>:<b>`, `stack:<province>:<faction>:<symbol>`) and names stay
`<text>`, so the picture can be searched and checked.

Rendering is pure: no clock (the SVG carries no date), no files, same bytes for the same input.
"""
from __future__ import annotations

import functools
import hashlib
import io
import math
from types import MappingProxyType
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import shapely
from PIL import Image
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.collections import LineCollection, PathCollection, PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.path import Path as MplPath
from shapely.geometry import MultiPoint, Point
from shapely.geometry.polygon import orient

from forumgm.engines.bellum.geography import Geography, project, province_areas
from forumgm.engines.bellum.labels import Box, Label, place_labels
from forumgm.engines.bellum.scenario import Scenario

FORMATS = ("png", "svg")
WIDTH_PX = 1200
DPI = 100
CELL_RADIUS = 3.2           # degrees of latitude: a cell ends here, leaving open sea between distant points
MARGIN = 1.5
LEGEND_COLUMNS = 5
LEGEND_ROW = 0.17           # inches a legend row takes
LEGEND_TOP = 2.0            # rows of room above and below the legend's entries, together
LEGEND_INDENT = 0.12        # where a column's symbols stand, in columns
LEGEND_SIZE = 6.5
PNG_COLOURS = 128
PNG_EDGE_COLOURS = 32       # at least this many of them for the edges of letters and shapes
PNG_EFFORT = 9              # zlib level: the coasts and rivers took the 370 map past 128 KB at 6

SQUARE, CIRCLE, RINGED, CONCAVE = "square", "circle", "ringed", "concave"
SYMBOL_NAMES = {
    SQUARE: "цивилизованный народ",
    CIRCLE: "племя",
    RINGED: "покорённое племя (обвод — хозяин)",
    CONCAVE: "племя-покоритель",
}
LINK_STYLES = {
    "land": {"color": "#8a8a8a", "linestyle": (0, (1, 2)), "linewidth": 0.6},
    "blue": {"color": "#1f6fd1", "linestyle": (0, (4, 2)), "linewidth": 1.1},
    "purple": {"color": "#9b30b0", "linestyle": (0, (4, 2)), "linewidth": 1.1},
}
LINK_NAMES = {"land": "сухопутная граница", "blue": "морской путь для всех",
              "purple": "морской путь для государств"}
BACKGROUND = "#f4f8fb"       # and the land under an owned province's colour
SEA = "#c4dbec"
COAST = "#7f9db5"
RIVER = "#4a86c5"
RIVER_WIDTHS = {1: 1.1, 2: 1.0, 3: 0.9, 4: 0.75, 5: 0.6, 6: 0.5}     # by Natural Earth's scale rank
RIVER_MARGIN = 0.2          # projected degrees: a river is drawn this far beyond the provinces
UNCLAIMED = "#e6e3da"        # land no province reaches
NAME_INK = "#1a1a1a"
EDGE = "#202020"
LEGEND_FILL, LEGEND_RING, TITLE_EDGE = "#bbbbbb", "#555555", "#888888"
UNOWNED_CIVILIZED = "#efe6cf"
UNOWNED_WILD = "#dfe8d2"
CELL_EDGE = "#ffffff"
OWNER_ALPHA = 0.42
FONT = "DejaVu Sans"        # shipped with matplotlib: the same letters on every machine
RC = {
    "svg.fonttype": "none", "svg.hashsalt": "forumgm-bellum", "font.family": FONT,
    # unhinted letters: as legible at these sizes, and their layout took a quarter of the PNG's time
    "text.hinting": "no_hinting",
}
NAME_SIZE = 6.0
COUNT_SIZE = 5.0


@dataclass(frozen=True)
class FactionLook:
    id: str
    name: str
    color: str
    symbol: str
    master: str | None = None        # a subjugated tribe's master


def start_position(scenario: Scenario) -> dict[str, dict]:
    """The scenario's start in the simulate shapes: people, owners, subjugated."""
    people: dict[str, dict[str, int]] = {}
    for stack in scenario.people:
        people.setdefault(stack.province, {})[stack.faction] = stack.count
    return {"people": people, "owners": dict(scenario.owners), "subjugated": dict(scenario.subjugated)}


def draw_map(scenario: Scenario, people: Mapping[str, Mapping[str, int]], owners: Mapping[str, str],
             subjugated: Mapping[str, str], fmt: str = "png", factions: Mapping[str, Mapping[str, Any]] | None = None,
             title: str | None = None, geography: Geography | None = None) -> bytes:
    """The map of one position as PNG or SVG bytes, WIDTH_PX wide, on `geography` when the
    scenario is drawn on one."""
    if fmt not in FORMATS:
        raise ValueError(f"map format must be one of {', '.join(FORMATS)} (got {fmt!r})")
    looks = faction_looks(scenario, people, subjugated, factions or {})
    with rc_context(RC):
        figure = map_figure(scenario, people, owners, looks, title, geography)
        if fmt == "png":
            return _png(figure, _flat_colours(looks, owners))
        buffer = io.BytesIO()
        figure.savefig(buffer, format=fmt, dpi=DPI, metadata={"Date": None}, facecolor=figure.get_facecolor())
    return buffer.getvalue()


def map_figure(scenario: Scenario, people: Mapping[str, Mapping[str, int]], owners: Mapping[str, str],
               looks: Mapping[str, FactionLook], title: str | None = None,
               geography: Geography | None = None) -> Figure:
    """The map as a matplotlib figure with an Agg canvas, for draw_map to render under RC."""
    present = [looks[fid] for fid in _present(people, looks)]
    legend_rows = math.ceil((len(present) + len(SYMBOL_NAMES) + len(LINK_NAMES)) / LEGEND_COLUMNS)
    x0, x1, y0, y1 = _extent(scenario)
    map_height_in = WIDTH_PX / DPI * (y1 - y0) / (x1 - x0)
    legend_height_in = (legend_rows + LEGEND_TOP) * LEGEND_ROW
    figure = Figure(figsize=(WIDTH_PX / DPI, map_height_in + legend_height_in), dpi=DPI)
    FigureCanvasAgg(figure)             # the names are placed by the sizes its renderer gives them
    total = map_height_in + legend_height_in
    axes = figure.add_axes((0, legend_height_in / total, 1, map_height_in / total))
    axes.set_xlim(x0, x1)
    axes.set_ylim(y0, y1)
    axes.set_axis_off()
    figure.patch.set_facecolor(BACKGROUND)
    layout = map_layout(scenario, geography)
    if geography is not None:
        _geography(axes, geography, layout)
    _areas(axes, scenario, layout, owners, looks)
    _links(axes, scenario, layout)
    stacks = _stacks(scenario, people, looks, layout)
    _names(axes, scenario, stacks, layout)
    _people(axes, stacks, looks)
    if title:
        axes.text(x0 + 0.5, y1 - 0.5, title, fontsize=11, fontweight="bold", va="top", ha="left",
                  gid="title", bbox={"facecolor": "white", "edgecolor": TITLE_EDGE, "alpha": 0.85})
    legend_axes = figure.add_axes((0, 0, 1, legend_height_in / total))
    legend_axes.set_axis_off()
    _legend(legend_axes, present, legend_rows)
    return figure


def _png(figure: Figure, exact: list[tuple[int, int, int]]) -> bytes:
    """The picture in PNG_COLOURS colours: the `exact` ones (every colour drawn flat: factions,
    owners' cells, inks) and the rest chosen from the picture (the edges of letters and shapes).
    Under a fifth of a true-colour PNG's size (within the 128 KB a stock SMF board takes as an
    attachment), and quicker to encode than matplotlib's own RGBA writer; no faction colour is
    merged into another."""
    canvas = figure.canvas
    canvas.draw()
    image = Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")
    exact = exact[:PNG_COLOURS - PNG_EDGE_COLOURS]
    chosen = image.quantize(PNG_COLOURS - len(exact), method=Image.Quantize.FASTOCTREE).getpalette()
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in exact for value in colour] + chosen[:3 * (PNG_COLOURS - len(exact))])
    buffer = io.BytesIO()
    image.quantize(palette=palette, dither=Image.Dither.NONE).save(buffer, "PNG", compress_level=PNG_EFFORT)
    return buffer.getvalue()


def _flat_colours(looks: Mapping[str, FactionLook], owners: Mapping[str, str]) -> list[tuple[int, int, int]]:
    """The colours the map draws flat, as 8-bit RGB: the factions', the owned cells' (the owner's
    colour at OWNER_ALPHA over the background), the unowned cells', the links' and the inks."""
    background = to_rgba(BACKGROUND)
    flat = {to_rgba(look.color) for look in looks.values()}
    flat |= {tuple(OWNER_ALPHA * c + (1 - OWNER_ALPHA) * b for c, b in zip(to_rgba(looks[owner].color), background))
             for owner in set(owners.values()) if owner in looks}
    flat |= {to_rgba(c) for c in (BACKGROUND, SEA, COAST, RIVER, UNCLAIMED, UNOWNED_CIVILIZED, UNOWNED_WILD, CELL_EDGE, NAME_INK, EDGE, LEGEND_FILL,
                                  LEGEND_RING, TITLE_EDGE, "#000000", *(style["color"] for style in LINK_STYLES.values()))}
    return sorted({tuple(round(255 * v) for v in colour[:3]) for colour in flat})


# ---------------------------------------------------------------- factions

def faction_looks(scenario: Scenario, people: Mapping[str, Mapping[str, int]], subjugated: Mapping[str, str],
                  factions: Mapping[str, Mapping[str, Any]]) -> dict[str, FactionLook]:
    """Name, colour and symbol of every faction of the scenario and of the position."""
    ids = set(scenario.factions) | set(factions) | {f for counts in people.values() for f in counts}
    masters = set(subjugated.values())
    looks = {}
    for fid in sorted(ids):
        known = scenario.factions.get(fid)
        extra = factions.get(fid, {})
        kind = extra.get("kind", known.kind if known else "tribe")
        ever_state = extra.get("ever_state", known.ever_state if known else False) or kind == "state"
        if ever_state:
            symbol = SQUARE
        elif fid in subjugated:
            symbol = RINGED
        elif fid in masters:
            symbol = CONCAVE
        else:
            symbol = CIRCLE
        name = extra.get("name") or (known.name if known else fid)
        color = extra.get("color") or (known.color if known else _derived_color(fid))
        looks[fid] = FactionLook(fid, name, color, symbol, subjugated.get(fid))
    return looks


def _derived_color(fid: str) -> str:
    """A stable colour for a faction born during the game (a seceded region, a split tribe)."""
    digest = hashlib.sha256(fid.encode("utf-8")).digest()
    hue, value = digest[0] / 255, 0.55 + digest[1] / 255 * 0.3
    sector, fraction = int(hue * 6) % 6, hue * 6 - int(hue * 6)
    low, falling, rising = value * 0.3, value * (1 - 0.7 * fraction), value * (0.3 + 0.7 * fraction)
    r, g, b = [(value, rising, low), (falling, value, low), (low, value, rising),
               (low, falling, value), (rising, low, value), (value, low, falling)][sector]
    return "#{:02x}{:02x}{:02x}".format(*(round(c * 255) for c in (r, g, b)))


def _present(people: Mapping[str, Mapping[str, int]], looks: Mapping[str, FactionLook]) -> list[str]:
    counts: dict[str, int] = {}
    for stacks in people.values():
        for fid, count in stacks.items():
            if count > 0:
                counts[fid] = counts.get(fid, 0) + count
    return sorted(counts, key=lambda fid: looks[fid].name)


# ---------------------------------------------------------------- geometry

@dataclass(frozen=True)
class Layout:
    """Where the map puts each province (projected plane): its area, the spot its people stand
    on, and each link's line (a sea link on real geography: a curve kept off the land)."""
    areas: Mapping[str, Any]                # shapely (Multi)Polygons
    anchors: Mapping[str, tuple[float, float]]
    links: Mapping[tuple[str, str], np.ndarray]
    unclaimed: Any = None                   # the land of no province (real geography only)
    rivers: tuple[tuple[int, np.ndarray], ...] = ()     # (scale rank, line) where provinces are


def map_layout(scenario: Scenario, geography: Geography | None = None) -> Layout:
    points = tuple(sorted((p.id, *project(p.x, p.y)) for p in scenario.provinces.values()))
    links = tuple(sorted((link.a, link.b, link.kind) for link in scenario.links))
    return _layout_of(points, links, geography)


@functools.lru_cache(maxsize=8)
def _layout_of(points: tuple[tuple[str, float, float], ...], links: tuple[tuple[str, str, str], ...],
               geography: Geography | None) -> Layout:
    """The layout of one map; a game draws the same map every turn, so it is kept."""
    if geography is None:
        areas = _cells(points)
        anchors = {pid: (x, y) for pid, x, y in points}
        lines = {(a, b): np.array([anchors[a], anchors[b]]) for a, b, _ in links}
        return Layout(MappingProxyType(areas), MappingProxyType(anchors), MappingProxyType(lines))
    found = province_areas(points, geography)
    anchors = {pid: found.anchors.get(pid, (x, y)) for pid, x, y in points}
    # a province too far out at sea for any land: an islet of its own
    areas = {pid: found.areas.get(pid) or Point(anchors[pid]).buffer(SEA_ISLET, 12) for pid, _, _ in points}
    land = shapely.union_all([geography.land, *areas.values()])
    shapely.prepare(land)
    lines = {}
    for a, b, kind in links:
        ends = np.array([anchors[a], anchors[b]])
        lines[a, b] = ends if kind == "land" else _sea_route(ends, land, areas[a].union(areas[b]))
    return Layout(MappingProxyType(areas), MappingProxyType(anchors), MappingProxyType(lines), found.unclaimed,
                  _rivers(geography, areas.values()))


def _rivers(geography: Geography, areas) -> tuple[tuple[int, np.ndarray], ...]:
    """The rivers through the provinces: the rest (the Niger, the Ob) is no one's, and each
    line drawn costs the PNG's bytes."""
    where = shapely.union_all(list(areas)).buffer(RIVER_MARGIN)
    shapely.prepare(where)
    kept = []
    for rank, line in geography.rivers:
        inside = line.intersection(where)
        kept += [(rank, np.asarray(part.coords)) for part in getattr(inside, "geoms", [inside])
                 if part.geom_type == "LineString" and part.length > RIVER_MARGIN]
    return tuple(kept)


SEA_ISLET = 0.35
BENDS = (0.0, 0.15, -0.15, 0.3, -0.3, 0.45, -0.45, 0.6, -0.6, 0.8, -0.8)     # a curve's bow, in lengths
CURVE_POINTS = 40


def _sea_route(ends: np.ndarray, land, own) -> np.ndarray:
    """A sea link's line: of the curves from one province's point to the other's, bowed ever
    more to either side, the least bowed of those crossing the least land other than the two
    provinces' own."""
    shapely.prepare(own)
    (x0, y0), (x1, y1) = ends
    normal = np.array([y0 - y1, x1 - x0])
    t = np.linspace(0.0, 1.0, CURVE_POINTS)[:, None]
    best, best_cost = None, None
    for bend in BENDS:
        control = (ends[0] + ends[1]) / 2 + bend * normal
        curve = (1 - t) ** 2 * ends[0] + 2 * (1 - t) * t * control + t ** 2 * ends[1]
        xs, ys = curve[:, 0], curve[:, 1]
        cost = int((shapely.contains_xy(land, xs, ys) & ~shapely.contains_xy(own, xs, ys)).sum())
        if best_cost is None or cost < best_cost:
            best, best_cost = curve, cost
        if cost == 0:
            break
    return best


def _extent(scenario: Scenario) -> tuple[float, float, float, float]:
    points = [project(p.x, p.y) for p in scenario.provinces.values()]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs) - MARGIN - 1, max(xs) + MARGIN + 1, min(ys) - MARGIN - 1, max(ys) + MARGIN + 1


def _cells(points: tuple[tuple[str, float, float], ...]) -> dict[str, Any]:
    """Each province's Voronoi cell (projected), cut to a disc around its point."""
    seeds = MultiPoint([(x, y) for _, x, y in points])
    cells = shapely.voronoi_polygons(seeds, extend_to=seeds.envelope.buffer(10 * CELL_RADIUS), ordered=True).geoms
    return {pid: cell.intersection(Point(x, y).buffer(CELL_RADIUS, 7)) for (pid, x, y), cell in zip(points, cells)}


def _path(shape) -> MplPath:
    """A (multi)polygon as one path, outlines counter-clockwise and holes clockwise (Agg fills by
    the winding number)."""
    vertices, codes = [], []
    for polygon in getattr(shape, "geoms", [shape]):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        polygon = orient(polygon, 1.0)
        for ring in (polygon.exterior, *polygon.interiors):
            coords = np.asarray(ring.coords)
            vertices.append(coords)
            codes += [MplPath.MOVETO] + [MplPath.LINETO] * (len(coords) - 2) + [MplPath.CLOSEPOLY]
    return MplPath(np.vstack(vertices) if vertices else np.zeros((0, 2)), codes or None)


# ---------------------------------------------------------------- drawing

def _geography(axes, geography: Geography, layout: Layout) -> None:
    """The sea, the land under the provinces (the unclaimed part in its own colour), lakes and rivers."""
    x0, x1 = axes.get_xlim()
    y0, y1 = axes.get_ylim()
    axes.add_collection(PolyCollection([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], facecolors=SEA, edgecolors="none",
                                       zorder=0.4, gid="sea"), autolim=False)
    land = PathCollection([_path(geography.land)], facecolors=BACKGROUND, edgecolors=COAST, linewidths=0.5, zorder=0.5)
    land.set_gid("land")
    axes.add_collection(land, autolim=False)
    if layout.unclaimed is not None and not layout.unclaimed.is_empty:
        axes.add_collection(PathCollection([_path(layout.unclaimed)], facecolors=UNCLAIMED, edgecolors="none",
                                           zorder=0.6), autolim=False)
    rivers = [line for _, line in layout.rivers]
    widths = [RIVER_WIDTHS.get(rank, 0.5) for rank, _ in layout.rivers]
    collection = LineCollection(rivers, colors=RIVER, linewidths=widths, zorder=1.5, capstyle="round")
    collection.set_gid("rivers")
    axes.add_collection(collection, autolim=False)
    lakes = PathCollection([_path(geography.lakes)], facecolors=SEA, edgecolors=COAST, linewidths=0.4, zorder=1.6)
    lakes.set_gid("lakes")
    axes.add_collection(lakes, autolim=False)


def _areas(axes, scenario: Scenario, layout: Layout, owners: Mapping[str, str], looks: Mapping[str, FactionLook]) -> None:
    faces = []
    for pid in layout.areas:
        owner = owners.get(pid)
        if owner in looks:
            faces.append(to_rgba(looks[owner].color, OWNER_ALPHA))
        else:
            faces.append(to_rgba(UNOWNED_CIVILIZED if scenario.provinces[pid].civilized else UNOWNED_WILD))
    collection = PathCollection([_path(area) for area in layout.areas.values()], facecolors=faces,
                                edgecolors=CELL_EDGE, linewidths=0.8, zorder=1)
    collection.set_gid("provinces")
    collection.set_urls([f"#province:{pid}:{owners.get(pid, '')}" for pid in layout.areas])
    axes.add_collection(collection, autolim=False)


def _links(axes, scenario: Scenario, layout: Layout) -> None:
    for kind, style in LINK_STYLES.items():
        links = [link for link in scenario.links if link.kind == kind]
        collection = LineCollection([layout.links[l.a, l.b] for l in links], colors=style["color"], linestyles=[style["linestyle"]],
                                    linewidths=style["linewidth"], zorder=2)
        collection.set_gid(f"links:{kind}")
        collection.set_urls([f"#link:{kind}:{l.a}:{l.b}" for l in links])
        axes.add_collection(collection, autolim=False)


def _names(axes, scenario: Scenario, stacks: list[Stack], layout: Layout) -> None:
    """Each province's name near its point, clear of the other names and, where it can be, of the
    people's symbols (engines/bellum/labels.py), measured as the renderer will draw them."""
    renderer = axes.figure.canvas.get_renderer()
    to_pixels = axes.transData
    texts, labels = {}, []
    for pid, province in scenario.provinces.items():
        x, y = to_pixels.transform(layout.anchors[pid])
        text = axes.text(0, 0, province.name.replace(" ", "\n"), fontsize=NAME_SIZE,
                         fontweight="bold" if province.civilized else "normal",
                         ha="center", va="center", zorder=5, linespacing=0.95, color=NAME_INK, gid=f"name:{pid}")
        extent = text.get_window_extent(renderer)
        texts[pid] = text
        labels.append(Label(pid, x, y, extent.width, extent.height))
    bounds = tuple(axes.bbox.extents)
    for pid, (x0, y0, x1, y1) in place_labels(labels, [_stack_box(stack, to_pixels) for stack in stacks],
                                             bounds).items():
        texts[pid].set_position(to_pixels.inverted().transform(((x0 + x1) / 2, (y0 + y1) / 2)))


@dataclass(frozen=True)
class Stack:
    """One faction's people in a province, where the map draws them (data coordinates)."""
    x: float
    y: float
    count: int
    province: str
    look: FactionLook

    @property
    def size(self) -> float:
        """The symbol's width in points: its area grows with the count."""
        return 6.0 + 2.2 * math.sqrt(self.count)


def _stacks(scenario: Scenario, people: Mapping[str, Mapping[str, int]],
            looks: Mapping[str, FactionLook], layout: Layout) -> list[Stack]:
    """Every faction's people under their province's point, the largest first, four a row."""
    placed = []
    for pid, stacks in people.items():
        if pid not in scenario.provinces:
            continue
        present = sorted(((fid, count) for fid, count in stacks.items() if count > 0), key=lambda s: (-s[1], s[0]))
        x, y = layout.anchors[pid]
        per_row = 4
        for index, (fid, count) in enumerate(present):
            row, column = divmod(index, per_row)
            in_row = min(per_row, len(present) - row * per_row)
            placed.append(Stack(x + (column - (in_row - 1) / 2) * 0.95, y - 0.25 - row * 0.9, count, pid, looks[fid]))
    return placed


def _stack_box(stack: Stack, to_pixels) -> Box:
    x, y = to_pixels.transform((stack.x, stack.y))
    half = stack.size * DPI / 72 / 2
    return x - half, y - half, x + half, y + half


def _people(axes, stacks: list[Stack], looks: Mapping[str, FactionLook]) -> None:
    """One collection per symbol kind (drawing hundreds of separate markers is slow); each
    marker carries a link `#stack:<province>:<faction>:<count>` that names it in the SVG."""
    for stack in stacks:
        axes.text(stack.x, stack.y, str(stack.count), fontsize=COUNT_SIZE, ha="center", va="center", zorder=7,
                  color=_ink(stack.look.color), gid=f"count:{stack.province}:{stack.look.id}")
    for kind in SYMBOL_NAMES:
        marks = [stack for stack in stacks if stack.look.symbol == kind]
        if not marks:
            continue
        edges = [(looks[m.look.master].color if m.look.master in looks else EDGE) if kind == RINGED else EDGE
                 for m in marks]
        collection = axes.scatter([m.x for m in marks], [m.y for m in marks], s=[m.size ** 2 for m in marks],
                                  marker=MARKERS[kind], c=[m.look.color for m in marks], edgecolors=edges,
                                  linewidths=2.2 if kind == RINGED else 0.5, zorder=6)
        collection.set_gid(f"stacks:{kind}")
        collection.set_urls([f"#stack:{m.province}:{m.look.id}:{m.count}" for m in marks])


def _concave_square() -> MplPath:
    """A square whose four sides bow inwards (the rules' «вогнутый квадрат»)."""
    corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    vertices, codes = [corners[0]], [MplPath.MOVETO]
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1]):
        mx, my = (ax + bx) / 2 * 0.45, (ay + by) / 2 * 0.45      # the control point pulled to the centre
        vertices += [(mx, my), (bx, by)]
        codes += [MplPath.CURVE3, MplPath.CURVE3]
    vertices.append(corners[0])
    codes.append(MplPath.CLOSEPOLY)
    return MplPath(vertices, codes)


_CONCAVE = _concave_square()
MARKERS = {SQUARE: "s", CIRCLE: "o", RINGED: "o", CONCAVE: _CONCAVE}


def _ink(color: str) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _legend(axes, present: list[FactionLook], rows: int) -> None:
    """The symbols, the links and every faction on the map, in LEGEND_COLUMNS columns read
    downwards. Laid out by hand: matplotlib's own legend measured every entry several times and
    took half the drawing."""
    axes.set_xlim(0, LEGEND_COLUMNS)
    axes.set_ylim(rows + LEGEND_TOP, 0)                   # a row a unit, from the top
    entries = [(kind, label) for kind, label in SYMBOL_NAMES.items()]
    entries += [(f"link:{kind}", label) for kind, label in LINK_NAMES.items()]
    entries += [(look, look.name) for look in present]
    marks: dict[str, list] = {}
    segments, styles = [], []
    for index, (what, label) in enumerate(entries):
        column, row = divmod(index, rows)
        x, y = column + LEGEND_INDENT, LEGEND_TOP / 2 + row + 0.5
        if isinstance(what, FactionLook):
            marks.setdefault(what.symbol, []).append((x, y, what.color, EDGE, 0.5, 7))
        elif what.startswith("link:"):
            segments.append([(x - 0.04, y), (x + 0.04, y)])
            styles.append(LINK_STYLES[what[5:]])
        else:
            marks.setdefault(what, []).append((x, y, LEGEND_FILL, EDGE if what != RINGED else LEGEND_RING,
                                               0.5 if what != RINGED else 2.0, 8))
        axes.text(x + 0.07, y, label, fontsize=LEGEND_SIZE, va="center", ha="left", gid="legend")
    for kind, placed in marks.items():
        axes.scatter([m[0] for m in placed], [m[1] for m in placed], s=[m[5] ** 2 for m in placed],
                     marker=MARKERS[kind], c=[m[2] for m in placed], edgecolors=[m[3] for m in placed],
                     linewidths=[m[4] for m in placed], gid="legend")
    axes.add_collection(LineCollection(segments, colors=[style["color"] for style in styles],
                                       linestyles=[style["linestyle"] for style in styles],
                                       linewidths=[style["linewidth"] for style in styles]), autolim=False)
