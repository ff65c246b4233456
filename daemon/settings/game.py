"""A game's file (or [[games]] table) checked into a GameConfig: its type, clock, players and roles,
calendar, vote settings, [approval], and its [rules] as its engine takes them."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Mapping
from zoneinfo import ZoneInfo

from forumgm.daemon.settings.games import UnknownGame, game_types, phase_kinds, rules_for, shipped_rules
from forumgm.daemon.settings.records import ConfigError, GameConfig, PhaseTimes, PlayerConfig
from forumgm.daemon.settings.toml_file import TomlFileError, read_toml
from forumgm.daemon.settings.values import (BOOLEAN, COLORS, DURATION_KIND, INTEGER, LOCAL_DATETIME, MISSING, PATH,
                                            STRINGS, TEXT, TIME_OF_DAY, URL, ZONE, Checker, join_key, one_of,
                                            read_table)
from forumgm.config import DECLENSION_FILE, read_declension
from forumgm.engines.base import SetupError

DEFAULT_ZONE = "Europe/Moscow"
# The draft kinds every game's [approval] table may name, beside its engine's (Rules.draft_kinds). A
# kind left out needs the host's approval; the host's own notices and the sign-up proposal always do,
# so they are not listed.
COMMON_DRAFT_KINDS = ("receipt", "vote_count", "vote_count_final", "final_announcement", "commitment", "game_record")
ROLE_DELIVERY = ("pm", "link")
VOTE_POLICIES = ("last", "first")
GAME_KEYS = {"id", "type", "thread_url", "seed", "time_zone", "start", "players", "roles_file", "calendar",
             "role_delivery", "reminder_before", "edit_window",
             "vote_colors", "vote_policy", "vote_count_every", "approval", "templates", "setup", "rules"}
PLAYER_KEYS = {"nick", "aliases", "role", "gender"}
GENDER = one_of(("f", "m"))
PHASE_TIME_KEYS = {"opens", "closes", "duration"}
ROLES_FILE_KEYS = {"roles"}


def load_game(path: str | Path) -> GameConfig:
    problems: list[str] = []
    held: list[GameConfig] = []
    game = load_game_file(Path(path), problems, held)
    if problems:
        raise ConfigError(problems, held)
    return game


def load_game_file(path: Path, problems: list[str], held: list[GameConfig]) -> GameConfig | None:
    data = read_table(path, problems)
    return None if data is None else read_game(Checker(problems, path, held), data, "")


def read_game(check: Checker, table: Mapping, prefix: str) -> GameConfig | None:
    before = len(check.problems)
    check.known_keys(table, GAME_KEYS, prefix)
    game_type = check.get(table, "type", one_of(game_types()), prefix)
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
        vote_policy=check.get(table, "vote_policy", one_of(VOTE_POLICIES), prefix, default=None),
        vote_count_every=check.get(table, "vote_count_every", DURATION_KIND, prefix, default=None),
        approval=_approval(check, check.table(table, "approval", None, prefix), game_type, prefix),
        templates=check.path(check.get(table, "templates", PATH, prefix, default=None)),
        setup=check.table(table, "setup", None, prefix),
        rules=_rules(check, check.table(table, "rules", None, prefix), game_type, prefix),
        role_delivery=check.get(table, "role_delivery", one_of(ROLE_DELIVERY), prefix, default="pm"),
        reminder_before=check.get(table, "reminder_before", DURATION_KIND, prefix, default=timedelta(hours=1)),
        edit_window=check.get(table, "edit_window", DURATION_KIND, prefix, default=timedelta(hours=1)),
        key_prefix=prefix,
    )
    values["players"] = _with_roles(check, values["players"], table, prefix)
    if values["templates"] is not None and not values["templates"].is_dir():
        check.problem(join_key(prefix, "templates"), "a folder of *.j2 templates", str(values["templates"]))
    elif values["templates"] is not None:
        try:
            read_declension(values["templates"] / DECLENSION_FILE)
        except ValueError as error:
            check.problems.append(f"{check.file}: {join_key(prefix, 'templates')}: {error}")
    if len(check.problems) == before:
        return GameConfig(**values)
    # the cast is what [setup] is checked against: none while the players or their roles are wrong
    cast = tuple(f"{check.file}: {join_key(prefix, key)}" for key in ("players", "roles"))
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
        check.problems += [f"{check.file}: {join_key(prefix, key)}: {message}" for key, message in error.problems]
        named = {key.split(".")[1].split("[")[0] for key, _ in error.problems if key.startswith("rules.")}
        right = {key: value for key, value in overrides.items() if key not in named}
        try:
            rules_for(game_type, right)
        except SetupError:
            return None
        return right
    except UnknownGame:
        pass                        # check-config names the missing engine (cli/common.py setup_problems)
    return overrides


def _in_zone(start: datetime | None, zone: ZoneInfo) -> datetime | None:
    if start is None:
        return None
    return start.replace(tzinfo=zone) if start.tzinfo is None else start.astimezone(zone)


def _players(check: Checker, players: Any, prefix: str) -> tuple[PlayerConfig, ...]:
    key = join_key(prefix, "players")
    if players is MISSING or not isinstance(players, list):
        check.problem(key, "an array of [[players]] tables with nick (required) and aliases, role, gender "
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
        out.append(PlayerConfig(nick=nick, aliases=aliases, role=check.get(player, "role", TEXT, where, default=None),
                                gender=check.get(player, "gender", GENDER, where, default=None)))
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
    data = read_table(roles_path, check.problems)
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
            check.problem(join_key(prefix, "roles_file"),
                          f"the role of {player.nick} in one place only (it is also set in [[players]])",
                          str(roles_path))
        role = roles.get(player.nick, player.role)
        out.append(replace(player, role=role if isinstance(role, str) else None))
    return tuple(out)


def _calendar(check: Checker, table: Mapping, game_type: str | None, prefix: str) -> dict[str, PhaseTimes]:
    key = join_key(prefix, "calendar")
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
    rules = shipped_rules(game_type)
    return COMMON_DRAFT_KINDS + (() if rules is None else rules.draft_kinds)


def _approval(check: Checker, table: Mapping, game_type: str | None, prefix: str) -> dict[str, bool]:
    """kind = false sends that kind without the host; a misspelt kind is refused, never ignored."""
    key = join_key(prefix, "approval")
    if game_type is not None:
        check.known_keys(table, set(draft_kinds(game_type)), key)
    return {kind: check.get(table, kind, BOOLEAN, key) for kind in table}


def rules_on_file(config: GameConfig) -> dict | None:
    """The game's [rules] as its file says now (the daemon compares them with the frozen ones every
    tick, docs/host-actions.md); None when the file cannot be read or no longer has the game."""
    try:
        table = read_toml(config.source)
    except TomlFileError:
        return None
    if config.key_prefix:                       # "games[N]": written inline in the installation file
        index = int(config.key_prefix.removeprefix("games[").removesuffix("]"))
        games = table.get("games")
        table = games[index] if isinstance(games, list) and index < len(games) else None
    if not isinstance(table, Mapping) or table.get("id") != config.id:
        return None
    rules = table.get("rules", {})
    return dict(rules) if isinstance(rules, Mapping) else None
