"""Phases and drafts by their names as the host and the players read them: "day-2" -> "день 2".

The names are the games' own (Rules.phase_labels, Rules.draft_labels); the daemon names only the
kinds of draft it makes for every game.
"""
from __future__ import annotations

from forumgm.engines.base import Phase, Rules

# What each draft the daemon makes for every game is, as the host calls it.
COMMON_DRAFT_LABELS = {
    "receipt": "квитанция",
    "vote_count": "подсчёт голосов",
    "vote_count_final": "итог голосования",
    "final_announcement": "объявление об итогах игры",
    "commitment": "отпечаток жребия",
    "game_record": "архив игры",
    "host_notice": "сообщение ведущему",
    "signup": "список записавшихся",
    "signup_assignment": "распределение фракций",
    "signup_reply": "ответ на запись",
}


def phase_label(rules: Rules | None, key: str | None) -> str:
    """The phase a key names in the game's words (Rules.phase_name); "—" for none, a key that is no
    phase of the game (or of no known game) as it is."""
    if not key:
        return "—"
    try:
        phase = Phase.from_key(key)
    except ValueError:
        return key
    return rules.phase_name(phase) if rules is not None and phase.kind in rules.phase_labels else key


def draft_label(rules: Rules | None, kind: str) -> str:
    """A draft's kind in the host's words; a kind nobody names, as its code."""
    own = {} if rules is None else rules.draft_labels
    return COMMON_DRAFT_LABELS.get(kind) or own.get(kind, kind)
