"""Installation and game configs: TOML in, checked frozen records out.

Every problem of every file is collected before anything is refused, so the host fixes a
config in one pass: `ConfigError.problems` is a list of "file: key: expected … (got …)".
Unknown keys are errors (a typo must not silently fall back to a default). Each game's own
`[setup]` and `[rules]` tables are passed through untouched: their meaning belongs to that
game's engine. Its `[rules]` are checked here all the same (the engine's `make_rules` says what is
wrong), as they need no players; `[setup]` is checked once the players are known (`Rules.setup`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from forumgm.daemon.settings.games import GAMES, phase_kinds, rules_for, shipped_rules
from forumgm.daemon.settings.notify import read_notify
from forumgm.daemon.store import RAW_PAGES_KEPT
from forumgm.daemon.settings.toml_file import TomlFileError, read_toml
from forumgm.engines.base import SetupError
from forumgm.daemon.settings.secrets import file_permission_problem
from forumgm.parsers.colors import normalize_color

DEFAULT_ZONE = "Europe/Moscow"
FORUM_ENGINES = ("phpbb", "mybb", "smf", "fluxbb", "ipb3", "ipb4", "vbulletin3", "vbulletin4", "xenforo", "generic")
# The draft kinds every game's [approval] table may name, beside its engine's (Rules.draft_kinds). A
# kind left out needs the host's approval; the host's own notices and the sign-up proposal always do,
# so they are not listed.
COMMON_DRAFT_KINDS = ("receipt", "vote_count", "vote_count_final", "final_announcement")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
ROLE_DELIVERY = ("pm", "link")
VOTE_POLICIES = ("last", "first")

INSTALLATION_KEYS = {"forum", "storage", "daemon", "web", "games", "notify"}
FORUM_KEYS = {"id", "engine", "base_url", "account", "password_env", "password_file", "selectors", "time_zone",
              "min_interval", "timeout", "retries", "posts_per_page", "post_interval",
              "inbox_cleanup", "inbox_cleanup_folder", "inbox_cleanup_after", "inbox_cleanup_fill", "sent_cleanup"}
INBOX_CLEANUP = ("off", "delete", "move")
# what forumgm can do with stored PMs on each engine's board (the adapters' PmRemoval, which a test
# holds this to; kept here so that reading a config does not load the forum's HTTP side)
INBOX_CLEANUP_ACTIONS = {"phpbb": ("delete", "move"), "mybb": ("delete", "move"), "smf": ("delete",),
                         "vbulletin3": ("delete",), "vbulletin4": ("delete",)}
INBOX_CLEANUP_WHY_NOT = {
    "smf": "SMF 2.1 has labels, not folders, and a labelled PM still counts against the PM limit",
    "vbulletin3": "vBulletin counts every folder against the PM quota",
    "vbulletin4": "vBulletin counts every folder against the PM quota",
    "fluxbb": "FluxBB has no private messages",
}
STORAGE_KEYS = {"path", "raw_pages_kept"}
DAEMON_KEYS = {"poll_interval", "poll_near", "near_deadline", "deadline_grace", "inbox_full_read", "log_level"}
WEB_KEYS = {"host", "port", "password_env", "password_file", "public_url"}
GAME_KEYS = {"id", "type", "thread_url", "seed", "time_zone", "start", "players", "roles_file", "calendar",
             "role_delivery", "reminder_before", "edit_window",
             "vote_colors", "vote_policy", "vote_count_every", "approval", "templates", "setup", "rules"}
PLAYER_KEYS = {"nick", "aliases", "role"}
PHASE_TIME_KEYS = {"opens", "closes", "duration"}
ROLES_FILE_KEYS = {"roles"}


class ConfigError(Exception):
    """`problems`, and `games`: those whose engine can still check their [setup] (their type, seed,
    players and usable [rules] are right), so that its problems are listed with these."""

    def __init__(self, problems: list[str], games: Sequence[GameConfig] = ()) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems
        self.games = tuple(games)


# ---------------------------------------------------------------- records

@dataclass(frozen=True)
class ForumConfig:
    id: str
    engine: str
    base_url: str
    account: str
    password_env: str | None = None
    password_file: Path | None = None
    selectors: Mapping[str, Any] = field(default_factory=dict)   # the generic adapter's
    time_zone: str | None = None          # the zone the board shows dates in for this account
    min_interval: float | None = None     # polite pause between two requests, seconds
    timeout: float | None = None
    retries: int | None = None
    posts_per_page: int | None = None
    post_interval: float | None = None    # the board's flood interval for the account: seconds between posts
    inbox_cleanup: str = "off"            # "delete" or "move": stored, answered PMs leave the board's inbox
    inbox_cleanup_folder: str | None = None   # move: the account's PM folder on the board
    inbox_cleanup_after: timedelta = timedelta(days=1)   # ... this long after forumgm stored them
    inbox_cleanup_fill: float = 0.8       # ... or at once while the inbox holds this share of its limit
    sent_cleanup: bool = True             # forumgm's own sent copies leave the board once recorded (daemon/forum/housekeeping/sent_copies.py)


@dataclass(frozen=True)
class PhaseTimes:
    """When a phase kind runs: between two local times of day, or for a fixed duration."""

    opens: time | None = None
    closes: time | None = None
    duration: timedelta | None = None


@dataclass(frozen=True)
class PlayerConfig:
    nick: str
    aliases: tuple[str, ...] = ()
    role: str | None = None


@dataclass(frozen=True)
class GameConfig:
    id: str
    type: str
    source: Path
    thread_url: str
    seed: int
    time_zone: ZoneInfo
    start: datetime                       # aware, in the game's zone
    players: tuple[PlayerConfig, ...]
    calendar: Mapping[str, PhaseTimes]
    vote_colors: tuple[str, ...] = ()     # empty: the colours of the game's rule table
    vote_policy: str | None = None        # "last" | "first"; None: the rule table's
    vote_count_every: timedelta | None = None   # a running vote-count draft this often; None: on demand only
    approval: Mapping[str, bool] = field(default_factory=dict)
    templates: Path | None = None
    setup: Mapping[str, Any] = field(default_factory=dict)
    rules: Mapping[str, Any] = field(default_factory=dict)
    role_delivery: str = "pm"             # "pm": the role in a PM; "link": a PM with a one-time link
    reminder_before: timedelta | None = timedelta(hours=1)   # missing day votes listed this long before
    edit_window: timedelta = timedelta(hours=1)   # posts this young are re-read each tick so edits are seen
    key_prefix: str = ""                  # where its keys are in `source`: "games[N]" when written inline

    @property
    def signup_open(self) -> bool:
        """`players = []`: the sign-up is still running, nothing is dealt yet."""
        return not self.players

    def needs_approval(self, kind: str) -> bool:
        """Every kind needs the host's approval unless the game's [approval] table says otherwise."""
        return self.approval.get(kind, True)

    def setup_table(self) -> dict:
        """What `Rules.setup` receives: the game's [setup] plus the players with roles and aliases."""
        players = []
        for player in self.players:
            entry: dict[str, Any] = {"nick": player.nick}
            if player.role is not None:
                entry["role"] = player.role
            if player.aliases:
                entry["aliases"] = list(player.aliases)
            players.append(entry)
        return {**self.setup, "players": players}


