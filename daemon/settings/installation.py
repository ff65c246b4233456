"""Installation and game configs: TOML in, checked frozen records out (settings.records); here the
installation file, checked in one pass: the forum, the store, the daemon's pace, the web page,
[notify], and the games it lists (each read by settings.game).

Every problem of every file is collected before anything is refused, so the host fixes a
config in one pass: `ConfigError.problems` is a list of "file: key: expected … (got …)".
Unknown keys are errors (a typo must not silently fall back to a default). Each game's own
`[setup]` and `[rules]` tables are passed through untouched: their meaning belongs to that
game's engine. Its `[rules]` are checked here all the same (the engine's `make_rules` says what is
wrong), as they need no players; `[setup]` is checked once the players are known (`Rules.setup`).
"""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from forumgm.daemon.settings.game import load_game_file, read_game
from forumgm.daemon.settings.notify import read_notify
from forumgm.daemon.settings.records import DEADLINE_GRACE, ConfigError, ForumConfig, GameConfig, Installation
from forumgm.daemon.settings.values import (BOOLEAN, COUNT, DURATION_KIND, PATH, PORT, POSITIVE, SECONDS, SHARE, TEXT,
                                            URL, ZONE, Checker, one_of, password_file, read_table)
from forumgm.daemon.store import RAW_PAGES_KEPT
from forumgm.parsers.forums import ENGINES

FORUM_ENGINES = tuple(ENGINES)        # the engines the parsers read: listed once, in parsers/forums
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
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


def load_installation(path: str | Path) -> Installation:
    problems: list[str] = []
    path = Path(path)
    data = read_table(path, problems)
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
        deadline_grace=check.get(daemon, "deadline_grace", COUNT, "daemon", default=DEADLINE_GRACE),
        inbox_full_read=check.get(daemon, "inbox_full_read", POSITIVE, "daemon", default=1800),
        log_level=check.get(daemon, "log_level", one_of(LOG_LEVELS), "daemon", default="INFO"),
        web_host=check.get(web, "host", TEXT, "web", default="127.0.0.1"),
        web_port=check.get(web, "port", PORT, "web", default=8080),
        games=_games(check, data.get("games", []), problems),
        web_password_env=check.get(web, "password_env", TEXT, "web", default=None),
        web_password_file=password_file(check, web, "web"),
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
        engine=check.get(table, "engine", one_of(FORUM_ENGINES), "forum"),
        base_url=check.get(table, "base_url", URL, "forum"),
        account=check.get(table, "account", TEXT, "forum"),
        password_env=check.get(table, "password_env", TEXT, "forum", default=None),
        password_file=password_file(check, table, "forum"),
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
        inbox_cleanup=check.get(table, "inbox_cleanup", one_of(INBOX_CLEANUP), "forum", default="off"),
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
            game = load_game_file(check.path(entry), problems, check.held)
        elif isinstance(entry, dict):
            game = read_game(Checker(problems, check.file, check.held), entry, f"games[{index}]")
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
