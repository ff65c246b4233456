"""The page's words for what the store keeps as codes: who acted, why a player is out, a phase in a
case, a moment in time, a raw record a host can still read.

The sentences themselves are the templates' (_words.html); these are the filters they use.
Every date and time the page shows goes through `page_time`, in one place.
"""
from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from typing import Any, Callable
from zoneinfo import ZoneInfo

from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.settings.game import DEFAULT_ZONE
from forumgm.daemon.settings.local_time import shown
from forumgm.daemon.tick.late import LATE_SUFFIX
from forumgm.daemon.web.security import HOST_ACTOR
from forumgm.engines.base import Rules
from forumgm.engines.phrases import guess_gender
from forumgm.engines.texts import plural
from forumgm.parsers.names import decline

DISPLAY_ZONE = ZoneInfo(DEFAULT_ZONE)
# who did it, as the audit log and the page name the actors the store records
DAEMON_ACTOR, WEB_ACTOR = "daemon", "web"
ACTORS = {HOST_ACTOR: ("Ведущий", "m"), DAEMON_ACTOR: ("Программа", "f"), WEB_ACTOR: ("Страница ведущего", "f")}


def moment_of(value: datetime | str | None) -> datetime | None:
    """A moment the store handed over, or kept as ISO text (the audit log's details); None for none."""
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return None
    return value or None


def page_time(moment: datetime | str | None) -> str:
    """A moment as the page shows it."""
    found = moment_of(moment)
    if found is None:
        return str(moment) if moment else "—"
    return shown(found, DISPLAY_ZONE)


def seconds(moment: datetime | str | None) -> float:
    """The moment as seconds since the epoch, for the difference of two (a moved deadline); 0 for none."""
    found = moment_of(moment)
    return found.timestamp() if found else 0.0


def span(seconds: float) -> str:
    """A span of time in words, to the minute: «1 д 2 ч», «2 ч 30 мин», «5 мин»; negative spans count back."""
    minutes = round(abs(seconds) / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days} д"] * bool(days) + [f"{hours} ч"] * bool(hours) + [f"{minutes} мин"] * bool(minutes and not days)
    return " ".join(parts) or "меньше минуты"


def actor(name: str) -> str:
    """The actor's name in the log: the host on his page, the daemon, the page itself; any other
    name is the host's account at the console (`forumgm … --by`, else the system user)."""
    return ACTORS.get(name, ("Ведущий", "m"))[0]


def actor_gender(name: str) -> str:
    return ACTORS.get(name, ("Ведущий", "m"))[1]


def console_user(name: str) -> str | None:
    """The console account that acted, None when it was the page or the daemon."""
    return None if name in ACTORS else name


def phase_words(rules: Rules | None, key: str | None, case: str = "именительный") -> str:
    """A phase in the game's words, in the case a sentence needs («дедлайн круга 2»); a PM filed
    as too late for a phase (`round-1/late`) says so."""
    if key and key.endswith(LATE_SUFFIX):
        return f"{phase_words(rules, key[:-len(LATE_SUFFIX)], case)} (после дедлайна)"
    label = phase_label(rules, key)
    noun, _, rest = label.partition(" ")
    if case == "именительный" or not rest:
        return label
    return f"{decline(noun, case)} {rest}"


def cause_words(rules: Rules | None, cause: str) -> str:
    """Why a player left the game, in the game's words (Rules.cause_labels)."""
    return (rules.cause_labels if rules is not None else {}).get(cause, cause)


def out_words(nick: str) -> str:
    """«выбыл», «выбыла» as the nick reads, «вне игры» where its gender cannot be told."""
    return {"m": "выбыл", "f": "выбыла"}.get(guess_gender(nick) or "", "вне игры")


def anchor(nick: str) -> str:
    """The id of a player's row on his game's page (the attention box links the missing players to it)."""
    return "player-" + "_".join(nick.split())


def readable(record: Any) -> str:
    """A raw record (events, a state, an audit entry) as a host reads it: indented, letters as letters."""
    return json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True, default=_plain)


def _plain(value: Any) -> Any:
    """What JSON cannot write itself: a record (a dataclass) as its fields, anything else as text."""
    return dataclasses.asdict(value) if dataclasses.is_dataclass(value) else str(value)


def page_filters(rules_of: Callable[[str], Rules | None]) -> dict[str, Callable]:
    """The page templates' filters; `rules_of(game_id)` is a stored game's engine (None: unknown)."""
    return {
        "when": page_time,
        "seconds": seconds,
        "span": span,
        "phase": lambda key, game_id, case="именительный": phase_words(rules_of(game_id), key, case),
        "cause": lambda cause, game_id: cause_words(rules_of(game_id), cause),
        "actor": actor,
        "actor_gender": actor_gender,
        "console_user": console_user,
        "readable": readable,
        "out_words": out_words,
        "anchor": anchor,
        "plural": plural,
    }