@dataclass(frozen=True)
class Installation:
    source: Path
    forum: ForumConfig
    storage: Path
    poll_interval: int
    log_level: str
    web_host: str
    web_port: int
    games: tuple[GameConfig, ...]
    web_password_env: str | None = None    # the host's login password for the web page
    web_password_file: Path | None = None
    web_public_url: str | None = None      # the page's address as players reach it (role links)
    poll_near: int = 30          # seconds between two ticks within `near_deadline` of a deadline
    near_deadline: int = 3600    # seconds before a deadline when polling turns to `poll_near`
    deadline_grace: int = 30     # seconds after a deadline before it resolves (PMs still in flight)
    inbox_full_read: int = 1800  # seconds between two whole reads of the PM inbox when the pages count none unread
    notify: Any = None           # forumgm.daemon.settings.notify.NotifyConfig, or None: nobody is told
    raw_pages_kept: int = RAW_PAGES_KEPT   # thread pages kept per game as the forum showed them (the newest)


# ---------------------------------------------------------------- value kinds

@dataclass(frozen=True)
class Kind:
    """What a key must hold: the words the host reads, and a converter that raises when wrong."""

    expected: str
    convert: Callable[[Any], Any]


def _typed(kind: type, expected: str, check: Callable[[Any], bool] = lambda v: True) -> Kind:
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
    return value


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError
    return float(value)


