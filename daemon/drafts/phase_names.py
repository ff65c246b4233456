"""A phase's name as the host and the players read it: "day-2" -> "день 2"."""
from __future__ import annotations

from forumgm.engines.base import Phase

PHASE_LABELS = {"day": "день", "night": "ночь", "round": "круг", "turn": "ход", "step": "шаг"}


def phase_label(key: str | None) -> str:
    """The kinds the engines use (Phase.key) in Russian; anything else as it is."""
    if not key:
        return "—"
    try:
        phase = Phase.from_key(key)
    except ValueError:
        return key
    return f"{PHASE_LABELS[phase.kind]} {phase.number}" if phase.kind in PHASE_LABELS else key
