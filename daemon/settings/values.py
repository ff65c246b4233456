"""What a settings key may hold (value kinds, each with the words the host reads when it is wrong), and
the `Checker` every read of a file goes through, so that each problem is collected with file and key."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from forumgm.daemon.settings.records import GameConfig
from forumgm.daemon.settings.secrets import file_permission_problem
from forumgm.daemon.settings.toml_file import TomlFileError, read_toml
from forumgm.parsers.colors import normalize_color


@dataclass(frozen=True)
class Kind:
    """What a key must hold: the words the host reads, and a converter that raises when wrong."""

    expected: str
    convert: Callable[[Any], Any]


def typed(kind: type, expected: str, check: Callable[[Any], bool] = lambda v: True) -> Kind:
    def convert(value):
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)) or not check(value):
            raise ValueError
        return value
    return Kind(expected, convert)


def _time_of_day(value: Any) -> time:
    if isinstance(value, time):
        return value
    if not isinstance(value, str) or not re.fullmatch(r"\d{1,2}:\d{2}", value):
        raise ValueError
    hours, minutes = map(int, value.split(":"))
    return time(hours, minutes)          # raises ValueError for 25:00 or 12:60


DURATION = re.compile(r"(?:(\d+)d)?\s*(?:(\d+)h)?\s*(?:(\d+)m)?")


def _duration(value: Any) -> timedelta:
    match = DURATION.fullmatch(value.strip()) if isinstance(value, str) else None
    if not match or not any(match.groups()):
        raise ValueError
    days, hours, minutes = (int(g or 0) for g in match.groups())
    span = timedelta(days=days, hours=hours, minutes=minutes)
    if not span:
        raise ValueError
    return span


def _zone(value: Any) -> ZoneInfo:
    if not isinstance(value, str):
        raise ValueError
    try:
        return ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError from None


def _local_datetime(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime.combine(value, time())
    raise ValueError


def _url(value: Any) -> str:
    if not isinstance(value, str) or not re.match(r"https?://[^\s/]+", value):
        raise ValueError
    parts = urlsplit(value)
    # .port raises for a port out of range or not a number: every later reader of the address may
    # ask for it (check-config compares boards by host and port), so it is refused here, once
    if not parts.hostname or parts.port == 0:
        raise ValueError
    return value


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError
    return float(value)


def _share(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise ValueError
    return float(value)


def one_of(values) -> Kind:
    return typed(str, "one of " + ", ".join(values), lambda v: v in values)


def _string_list(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError
    return tuple(value)


def _colors(value: Any) -> tuple[str, ...]:
    colors = _string_list(value)
    if not all(normalize_color(color) for color in colors):
        raise ValueError
    return colors


TEXT = typed(str, "a non-empty string", lambda v: bool(v.strip()))
INTEGER = typed(int, "an integer")
POSITIVE = typed(int, "a positive integer", lambda v: v > 0)
COUNT = typed(int, "an integer 0 or more", lambda v: v >= 0)
SECONDS = Kind("a number of seconds, 0 or more", _seconds)
PORT = typed(int, "a port number 1-65535", lambda v: 0 < v < 65536)
BOOLEAN = typed(bool, "true or false")
TABLE = typed(dict, "a table")
TIME_OF_DAY = Kind('a time of day "HH:MM" (00:00-23:59)', _time_of_day)
SHARE = Kind("a share above 0 and at most 1, such as 0.8", _share)
DURATION_KIND = Kind('a duration such as "3d", "12h" or "1d 6h 30m"', _duration)
ZONE = Kind('an IANA time zone such as "Europe/Moscow"', _zone)
LOCAL_DATETIME = Kind("a TOML local date-time such as 2026-03-02T23:00:00 (in the game's time zone)",
                      _local_datetime)
URL = Kind("an http:// or https:// URL (its port, if any, 1-65535)", _url)
STRINGS = Kind("an array of non-empty strings", _string_list)
PATH = typed(str, "a file path", lambda v: bool(v.strip()))
COLORS = Kind('an array of colours such as "blue", "#00f", "#0000ff" or "rgb(0,0,255)"', _colors)

MISSING = object()


class Checker:
    """Collects problems of one file; every read goes through here so that none is missed."""

    def __init__(self, problems: list[str], file: Path, held: list | None = None) -> None:
        self.problems = problems
        self.file = file
        # games with problems whose [setup] their engine can check all the same (ConfigError.games)
        self.held: list[GameConfig] = [] if held is None else held

    def problem(self, key: str, expected: str, got: Any = MISSING) -> None:
        tail = "" if got is MISSING else f" (got {got!r})"
        self.problems.append(f"{self.file}: {key}: expected {expected}{tail}")

    def known_keys(self, table: Mapping, allowed: set[str], prefix: str) -> None:
        for name in table:
            if name not in allowed:
                self.problems.append(f"{self.file}: {join_key(prefix, name)}: unknown key "
                                     f"(expected one of: {', '.join(sorted(allowed))})")

    def get(self, table: Mapping, name: str, kind: Kind, prefix: str = "", default: Any = MISSING) -> Any:
        """The converted value, the default when absent, or None after recording the problem."""
        key = join_key(prefix, name)
        if name not in table:
            if default is MISSING:
                self.problem(key, kind.expected + " (required)")
                return None
            return default
        try:
            return kind.convert(table[name])
        except (ValueError, TypeError):
            self.problem(key, kind.expected, table[name])
            return None

    def table(self, table: Mapping, name: str, allowed: set[str] | None, prefix: str = "",
              required: bool = False) -> dict:
        value = self.get(table, name, TABLE, prefix, default=None if not required else MISSING)
        value = value or {}
        if allowed is not None:
            self.known_keys(value, allowed, join_key(prefix, name))
        return value

    def path(self, value: str | None) -> Path | None:
        """A path as written, relative to the file that names it."""
        if value is None:
            return None
        path = Path(value).expanduser()
        return path if path.is_absolute() else (self.file.parent / path)


def join_key(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def read_table(path: Path, problems: list[str]) -> dict | None:
    try:
        return read_toml(path)
    except TomlFileError as error:
        problems.append(str(error))
        return None


def password_file(check: Checker, table: Mapping, prefix: str) -> Path | None:
    """An owner-only file holding a password; one source only (password_env or password_file)."""
    path = check.path(check.get(table, "password_file", PATH, prefix, default=None))
    if path is None:
        return None
    if "password_env" in table:
        check.problem(f"{prefix}.password_file", "no password_file when password_env is given (one source only)",
                      table["password_file"])
    problem = file_permission_problem(path)
    if problem:
        check.problem(f"{prefix}.password_file", problem, str(path))
    return path