def _share(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise ValueError
    return float(value)


def _one_of(values) -> Kind:
    return _typed(str, "one of " + ", ".join(values), lambda v: v in values)


def _string_list(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError
    return tuple(value)


def _colors(value: Any) -> tuple[str, ...]:
    colors = _string_list(value)
    if not all(normalize_color(color) for color in colors):
        raise ValueError
    return colors


TEXT = _typed(str, "a non-empty string", lambda v: bool(v.strip()))
INTEGER = _typed(int, "an integer")
POSITIVE = _typed(int, "a positive integer", lambda v: v > 0)
COUNT = _typed(int, "an integer 0 or more", lambda v: v >= 0)
SECONDS = Kind("a number of seconds, 0 or more", _seconds)
PORT = _typed(int, "a port number 1-65535", lambda v: 0 < v < 65536)
BOOLEAN = _typed(bool, "true or false")
TABLE = _typed(dict, "a table")
TIME_OF_DAY = Kind('a time of day "HH:MM" (00:00-23:59)', _time_of_day)
SHARE = Kind("a share above 0 and at most 1, such as 0.8", _share)
DURATION_KIND = Kind('a duration such as "3d", "12h" or "1d 6h 30m"', _duration)
ZONE = Kind('an IANA time zone such as "Europe/Moscow"', _zone)
LOCAL_DATETIME = Kind("a TOML local date-time such as 2026-03-02T23:00:00 (in the game's time zone)",
                      _local_datetime)
URL = Kind("an http:// or https:// URL", _url)
STRINGS = Kind("an array of non-empty strings", _string_list)
PATH = _typed(str, "a file path", lambda v: bool(v.strip()))
COLORS = Kind('an array of colours such as "blue", "#00f", "#0000ff" or "rgb(0,0,255)"', _colors)

MISSING = object()


# ---------------------------------------------------------------- the checker

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
                self.problems.append(f"{self.file}: {_join(prefix, name)}: unknown key "
                                     f"(expected one of: {', '.join(sorted(allowed))})")

    def get(self, table: Mapping, name: str, kind: Kind, prefix: str = "", default: Any = MISSING) -> Any:
        """The converted value, the default when absent, or None after recording the problem."""
        key = _join(prefix, name)
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
            self.known_keys(value, allowed, _join(prefix, name))
        return value

    def path(self, value: str | None) -> Path | None:
        """A path as written, relative to the file that names it."""
        if value is None:
            return None
        path = Path(value).expanduser()
        return path if path.is_absolute() else (self.file.parent / path)


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _read_toml(path: Path, problems: list[str]) -> dict | None:
    try:
        return read_toml(path)
    except TomlFileError as error:
        problems.append(str(error))
        return None


# ---------------------------------------------------------------- installation

def load_installation(path: str | Path) -> Installation:
    problems: list[str] = []
    path = Path(path)
    data = _read_toml(path, problems)
    if data is None:
        raise ConfigError(problems)
    check = Checker(problems, path)
    check.known_keys(data, INSTALLATION_KEYS, "")
    forum = _forum(check, check.table(data, "forum", FORUM_KEYS, required=True))
    storage = check.table(data, "storage", STORAGE_KEYS, required=True)
    daemon = check.table(data, "daemon", DAEMON_KEYS)
    web = check.table(data, "web", WEB_KEYS)
    installation = dict(
        source=path,
        forum=forum,
        storage=check.path(check.get(storage, "path", PATH, "storage")),
        raw_pages_kept=check.get(storage, "raw_pages_kept", POSITIVE, "storage", default=RAW_PAGES_KEPT),
        poll_interval=check.get(daemon, "poll_interval", POSITIVE, "daemon", default=600),
        poll_near=check.get(daemon, "poll_near", POSITIVE, "daemon", default=30),
        near_deadline=check.get(daemon, "near_deadline", COUNT, "daemon", default=3600),
        deadline_grace=check.get(daemon, "deadline_grace", COUNT, "daemon", default=30),
        inbox_full_read=check.get(daemon, "inbox_full_read", POSITIVE, "daemon", default=1800),
        log_level=check.get(daemon, "log_level", _one_of(LOG_LEVELS), "daemon", default="INFO"),
        web_host=check.get(web, "host", TEXT, "web", default="127.0.0.1"),
        web_port=check.get(web, "port", PORT, "web", default=8080),
        games=_games(check, data.get("games", []), problems),
        web_password_env=check.get(web, "password_env", TEXT, "web", default=None),
        web_password_file=_password_file(check, web, "web"),
        web_public_url=check.get(web, "public_url", URL, "web", default=None),
        notify=read_notify(check, check.table(data, "notify", None), forum.account if forum else None),
    )
    for game in installation["games"]:
        if game.role_delivery == "link" and not installation["web_public_url"]:
            check.problem("web.public_url", f"the page's public address (game {game.id} delivers roles "
                                            "by link: role_delivery = \"link\")")
    if problems:
        raise ConfigError(problems, installation["games"] + tuple(check.held))
    return Installation(**installation)


def _forum(check: Checker, table: Mapping) -> ForumConfig | None:
    values = dict(
        id=check.get(table, "id", TEXT, "forum", default="main"),
        engine=check.get(table, "engine", _one_of(FORUM_ENGINES), "forum"),
        base_url=check.get(table, "base_url", URL, "forum"),
        account=check.get(table, "account", TEXT, "forum"),
        password_env=check.get(table, "password_env", TEXT, "forum", default=None),
        password_file=_password_file(check, table, "forum"),
        selectors=check.table(table, "selectors", None, "forum"),
        time_zone=_zone_name(check.get(table, "time_zone", ZONE, "forum", default=None)),
        min_interval=check.get(table, "min_interval", SECONDS, "forum", default=None),
        timeout=check.get(table, "timeout", SECONDS, "forum", default=None),
        retries=check.get(table, "retries", COUNT, "forum", default=None),
        posts_per_page=check.get(table, "posts_per_page", POSITIVE, "forum", default=None),
        post_interval=check.get(table, "post_interval", SECONDS, "forum", default=None),
        **_inbox_cleanup(check, table),
        sent_cleanup=check.get(table, "sent_cleanup", BOOLEAN, "forum", default=True),
    )
    if "password_env" not in table and "password_file" not in table:
        check.problem("forum.password_env", "a variable name, or password_file = a chmod 600 file (one required)")
    if values["selectors"] and values["engine"] != "generic":
        check.problem("forum.selectors", 'no selectors unless engine = "generic"', values["selectors"])
    return ForumConfig(**values)


def _inbox_cleanup(check: Checker, table: Mapping) -> dict[str, Any]:
    """inbox_cleanup and its keys; the engine must be able to do what is asked (`forumgm check-config`
    says so before the daemon would try)."""
    values = dict(
        inbox_cleanup=check.get(table, "inbox_cleanup", _one_of(INBOX_CLEANUP), "forum", default="off"),
        inbox_cleanup_folder=check.get(table, "inbox_cleanup_folder", TEXT, "forum", default=None),
        inbox_cleanup_after=check.get(table, "inbox_cleanup_after", DURATION_KIND, "forum",
                                      default=timedelta(days=1)),
        inbox_cleanup_fill=check.get(table, "inbox_cleanup_fill", SHARE, "forum", default=0.8),
    )
    action, engine = values["inbox_cleanup"], table.get("engine")
    if action in ("delete", "move") and isinstance(engine, str) and engine in FORUM_ENGINES:
        can = INBOX_CLEANUP_ACTIONS.get(engine, ())
        if action not in can:
            why = INBOX_CLEANUP_WHY_NOT.get(engine, f"forumgm cannot {action} PMs on {engine} boards")
            expected = " or ".join(f'"{a}"' for a in ("off", *can))
            by_hand = "" if can else "; delete old PMs there by hand"
            check.problem("forum.inbox_cleanup", f"{expected} on {engine} ({why}{by_hand})", action)
    if action == "move" and values["inbox_cleanup_folder"] is None:
        check.problem("forum.inbox_cleanup_folder", 'the name of a PM folder the account has on the forum '
                      '(needed with inbox_cleanup = "move")')
    if action != "move" and "inbox_cleanup_folder" in table:
        check.problem("forum.inbox_cleanup_folder", 'no folder unless inbox_cleanup = "move"',
                      table["inbox_cleanup_folder"])
    return values


def _password_file(check: Checker, table: Mapping, prefix: str) -> Path | None:
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


def _zone_name(zone: ZoneInfo | None) -> str | None:
    return None if zone is None else zone.key


def _games(check: Checker, games: Any, problems: list[str]) -> tuple[GameConfig, ...]:
    """`games = ["games/mafia.toml", …]` (paths relative to the installation file) or [[games]] tables."""
    if not isinstance(games, list):
        check.problem("games", "an array of game file paths or of [[games]] tables", games)
        return ()
    loaded = []
    for index, entry in enumerate(games):
        if isinstance(entry, str):
            game = _load_game_file(check.path(entry), problems, check.held)
        elif isinstance(entry, dict):
            game = _game(Checker(problems, check.file, check.held), entry, f"games[{index}]")
        else:
            check.problem(f"games[{index}]", "a game file path or a [[games]] table", entry)
            game = None
        if game is not None:
            loaded.append(game)
    seen: set[str] = set()
    for game in loaded:
        if game.id in seen:
            check.problem("games", f"distinct game ids (id {game.id!r} is used twice)")
        seen.add(game.id)
    return tuple(loaded)


# ---------------------------------------------------------------- games

def load_game(path: str | Path) -> GameConfig:
    problems: list[str] = []
    held: list[GameConfig] = []
    game = _load_game_file(Path(path), problems, held)
    if problems:
        raise ConfigError(problems, held)
    return game


def _load_game_file(path: Path, problems: list[str], held: list[GameConfig]) -> GameConfig | None:
    data = _read_toml(path, problems)
    return None if data is None else _game(Checker(problems, path, held), data, "")


def _game(check: Checker, table: Mapping, prefix: str) -> GameConfig | None:
    before = len(check.problems)
    check.known_keys(table, GAME_KEYS, prefix)
    game_type = check.get(table, "type", _one_of(GAMES), prefix)
    zone = check.get(table, "time_zone", ZONE, prefix, default=ZoneInfo(DEFAULT_ZONE))
    start = check.get(table, "start", LOCAL_DATETIME, prefix)
    values = dict(
        id=check.get(table, "id", TEXT, prefix),
        type=game_type,
        source=check.file,
        thread_url=check.get(table, "thread_url", URL, prefix),
        seed=check.get(table, "seed", INTEGER, prefix),
        time_zone=zone,
        start=_in_zone(start, zone),
        players=_players(check, table.get("players", MISSING), prefix),
        calendar=_calendar(check, check.table(table, "calendar", None, prefix, required=True), game_type, prefix),
        vote_colors=check.get(table, "vote_colors", COLORS, prefix, default=()),
        vote_policy=check.get(table, "vote_policy", _one_of(VOTE_POLICIES), prefix, default=None),
        vote_count_every=check.get(table, "vote_count_every", DURATION_KIND, prefix, default=None),
        approval=_approval(check, check.table(table, "approval", None, prefix), game_type, prefix),
        templates=check.path(check.get(table, "templates", PATH, prefix, default=None)),
        setup=check.table(table, "setup", None, prefix),
        rules=_rules(check, check.table(table, "rules", None, prefix), game_type, prefix),
        role_delivery=check.get(table, "role_delivery", _one_of(ROLE_DELIVERY), prefix, default="pm"),
        reminder_before=check.get(table, "reminder_before", DURATION_KIND, prefix, default=timedelta(hours=1)),
        edit_window=check.get(table, "edit_window", DURATION_KIND, prefix, default=timedelta(hours=1)),
        key_prefix=prefix,
    )
    values["players"] = _with_roles(check, values["players"], table, prefix)
    if values["templates"] is not None and not values["templates"].is_dir():
        check.problem(_join(prefix, "templates"), "a folder of *.j2 templates", str(values["templates"]))
    if len(check.problems) == before:
        return GameConfig(**values)
    # the cast is what [setup] is checked against: none while the players or their roles are wrong
    cast = tuple(f"{check.file}: {_join(prefix, key)}" for key in ("players", "roles"))
    cast_right = not any(problem.startswith(cast) for problem in check.problems[before:])
    if cast_right and None not in (game_type, values["seed"], values["rules"]):
        check.held.append(GameConfig(**values))
    return None


def _rules(check: Checker, overrides: dict, game_type: str | None, prefix: str) -> dict | None:
    """The game's [rules] overrides, checked now by its engine (`make_rules` over the shipped table),
    so that every problem they have is listed with the file's others, before anything starts.
    With problems: the overrides the engine takes without the tables it named, for checking the
    game's [setup] in the same run (None when even those fail)."""
    if game_type is None:
        return overrides            # the type's own problem is named; no engine to ask
    try:
        rules_for(game_type, overrides)
    except SetupError as error:
        check.problems += [f"{check.file}: {_join(prefix, key)}: {message}" for key, message in error.problems]
        named = {key.split(".")[1].split("[")[0] for key, _ in error.problems if key.startswith("rules.")}
        right = {key: value for key, value in overrides.items() if key not in named}
        try:
            rules_for(game_type, right)
        except SetupError:
            return None
        return right
    except ModuleNotFoundError:
        pass                        # check-config names the missing engine (commands.common.setup_problems)
    return overrides


def _in_zone(start: datetime | None, zone: ZoneInfo) -> datetime | None:
    if start is None:
        return None
    return start.replace(tzinfo=zone) if start.tzinfo is None else start.astimezone(zone)


def _players(check: Checker, players: Any, prefix: str) -> tuple[PlayerConfig, ...]:
    key = _join(prefix, "players")
    if players is MISSING or not isinstance(players, list):
        check.problem(key, "an array of [[players]] tables with nick (required) and aliases, role "
                           "(players = [] while the sign-up is open)",
                      None if players is MISSING else players)
        return ()
    out, names = [], {}      # casefolded nick or alias -> whose it is (forum names ignore case)
    for index, player in enumerate(players):
        where = player_key(key, index, player.get("nick") if isinstance(player, dict) else None)
        if not isinstance(player, dict):
            check.problem(where, "a table with nick, aliases, role", player)
            continue
        check.known_keys(player, PLAYER_KEYS, where)
        nick = check.get(player, "nick", TEXT, where)
        aliases = check.get(player, "aliases", STRINGS, where, default=())
        if isinstance(nick, str):
            _name_taken(check, names, f"{where}.nick", nick, (index, nick), "a nick")
            for alias in aliases:
                _name_taken(check, names, f"{where}.aliases", alias, (index, nick), "aliases")
        out.append(PlayerConfig(nick=nick, aliases=aliases, role=check.get(player, "role", TEXT, where, default=None)))
    return tuple(out)


def _name_taken(check: Checker, names: dict[str, tuple[int, str]], key: str, name: str, player: tuple[int, str],
                what: str) -> None:
    """A nick or alias names one player only, whatever its letter case («хан» is «Хан»)."""
    index, owner = names.setdefault(name.casefold(), player)
    if index == player[0]:
        return
    if name == owner and what == "a nick":
        check.problem(key, "a nick not listed before", name)
    else:
        check.problem(key, f"{what} no other player has, whatever the letter case: {name!r} is {owner}'s "
                           "nick or alias (forum accounts are told apart without regard to case)", name)


def player_key(key: str, index: int, nick: Any = None) -> str:
    """How a problem names the player at `index` of [[players]]: counted from 1, with his nick
    ("players #6 (Лиса)"), as the host reads his file."""
    return f"{key} #{index + 1}" + (f" ({nick})" if isinstance(nick, str) and nick else "")


def _with_roles(check: Checker, players: tuple[PlayerConfig, ...], table: Mapping,
                prefix: str) -> tuple[PlayerConfig, ...]:
    """Roles from a separate file (kept out of the shared game config) merged into the players."""
    roles_path = check.path(check.get(table, "roles_file", PATH, prefix, default=None))
    if roles_path is None:
        return players
    data = _read_toml(roles_path, check.problems)
    if data is None:
        return players
    roles_check = Checker(check.problems, roles_path)
    roles_check.known_keys(data, ROLES_FILE_KEYS, "")
    roles = roles_check.table(data, "roles", None, required=True)
    nicks = {p.nick for p in players}
    for nick, role in roles.items():
        if nick not in nicks:
            roles_check.problem(f"roles.{nick}", "a nick listed in the game's [[players]]", nick)
        elif not isinstance(role, str) or not role.strip():
            roles_check.problem(f"roles.{nick}", "a role name", role)
    out = []
    for player in players:
        if player.nick in roles and player.role is not None:
            check.problem(_join(prefix, "roles_file"),
                          f"the role of {player.nick} in one place only (it is also set in [[players]])",
                          str(roles_path))
        role = roles.get(player.nick, player.role)
        out.append(PlayerConfig(player.nick, player.aliases, role if isinstance(role, str) else None))
    return tuple(out)


def _calendar(check: Checker, table: Mapping, game_type: str | None, prefix: str) -> dict[str, PhaseTimes]:
    key = _join(prefix, "calendar")
    kinds = phase_kinds(game_type)
    calendar = {}
    for kind in table:
        if kinds and kind not in kinds:
            check.problem(f"{key}.{kind}", f"a phase kind of {game_type}: " + ", ".join(kinds), table[kind])
    for kind in kinds:
        where = f"{key}.{kind}"
        if kind not in table:
            check.problem(where, 'a table: opens = "HH:MM" and closes = "HH:MM", or duration = "3d" (required)')
            continue
        entry = table[kind]
        if not isinstance(entry, dict):
            check.problem(where, "a table", entry)
            continue
        check.known_keys(entry, PHASE_TIME_KEYS, where)
        if "duration" in entry:
            if "opens" in entry or "closes" in entry:
                check.problem(where, "either duration or opens/closes, not both", entry)
            calendar[kind] = PhaseTimes(duration=check.get(entry, "duration", DURATION_KIND, where))
        else:
            calendar[kind] = PhaseTimes(opens=check.get(entry, "opens", TIME_OF_DAY, where),
                                        closes=check.get(entry, "closes", TIME_OF_DAY, where))
    return calendar


def draft_kinds(game_type: str | None) -> tuple[str, ...]:
    return COMMON_DRAFT_KINDS + getattr(shipped_rules(game_type), "draft_kinds", ())


def _approval(check: Checker, table: Mapping, game_type: str | None, prefix: str) -> dict[str, bool]:
    """kind = false sends that kind without the host; a misspelt kind is refused, never ignored."""
    key = _join(prefix, "approval")
    if game_type is not None:
        check.known_keys(table, set(draft_kinds(game_type)), key)
    return {kind: check.get(table, kind, BOOLEAN, key) for kind in table}
