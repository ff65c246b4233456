"""The two surfaces the turn map is drawn on, with one set of calls: a PNG raster (Pillow,
shapes supersampled for smooth edges, letters drawn at the final size by FreeType) and an SVG
text whose every province, link and symbol is a linked shape and every name a <text>.

Coordinates are pixels of the final picture, y downwards. Pure: fonts come as bytes, the
picture goes out as bytes; no clock, no files, the same bytes for the same calls.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from html import escape
from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

SUPERSAMPLE = 3             # shapes are drawn this many times larger, then reduced: their edges smooth
Points = np.ndarray         # (n, 2) pixels


@dataclass(frozen=True)
class Fonts:
    """The map's letters (TrueType bytes): DejaVu Sans, regular and bold, shipped with forumgm."""
    regular: bytes
    bold: bytes
    family: str = "DejaVu Sans"


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def blend(colour: str, opacity: float, under: str) -> tuple[int, int, int]:
    """`colour` at `opacity` over `under`, as one opaque colour."""
    return tuple(round(opacity * c + (1 - opacity) * u) for c, u in zip(rgb(colour), rgb(under)))


class Letters:
    """The fonts at the sizes the map uses, and the sizes of texts in them."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self._faces: dict[tuple[int, bool], ImageFont.FreeTypeFont] = {}
        self._measure = ImageDraw.Draw(Image.new("L", (1, 1)))
        self._boxes: dict[tuple, tuple[float, float, float, float]] = {}

    def face(self, size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
        key = (round(size * 4), bold)
        if key not in self._faces:
            data = self.fonts.bold if bold else self.fonts.regular
            self._faces[key] = ImageFont.truetype(io.BytesIO(data), size)
        return self._faces[key]

    def box(self, text: str, size: float, bold: bool = False, spacing: float = 0.0) -> tuple[float, float, float, float]:
        """The ink box of the text drawn from (0, 0) by its top left ("la"), lines centred
        `spacing` pixels apart."""
        key = (text, round(size * 4), bold, spacing)
        if key not in self._boxes:
            self._boxes[key] = self._measure.multiline_textbbox((0, 0), text, font=self.face(size, bold), anchor="la",
                                                                align="center", spacing=spacing)
        return self._boxes[key]

    def size(self, text: str, size: float, bold: bool = False, spacing: float = 0.0) -> tuple[float, float]:
        """Width and height of the text's ink box."""
        x0, y0, x1, y1 = self.box(text, size, bold, spacing)
        return x1 - x0, y1 - y0


class Raster:
    """The PNG: shapes at SUPERSAMPLE× on a large image, reduced; then the texts."""

    def __init__(self, width: int, height: int, background: str, letters: Letters, through: str | None = None) -> None:
        self.width, self.height, self.letters = width, height, letters
        self.under = background         # what a translucent fill is seen over
        self.through = rgb(through or background)   # what a polygon's hole shows (the sea under the land)
        self.image = Image.new("RGB", (width * SUPERSAMPLE, height * SUPERSAMPLE), background)
        self.draw = ImageDraw.Draw(self.image)
        self.texts: list[tuple] = []

    def group(self, gid: str) -> None:
        pass                                    # groups name parts of the SVG only

    def polygon(self, rings: Sequence[Points], fill: str | None, stroke: str | None = None, width: float = 0.0,
                link: str | None = None, opacity: float = 1.0) -> None:
        """A polygon (the first ring its outline, the rest holes), a translucent fill seen over `under`."""
        scaled = [np.asarray(ring) * SUPERSAMPLE for ring in rings]
        if fill is not None:
            fill = blend(fill, opacity, self.under)
            self.draw.polygon(_xy(scaled[0]), fill=fill)
            for hole in scaled[1:]:
                self.draw.polygon(_xy(hole), fill=self.through)
        if stroke is not None and width > 0:
            for ring in scaled:
                self.draw.line(_xy(np.vstack([ring, ring[:1]])), fill=rgb(stroke),
                               width=max(1, round(width * SUPERSAMPLE)), joint="curve")

    def line(self, points: Points, colour: str, width: float, dash: tuple[float, float] | None = None,
             link: str | None = None) -> None:
        fill, width = rgb(colour), max(1, round(width * SUPERSAMPLE))
        if dash is None:
            self.draw.line(_xy(np.asarray(points) * SUPERSAMPLE), fill=fill, width=width, joint="curve")
            return
        for (x0, y0), (x1, y1) in (dashes(np.asarray(points, dtype=float), *dash) * SUPERSAMPLE).tolist():
            self.draw.line((x0, y0, x1, y1), fill=fill, width=width)

    def shape(self, outline: Points, fill: str, edge: str, edge_width: float, link: str | None = None) -> None:
        """A symbol: a closed outline, filled, its edge drawn inside it (as a ring)."""
        ring = np.asarray(outline) * SUPERSAMPLE
        self.draw.polygon(_xy(ring), fill=rgb(edge))
        centre = ring.mean(axis=0)
        inner = _shrunk(ring, centre, edge_width * SUPERSAMPLE)
        if inner is not None:
            self.draw.polygon(_xy(inner), fill=rgb(fill))

    def text(self, x: float, y: float, text: str, size: float, colour: str, bold: bool = False,
             gid: str | None = None, spacing: float = 0.0, anchor: str = "mm") -> None:
        """A text whose ink box is centred on (x, y), or ("lm") starts at x, centred on y."""
        x0, y0, x1, y1 = self.letters.box(text, size, bold, spacing)
        left = x - (x0 + x1) / 2 if anchor == "mm" else x - x0
        self.texts.append((left, y - (y0 + y1) / 2, text, size, colour, bold, spacing))

    def box(self, x0: float, y0: float, x1: float, y1: float, fill: str, edge: str) -> None:
        self.draw.rectangle([x0 * SUPERSAMPLE, y0 * SUPERSAMPLE, x1 * SUPERSAMPLE, y1 * SUPERSAMPLE],
                            fill=rgb(fill), outline=rgb(edge), width=SUPERSAMPLE)

    def picture(self) -> Image.Image:
        image = self.image.reduce(SUPERSAMPLE)
        draw = ImageDraw.Draw(image)
        for x, y, text, size, colour, bold, spacing in self.texts:
            draw.multiline_text((x, y), text, font=self.letters.face(size, bold), fill=rgb(colour), anchor="la",
                                align="center", spacing=spacing)
        return image


