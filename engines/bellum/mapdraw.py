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
In the SVG every province, link and symbol is a shape linked to a name that says what it is
(`#province:<id>:<owner>`, `#link:<kind>:<a>:<b>`, `#stack:<province>:<faction>:<count>`) inside a
group named by its kind, and names stay `<text>`, so the picture can be searched and checked.

Drawn with Pillow (engines/bellum/canvas.py) in the letters handed over (`Fonts`). Rendering is
pure: no clock, no files, same bytes for the same input.
"""
from __future__ import annotations

import functools
import hashlib
import io
import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np
import shapely
from PIL import Image
from shapely.geometry import MultiPoint, Point
from shapely.geometry.polygon import orient

from forumgm.engines.bellum.canvas import Fonts, Letters, Raster, Svg, blend, rgb
from forumgm.engines.bellum.geography import Geography, project, province_areas
from forumgm.engines.bellum.labels import Box, Label, place_labels
from forumgm.engines.bellum.scenario import Scenario

FORMATS = ("png", "svg")
WIDTH_PX = 1200
CELL_RADIUS = 3.2           # degrees of latitude: a cell ends here, leaving open sea between distant points
MARGIN = 1.5
LEGEND_COLUMNS = 5
LEGEND_ROW = 17             # pixels a legend row takes
LEGEND_TOP = 2.0            # rows of room above and below the legend's entries, together
LEGEND_INDENT = 0.12        # where a column's symbols stand, in columns
LEGEND_SIZE = 9.5           # letters' sizes, in pixels
NAME_SIZE = 9.0
COUNT_SIZE = 8.0
TITLE_SIZE = 15.0
NAME_SPACING = -1.0         # pixels between a name's lines
PNG_COLOURS = 128
PNG_EDGE_COLOURS = 32       # at least this many of them for the edges of letters and shapes
PNG_EFFORTS = (6, 9)        # zlib levels: the quick one (20 ms), the thorough one (0.15 s) for a picture
PNG_ENOUGH = 120 * 1024     # … larger than this, to stay within the 128 KB of a stock SMF board


SQUARE, CIRCLE, RINGED, CONCAVE = "square", "circle", "ringed", "concave"
SYMBOL_NAMES = {
    SQUARE: "цивилизованный народ",
    CIRCLE: "племя",
    RINGED: "покорённое племя (обвод — хозяин)",
    CONCAVE: "племя-покоритель",
}
LINK_STYLES = {             # colour, width and dash pattern (drawn, left out), in pixels
    "land": {"color": "#8a8a8a", "width": 0.8, "dash": (1.2, 2.4)},
    "blue": {"color": "#1f6fd1", "width": 1.5, "dash": (6.0, 3.0)},
    "purple": {"color": "#9b30b0", "width": 1.5, "dash": (6.0, 3.0)},
}
LINK_NAMES = {"land": "сухопутная граница", "blue": "морской путь для всех",
              "purple": "морской путь для государств"}
BACKGROUND = "#f4f8fb"       # and the land under an owned province's colour
SEA = "#c4dbec"
COAST = "#7f9db5"
RIVER = "#4a86c5"
RIVER_WIDTHS = {1: 1.4, 2: 1.3, 3: 1.2, 4: 1.0, 5: 0.8, 6: 0.7}     # pixels, by Natural Earth's scale rank
RIVER_MARGIN = 0.2          # projected degrees: a river is drawn this far beyond the provinces
UNCLAIMED = "#e6e3da"        # land no province reaches
NAME_INK = "#1a1a1a"
EDGE = "#202020"
LEGEND_FILL, LEGEND_RING, TITLE_EDGE, TITLE_FILL = "#bbbbbb", "#555555", "#888888", "#ffffff"
UNOWNED_CIVILIZED = "#efe6cf"
UNOWNED_WILD = "#dfe8d2"
CELL_EDGE = "#ffffff"
OWNER_ALPHA = 0.42


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
             subjugated: Mapping[str, str], fonts: Fonts, fmt: str = "png",
             factions: Mapping[str, Mapping[str, Any]] | None = None, title: str | None = None,
             geography: Geography | None = None) -> bytes:
    """The map of one position as PNG or SVG bytes, WIDTH_PX wide, on `geography` when the
    scenario is drawn on one."""
    if fmt not in FORMATS:
        raise ValueError(f"map format must be one of {', '.join(FORMATS)} (got {fmt!r})")
    looks = faction_looks(scenario, people, subjugated, factions or {})
    plan = map_plan(scenario, people, owners, looks, _letters(fonts), title, geography)
    if fmt == "svg":
        canvas = Svg(WIDTH_PX, plan.height, BACKGROUND, plan.letters)
        _draw(canvas, plan)
        return canvas.data()
    canvas = Raster(WIDTH_PX, plan.height, BACKGROUND, plan.letters, through=SEA if geography else None)
    _draw(canvas, plan)
    return _png(canvas.picture(), _flat_colours(looks, owners))


@functools.lru_cache(maxsize=4)
def _letters(fonts: Fonts) -> Letters:
    """The fonts opened once (a daemon draws with the same fonts every turn)."""
    return Letters(fonts)


def _png(image: Image.Image, exact: list[tuple[int, int, int]]) -> bytes:
    """The picture in PNG_COLOURS colours: the `exact` ones (every colour drawn flat: factions,
    owners' cells, inks) and the rest chosen from the picture (the edges of letters and shapes).
    Within the 128 KB a stock SMF board takes as an attachment; no faction colour is merged
    into another."""
    exact = exact[:PNG_COLOURS - PNG_EDGE_COLOURS]
    chosen = image.quantize(PNG_COLOURS - len(exact), method=Image.Quantize.FASTOCTREE).getpalette()
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in exact for value in colour] + chosen[:3 * (PNG_COLOURS - len(exact))])
    flat = image.quantize(palette=palette, dither=Image.Dither.NONE)
    for effort in PNG_EFFORTS:
        buffer = io.BytesIO()
        flat.save(buffer, "PNG", compress_level=effort)
        if len(buffer.getvalue()) <= PNG_ENOUGH:
            break
    return buffer.getvalue()


def _flat_colours(looks: Mapping[str, FactionLook], owners: Mapping[str, str]) -> list[tuple[int, int, int]]:
    """The colours the map draws flat, as 8-bit RGB: the factions', the owned provinces' (the
    owner's colour at OWNER_ALPHA over the land), the unowned ones', the links' and the inks."""
    flat = {rgb(look.color) for look in looks.values()}
    flat |= {blend(looks[owner].color, OWNER_ALPHA, BACKGROUND) for owner in set(owners.values()) if owner in looks}
    flat |= {rgb(c) for c in (BACKGROUND, SEA, COAST, RIVER, UNCLAIMED, UNOWNED_CIVILIZED, UNOWNED_WILD, CELL_EDGE,
                              NAME_INK, EDGE, LEGEND_FILL, LEGEND_RING, TITLE_EDGE, TITLE_FILL, "#000000",
                              *(style["color"] for style in LINK_STYLES.values()))}
    return sorted(flat)


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


# ---------------------------------------------------------------- the plan: everything placed, in pixels

@dataclass(frozen=True)
class Stack:
    """One faction's people in a province, where the map draws them (pixels, y downwards)."""
    x: float
    y: float
    count: int
    province: str
    look: FactionLook

    @property
    def size(self) -> float:
        """The symbol's width in pixels: its area grows with the count."""
        return 8.3 + 3.05 * math.sqrt(self.count)

    @property
    def box(self) -> Box:
        half = self.size / 2
        return self.x - half, self.y - half, self.x + half, self.y + half


@dataclass(frozen=True)
class Name:
    province: str
    text: str                   # its lines joined by "\n"
    bold: bool
    box: Box                    # where it stands (pixels, y downwards)


@dataclass(frozen=True)
class Plan:
    """The whole picture placed: what `_draw` draws on either surface."""
    scenario: Scenario
    layout: Layout
    geography: Geography | None
    owners: Mapping[str, str]
    looks: Mapping[str, FactionLook]
    to_pixels: Any              # projected (x, y) arrays → pixels
    map_height: int
    height: int
    stacks: tuple[Stack, ...]
    names: tuple[Name, ...]
    title: str | None
    title_box: Box | None
    legend: tuple[tuple[Any, str], ...]
    legend_rows: int
    letters: Letters


def map_plan(scenario: Scenario, people: Mapping[str, Mapping[str, int]], owners: Mapping[str, str],
             looks: Mapping[str, FactionLook], letters: Letters, title: str | None = None,
             geography: Geography | None = None) -> Plan:
    """Where everything of the picture goes: the map's scale, the symbols, the names placed clear
    of each other, of the symbols and of the title, the legend's entries."""
    present = [looks[fid] for fid in _present(people, looks)]
    legend = tuple([(kind, label) for kind, label in SYMBOL_NAMES.items()]
                   + [(f"link:{kind}", label) for kind, label in LINK_NAMES.items()]
                   + [(look, look.name) for look in present])
    legend_rows = math.ceil(len(legend) / LEGEND_COLUMNS)
    x0, x1, y0, y1 = _extent(scenario)
    scale = WIDTH_PX / (x1 - x0)
    map_height = round((y1 - y0) * scale)
    height = map_height + round((legend_rows + LEGEND_TOP) * LEGEND_ROW)

    def to_pixels(points) -> np.ndarray:
        points = np.asarray(points, dtype=float).reshape(-1, 2)
        return np.column_stack([(points[:, 0] - x0) * scale, (y1 - points[:, 1]) * scale])

    layout = map_layout(scenario, geography)
    stacks = tuple(_stacks(scenario, people, looks, layout, to_pixels))
    title_box = None
    if title:
        width, text_height = letters.size(title, TITLE_SIZE, bold=True)
        title_box = (6.0, 6.0, 6.0 + width + 12, 6.0 + text_height + 12)
    names = _names(scenario, stacks, layout, to_pixels, letters, map_height, title_box)
    return Plan(scenario, layout, geography, owners, looks, to_pixels, map_height, height, stacks, names, title,
                title_box, legend, legend_rows, letters)


def _stacks(scenario: Scenario, people: Mapping[str, Mapping[str, int]], looks: Mapping[str, FactionLook],
            layout: Layout, to_pixels) -> list[Stack]:
    """Every faction's people under their province's point, the largest first, four a row."""
    placed = []
    step = STACK_STEP
    for pid, stacks in people.items():
        if pid not in scenario.provinces:
            continue
        present = sorted(((fid, count) for fid, count in stacks.items() if count > 0), key=lambda s: (-s[1], s[0]))
        (x, y), = to_pixels([layout.anchors[pid]])
        for index, (fid, count) in enumerate(present):
            row, column = divmod(index, STACKS_A_ROW)
            in_row = min(STACKS_A_ROW, len(present) - row * STACKS_A_ROW)
            placed.append(Stack(x + (column - (in_row - 1) / 2) * step, y + 5 + row * step, count, pid, looks[fid]))
    return placed


STACK_STEP = 19.5           # pixels between two symbols of a province
STACKS_A_ROW = 4


def _names(scenario: Scenario, stacks: tuple[Stack, ...], layout: Layout, to_pixels, letters: Letters,
           map_height: int, title_box: Box | None) -> tuple[Name, ...]:
    """Each province's name near its point, clear of the other names, of the people's symbols
    and of the title (engines/bellum/labels.py, in pixels with y upwards), measured in the
    letters that draw it."""
    labels, texts = [], {}
    anchors = to_pixels([layout.anchors[pid] for pid in scenario.provinces])
    for (pid, province), (x, y) in zip(scenario.provinces.items(), anchors):
        text = province.name.replace(" ", "\n")
        width, height = letters.size(text, NAME_SIZE, province.civilized, NAME_SPACING)
        texts[pid] = (text, province.civilized)
        labels.append(Label(pid, x, map_height - y, width + 1, height + 1))
    flip = lambda box: (box[0], map_height - box[3], box[2], map_height - box[1])  # noqa: E731
    obstacles = [flip(stack.box) for stack in stacks] + ([flip(title_box)] if title_box else [])
    placed = place_labels(labels, obstacles, (0.0, 0.0, float(WIDTH_PX), float(map_height)))
    return tuple(Name(pid, *texts[pid], flip(placed[pid])) for pid in scenario.provinces)


# ---------------------------------------------------------------- drawing

def _rings(shape, to_pixels) -> list[list[np.ndarray]]:
    """A (multi)polygon's polygons, each as its rings in pixels (outline first, then holes)."""
    out = []
    for polygon in getattr(shape, "geoms", [shape]):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        polygon = orient(polygon, 1.0)
        out.append([to_pixels(ring.coords) for ring in (polygon.exterior, *polygon.interiors)])
    return out


def _draw(canvas, plan: Plan) -> None:
    to_pixels, layout = plan.to_pixels, plan.layout
    if plan.geography is not None:
        _geography(canvas, plan)
    canvas.group("provinces")
    for pid, area in layout.areas.items():
        owner = plan.owners.get(pid)
        if owner in plan.looks:
            fill, opacity = plan.looks[owner].color, OWNER_ALPHA
        else:
            fill, opacity = (UNOWNED_CIVILIZED if plan.scenario.provinces[pid].civilized else UNOWNED_WILD), 1.0
        for rings in _rings(area, to_pixels):
            canvas.polygon(rings, fill, CELL_EDGE, 1.1, link=f"province:{pid}:{owner or ''}", opacity=opacity)
    if plan.geography is not None:
        _waters(canvas, plan)
    for kind, style in LINK_STYLES.items():
        canvas.group(f"links:{kind}")
        for link in plan.scenario.links:
            if link.kind == kind:
                canvas.line(to_pixels(layout.links[link.a, link.b]), style["color"], style["width"], style["dash"],
                            link=f"link:{kind}:{link.a}:{link.b}")
    for kind in SYMBOL_NAMES:
        canvas.group(f"stacks:{kind}")
        for stack in plan.stacks:
            if stack.look.symbol == kind:
                _symbol(canvas, stack.look, stack.x, stack.y, stack.size, plan.looks,
                        link=f"stack:{stack.province}:{stack.look.id}:{stack.count}")
    canvas.group("counts")
    for stack in plan.stacks:
        canvas.text(stack.x, stack.y, str(stack.count), COUNT_SIZE, _ink(stack.look.color), bold=True)
    canvas.group("names")
    for name in plan.names:
        x0, y0, x1, y1 = name.box
        canvas.text((x0 + x1) / 2, (y0 + y1) / 2, name.text, NAME_SIZE, NAME_INK, bold=name.bold,
                    gid=f"name:{name.province}", spacing=NAME_SPACING)
    if plan.title:
        canvas.group("title")
        x0, y0, x1, y1 = plan.title_box
        canvas.box(x0, y0, x1, y1, TITLE_FILL, TITLE_EDGE)
        canvas.text((x0 + x1) / 2, (y0 + y1) / 2, plan.title, TITLE_SIZE, NAME_INK, bold=True)
    _legend(canvas, plan)


def _geography(canvas, plan: Plan) -> None:
    """The sea and the land under the provinces (the unclaimed part in its own colour)."""
    to_pixels, layout = plan.to_pixels, plan.layout
    canvas.group("sea")
    canvas.polygon([np.array([(0, 0), (WIDTH_PX, 0), (WIDTH_PX, plan.map_height), (0, plan.map_height)])], SEA)
    canvas.group("land")
    for rings in _rings(plan.geography.land, to_pixels):
        canvas.polygon(rings, BACKGROUND)
    if layout.unclaimed is not None:
        for rings in _rings(layout.unclaimed, to_pixels):
            canvas.polygon(rings, UNCLAIMED)


def _waters(canvas, plan: Plan) -> None:
    """The coasts, rivers and lakes, over the provinces."""
    canvas.group("coast")
    for rings in _rings(plan.geography.land, plan.to_pixels):
        canvas.polygon(rings, None, COAST, 0.7)
    canvas.group("rivers")
    for rank, line in plan.layout.rivers:
        canvas.line(plan.to_pixels(line), RIVER, RIVER_WIDTHS.get(rank, 0.7))
    canvas.group("lakes")
    for rings in _rings(plan.geography.lakes, plan.to_pixels):
        canvas.polygon(rings, SEA, COAST, 0.6)


def _symbol(canvas, look: FactionLook, x: float, y: float, size: float, looks: Mapping[str, FactionLook],
            link: str | None = None) -> None:
    """The rules' symbol of a faction's people: its outline, filled in the faction's colour; a
    subjugated tribe's circle ringed in its master's colour."""
    kind = look.symbol
    if kind == RINGED:
        master = looks.get(look.master)
        canvas.shape(_outline(CIRCLE, x, y, size), look.color, master.color if master else EDGE, 3.0, link=link)
    else:
        canvas.shape(_outline(kind, x, y, size), look.color, EDGE, 0.8, link=link)


def _outline(kind: str, x: float, y: float, size: float) -> np.ndarray:
    return np.asarray(_UNIT_OUTLINES[CIRCLE if kind == RINGED else kind]) * (size / 2) + (x, y)


def _unit_outlines() -> dict[str, np.ndarray]:
    """The symbols' outlines around (0, 0), reaching ±1: a square, a circle, and a square whose
    four sides bow inwards (the rules' «вогнутый квадрат»)."""
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], dtype=float)
    t = np.linspace(0, 1, 10, endpoint=False)[:, None]
    concave = []
    for a, b in zip(corners, np.roll(corners, -1, axis=0)):
        control = (a + b) / 2 * 0.45                 # the side's middle pulled to the centre
        concave.append((1 - t) ** 2 * a + 2 * (1 - t) * t * control + t ** 2 * b)
    return {SQUARE: corners * 0.9, CIRCLE: np.column_stack([np.cos(angles), np.sin(angles)]),
            CONCAVE: np.vstack(concave)}


