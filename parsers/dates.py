"""Dates as forums print them (English and Russian), read into aware datetimes.

Forums print local wall-clock times in the viewer's timezone (the forum account's setting),
often relative to the day the page was fetched ("Today at 1:59 PM", «Вчера, 10:01»). The
caller passes that timezone and the fetch time (`now`); nothing here reads the clock.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo

MONTHS: dict[str, int] = {}
for _number, _names in enumerate((
    ("jan", "january", "янв", "январь", "января"),
    ("feb", "february", "фев", "февр", "февраль", "февраля"),
    ("mar", "march", "мар", "март", "марта"),
    ("apr", "april", "апр", "апрель", "апреля"),
    ("may", "май", "мая"),
    ("jun", "june", "июн", "июнь", "июня"),
    ("jul", "july", "июл", "июль", "июля"),
    ("aug", "august", "авг", "август", "августа"),
    ("sep", "sept", "september", "сен", "сент", "сентябрь", "сентября"),
    ("oct", "october", "окт", "октябрь", "октября"),
    ("nov", "november", "ноя", "нояб", "ноябрь", "ноября"),
    ("dec", "december", "дек", "декабрь", "декабря"),
), start=1):
    MONTHS.update(dict.fromkeys(_names, _number))

_DAY_WORDS = {"today": 0, "сегодня": 0, "yesterday": 1, "вчера": 1}
_UNITS = {
    "second": 1, "sec": 1, "секунд": 1, "секунду": 1, "секунды": 1, "сек": 1,
    "minute": 60, "min": 60, "минуту": 60, "минуты": 60, "минут": 60, "мин": 60,
    "hour": 3600, "hr": 3600, "час": 3600, "часа": 3600, "часов": 3600,
    "day": 86400, "день": 86400, "дня": 86400, "дней": 86400,
    "week": 604800, "неделю": 604800, "недели": 604800, "недель": 604800,
}
_MONTH_WORD = "|".join(sorted(MONTHS, key=len, reverse=True))
_TIME = re.compile(r"(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?![\d.])")
_AGO = re.compile(r"(\d+|an?|one|одну)?\s*([a-zа-я]+?)s?\s+(?:ago|назад)")
_JUST_NOW = re.compile(r"just now|только что|a moment ago|less than a minute ago")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})(?!\d)")
_US = re.compile(r"(\d{1,2})[-/](\d{1,2})[-/](\d{4})")
_DAY_MONTH = re.compile(rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH_WORD})\.?(?:[a-zа-я]*)[\s,]*(\d{{4}})?")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?")
_DAY_WORD = re.compile(rf"(?<![a-zа-я])({'|'.join(_DAY_WORDS)})(?![a-zа-я])")
_MONTH_DAY = re.compile(rf"({_MONTH_WORD})\.?[a-z]*\s+(\d{{1,2}})(?:st|nd|rd|th)?(?!\d)[\s,]*(\d{{4}})?")


def parse_forum_date(text: str, tz: tzinfo | str, now: datetime | None = None) -> datetime:
    """Read one forum date into an aware datetime.

    ISO-8601 (from `datetime=` attributes) keeps its own offset; everything else is read
    as wall-clock time in `tz`. Relative forms (today, yesterday, "5 minutes ago") and dates
    without a year need `now`; without it they raise ValueError, like unreadable text.
    """
    zone = ZoneInfo(tz) if isinstance(tz, str) else tz
    raw = " ".join(text.split())
    iso = _from_iso(raw, zone)
    if iso is not None:
        return iso
    lowered = raw.lower()
    local_now = now.astimezone(zone) if now is not None else None

    if _JUST_NOW.search(lowered):
        return _need(local_now, raw)
    ago = _AGO.search(lowered) if "ago" in lowered or "назад" in lowered else None   # the search is slow
    if ago and _unit_seconds(ago.group(2)) is not None:
        count = ago.group(1)
        amount = int(count) if count and count.isdigit() else 1
        return _need(local_now, raw) - timedelta(seconds=amount * _unit_seconds(ago.group(2)))

    clock = _time_of_day(lowered)
    day = _day(lowered, local_now, raw)
    if day is None:
        raise ValueError(f"unrecognised forum date: {raw!r}")
    return datetime.combine(day, clock).replace(tzinfo=zone)


def _from_iso(raw: str, zone: tzinfo) -> datetime | None:
    if not _ISO.fullmatch(raw):
        return None
    parsed = datetime.fromisoformat(raw)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)


def _need(local_now: datetime | None, raw: str) -> datetime:
    if local_now is None:
        raise ValueError(f"relative forum date {raw!r} needs the fetch time (now)")
    return local_now


def _unit_seconds(word: str) -> int | None:
    for unit, seconds in _UNITS.items():
        if word == unit or (word.startswith(unit) and word.isascii()):
            return seconds
    return None


def _time_of_day(lowered: str) -> time:
    match = _TIME.search(lowered)
    if not match:
        return time(0, 0)
    hour, minute = int(match.group(1)), int(match.group(2))
    second = int(match.group(3) or 0)
    meridiem = (match.group(4) or "").replace(".", "")
    if meridiem == "pm" and hour != 12:
        hour += 12
    elif meridiem == "am" and hour == 12:
        hour = 0
    return time(hour, minute, second)


def _day(lowered: str, local_now: datetime | None, raw: str) -> date | None:
    if match := _DAY_WORD.search(lowered):
        return _need(local_now, raw).date() - timedelta(days=_DAY_WORDS[match.group(1)])
    without_time = _TIME.sub(" ", lowered)
    if match := _ISO_DATE.search(without_time):
        year, month, day = (int(part) for part in match.groups())
        return date(year, month, day)
    if match := _DOTTED.search(without_time):
        day, month, year = (int(part) for part in match.groups())
        return date(year + 2000 if year < 100 else year, month, day)
    if match := _US.search(without_time):
        first, second, year = (int(part) for part in match.groups())
        month, day = (first, second) if first <= 12 else (second, first)   # m-d-Y unless impossible
        return date(year, month, day)
    if match := _DAY_MONTH.search(without_time):
        return _with_year(int(match.group(1)), MONTHS[match.group(2)], match.group(3), local_now, raw)
    if match := _MONTH_DAY.search(without_time):
        return _with_year(int(match.group(2)), MONTHS[match.group(1)], match.group(3), local_now, raw)
    return None


def _with_year(day: int, month: int, year: str | None, local_now: datetime | None, raw: str) -> date:
    if year:
        return date(int(year), month, day)
    today = _need(local_now, raw).date()
    guess = date(today.year, month, day)
    # A yearless date later than tomorrow is from last year (forums drop the current year).
    return guess if guess <= today + timedelta(days=1) else date(today.year - 1, month, day)