class Svg:
    """The SVG: a list of elements, grouped and linked as the map names them."""

    def __init__(self, width: int, height: int, background: str, letters: Letters) -> None:
        self.letters = letters
        self.parts = [f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                      f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
                      f'<rect width="{width}" height="{height}" style="fill: {background}"/>']
        self._open = False

    def group(self, gid: str) -> None:
        self._close()
        self.parts.append(f'<g id="{escape(gid)}">')
        self._open = True

    def _close(self) -> None:
        if self._open:
            self.parts.append("</g>")
            self._open = False

    def _linked(self, element: str, link: str | None) -> None:
        self.parts.append(element if link is None else f'<a xlink:href="#{escape(link)}">{element}</a>')

    def polygon(self, rings: Sequence[Points], fill, stroke: str | None = None, width: float = 0.0,
                link: str | None = None, opacity: float = 1.0) -> None:
        d = " ".join(_path(ring) + " Z" for ring in rings)
        style = [f"fill: {fill}" if fill is not None else "fill: none"]
        if opacity < 1:
            style.append(f"fill-opacity: {opacity:g}")
        style.append(f"stroke: {stroke}; stroke-width: {width:g}" if stroke and width > 0 else "stroke: none")
        self._linked(f'<path d="{d}" style="{"; ".join(style)}" fill-rule="evenodd"/>', link)

    def line(self, points: Points, colour: str, width: float, dash: tuple[float, float] | None = None,
             link: str | None = None) -> None:
        style = f"fill: none; stroke: {colour}; stroke-width: {width:g}; stroke-linecap: round"
        if dash is not None:
            style += f"; stroke-dasharray: {dash[0]:g},{dash[1]:g}"
        self._linked(f'<path d="{_path(np.asarray(points))}" style="{style}"/>', link)

    def shape(self, outline: Points, fill: str, edge: str, edge_width: float, link: str | None = None) -> None:
        style = f"fill: {fill}; stroke: {edge}; stroke-width: {edge_width:g}"
        self._linked(f'<path d="{_path(np.asarray(outline))} Z" style="{style}"/>', link)

    def text(self, x: float, y: float, text: str, size: float, colour: str, bold: bool = False,
             gid: str | None = None, spacing: float = 0.0, anchor: str = "mm") -> None:
        lines = text.split("\n")
        step = self.letters.size("Ag", size, bold)[1] + spacing
        weight = "; font-weight: bold" if bold else ""
        align = {"m": "middle", "l": "start"}[anchor[0]]
        style = f"font-family: {self.letters.fonts.family}; font-size: {size:g}px{weight}; fill: {colour}; " \
                f"text-anchor: {align}; dominant-baseline: central"
        top = y - step * (len(lines) - 1) / 2
        texts = "".join(f'<text x="{x:.1f}" y="{top + i * step:.1f}" style="{style}">{escape(line)}</text>'
                        for i, line in enumerate(lines))
        self.parts.append(texts if gid is None else f'<g id="{escape(gid)}">{texts}</g>')

    def box(self, x0: float, y0: float, x1: float, y1: float, fill: str, edge: str) -> None:
        self.parts.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
                          f'style="fill: {fill}; stroke: {edge}; stroke-width: 1"/>')

    def data(self) -> bytes:
        self._close()
        return ("\n".join(self.parts) + "\n</svg>\n").encode("utf-8")


def dashes(points: np.ndarray, on: float, off: float) -> np.ndarray:
    """The dashes of a polyline drawn by a dash pattern (`on` pixels drawn, `off` left out),
    each as the straight piece between its ends: (n, 2, 2)."""
    along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
    starts = np.arange(0.0, along[-1], on + off)
    ends = np.minimum(starts + on, along[-1])
    at = lambda where: np.column_stack([np.interp(where, along, points[:, 0]), np.interp(where, along, points[:, 1])])  # noqa: E731
    return np.stack([at(starts), at(ends)], axis=1)


def _xy(points: np.ndarray) -> list[float]:
    return np.asarray(points, dtype=float).ravel().tolist()


def _path(points: np.ndarray) -> str:
    head, *rest = points
    return f"M{head[0]:.1f} {head[1]:.1f}" + "".join(f"L{x:.1f} {y:.1f}" for x, y in rest)


def _shrunk(ring: np.ndarray, centre: np.ndarray, by: float) -> np.ndarray | None:
    """The outline pulled `by` pixels towards its centre (a symbol's fill inside its edge)."""
    offsets = ring - centre
    reach = np.hypot(offsets[:, 0], offsets[:, 1])
    radius = reach.max()
    if radius <= by:
        return None
    return centre + offsets * (radius - by) / radius
