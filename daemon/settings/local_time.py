"""Times and spans as a Russian-speaking host writes and reads them, in the game's zone.

What the page and the CLI show («05.03.2026 22:45 (МСК)») is what they accept back, and so are the
ISO form and a browser's datetime-local field; spans come in Russian («2ч», «90 мин», «1д 6ч») or
as 2h / 90m. Every message names the zone it speaks in.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

SHOWN = "%d.%m.%Y %H:%M"
_ACCEPTED = ("%d.%m.%Y %H:%M", "%d.%m.%Y %H.%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%d.%m.%y %H:%M")
# a span's units by every way a host writes them; the longest spelling first, so «мин» is not «м» + «ин»
_UNITS = (
    ("days", ("дней", "дня", "день", "сут", "дн", "д", "days", "day", "d")),
    ("hours", ("часов", "часа", "час", "ч", "hours", "hour", "h")),
    ("minutes", ("минуты", "минут", "минута", "мин", "м", "minutes", "minute", "min", "m")),
)
_BY_WORD = {word: unit for unit, words in _UNITS for word in words}
_PART = re.compile(r"(\d+)\s*(" + "|".join(sorted(_BY_WORD, key=len, reverse=True)) + r")\.?(?![а-яёa-z])")


def zone_name(zone: tzinfo) -> str:
    """The zone as the host reads it: Moscow as «МСК», any other by its name (UTC for a fixed one)."""
    key = getattr(zone, "key", None) or zone.tzname(None) or "UTC"
    return "МСК" if key == "Europe/Moscow" else key


def shown(moment: datetime, zone: tzinfo) -> str:
    """«05.03.2026 22:45 (МСК)»: a moment in the game's zone, named."""
    return f"{moment.astimezone(zone).strftime(SHOWN)} ({zone_name(zone)})"


def parse_moment(text: str, zone: ZoneInfo) -> datetime:
    """A local time of the game's zone, as shown («05.03.2026 22:45») or as ISO; the zone's name
    may follow. ValueError names the form expected and the zone."""
    cleaned = re.sub(r"\s*\(?\s*(мск|msk|" + re.escape(zone.key.lower()) + r")\s*\)?\s*$", "",
                     text.strip().lower()).strip()
    for form in _ACCEPTED:
        try:
            return datetime.strptime(cleaned, form).replace(tzinfo=zone)
        except ValueError:
            continue
    raise ValueError(f"«{text}» — не время: пишите ДД.ММ.ГГГГ ЧЧ:ММ, например 05.03.2026 22:45 "
                     f"(время игры, {zone_name(zone)})")


def parse_span(text: str) -> timedelta:
    """«2ч», «90 мин», «1д 6ч», «-30 мин» (earlier), 2h, 1d 6h -> a timedelta; anything else is refused."""
    cleaned = text.strip().lower()
    sign = -1 if cleaned.startswith(("-", "−")) else 1
    body = cleaned.lstrip("+-−").strip()
    parts = _PART.findall(body)
    if not parts or any(word not in ("и", ",") for word in _PART.sub(" ", body).replace(",", " , ").split()):
        raise ValueError(f"«{text}» — не промежуток времени: пишите, например, 2ч, 90 мин, 1д 6ч, -30 мин")
    return sign * sum((timedelta(**{_BY_WORD[word]: int(number)}) for number, word in parts), timedelta())