_UNIT_OUTLINES = _unit_outlines()


def _ink(color: str) -> str:
    r, g, b = rgb(color)
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _legend(canvas, plan: Plan) -> None:
    """The symbols, the links and every faction on the map, in LEGEND_COLUMNS columns read downwards."""
    canvas.group("legend")
    canvas.polygon([np.array([(0, plan.map_height), (WIDTH_PX, plan.map_height), (WIDTH_PX, plan.height),
                              (0, plan.height)])], BACKGROUND)      # over the land reaching below the map
    column_width = WIDTH_PX / LEGEND_COLUMNS
    for index, (what, label) in enumerate(plan.legend):
        column, row = divmod(index, plan.legend_rows)
        x = (column + LEGEND_INDENT) * column_width
        y = plan.map_height + (LEGEND_TOP / 2 + row + 0.5) * LEGEND_ROW
        if isinstance(what, FactionLook):
            canvas.shape(_outline(what.symbol, x, y, 9.7), what.color, EDGE, 0.7)
        elif what.startswith("link:"):
            style = LINK_STYLES[what[5:]]
            canvas.line(np.array([(x - 10, y), (x + 10, y)]), style["color"], style["width"], style["dash"])
        elif what == RINGED:
            canvas.shape(_outline(CIRCLE, x, y, 11), LEGEND_FILL, LEGEND_RING, 2.8)
        else:
            canvas.shape(_outline(what, x, y, 11), LEGEND_FILL, EDGE, 0.7)
        canvas.text(x + 0.07 * column_width, y, label, LEGEND_SIZE, NAME_INK, anchor="lm")
