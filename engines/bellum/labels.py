"""Where the turn map writes each province's name: near its point, clear of every other name and,
where it can be, of the people's symbols.

Pure geometry in pixels (y upwards), deterministic: the labels are placed one by one, the most
crowded first, each at the first of its candidate places (nearest to the usual one, above the
point) that overlaps no name already placed, and among those the one covering the least of the
symbols.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Box = tuple[float, float, float, float]      # x0, y0, x1, y1

GAP = 2.0               # pixels between a point and its name
STEP = 4.0              # pixels between two candidate places
RINGS = 8               # how far the candidates go, in steps
CROWD = 60.0            # points nearer than this make a label's neighbourhood crowded


@dataclass(frozen=True)
class Label:
    id: str
    x: float            # the point the label names
    y: float
    width: float
    height: float


def place_labels(labels: list[Label], obstacles: list[Box], bounds: Box) -> dict[str, Box]:
    """Each label's box, by id."""
    blocking = np.array(obstacles, dtype=float).reshape(-1, 4)
    placed = np.empty((0, 4))
    out: dict[str, Box] = {}
    points = np.array([(label.x, label.y) for label in labels]).reshape(-1, 2)
    crowd = (np.abs(points[:, None, :] - points[None, :, :]) < CROWD).all(axis=2).sum(axis=1)
    for index in sorted(range(len(labels)), key=lambda i: (-crowd[i], labels[i].id)):
        candidates = _candidates(labels[index])
        inside = ((candidates[:, 0] >= bounds[0]) & (candidates[:, 1] >= bounds[1])
                  & (candidates[:, 2] <= bounds[2]) & (candidates[:, 3] <= bounds[3]))
        if inside.any():
            candidates = candidates[inside]
        names = (_overlaps(candidates, placed) > 0).sum(axis=1)
        symbols = _overlaps(candidates, blocking).sum(axis=1)
        best = np.lexsort((np.arange(len(candidates)), symbols, names))[0]     # the nearest of the best
        placed = np.vstack([placed, candidates[best]])
        out[labels[index].id] = tuple(float(v) for v in candidates[best])
    return out


def overlap(one: Box, other: Box) -> float:
    """The area two boxes share (0 when they only touch)."""
    return float(_overlaps(np.array([one], dtype=float), np.array([other], dtype=float))[0, 0])


def _candidates(label: Label) -> np.ndarray:
    """Boxes around the point, the usual place first (centred above it), then nearer ones before
    farther ones: above and below, left and right, and the corners, on rings STEP apart."""
    w, h = label.width, label.height
    offsets = [(0.0, GAP + h / 2)]
    for ring in range(1, RINGS + 1):
        reach = ring * STEP
        above, below, left, right = GAP + h / 2 + reach, -(GAP + h / 2 + reach), -(w / 2 + GAP + reach), w / 2 + GAP + reach
        offsets += [(0, above), (left, 0), (right, 0), (0, below),
                    (left + w / 2, above), (right - w / 2, above), (left + w / 2, below), (right - w / 2, below)]
    centres = np.array(offsets) + (label.x, label.y)
    return np.hstack([centres - (w / 2, h / 2), centres + (w / 2, h / 2)])


def _overlaps(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The area each of `boxes` shares with each of `others` (0 when they only touch)."""
    width = np.minimum(boxes[:, None, 2], others[None, :, 2]) - np.maximum(boxes[:, None, 0], others[None, :, 0])
    height = np.minimum(boxes[:, None, 3], others[None, :, 3]) - np.maximum(boxes[:, None, 1], others[None, :, 1])
    return np.clip(width, 0, None) * np.clip(height, 0, None)
