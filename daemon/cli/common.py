"""What several spine commands share: loading the installation and opening its store."""
from __future__ import annotations

import re
import sqlite3
import sys
from pathlib import Path
from urllib.parse import urlsplit

from forumgm.daemon.settings.game import player_key
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import ConfigError, Installation
from forumgm.daemon.store import DAMAGED, Store, store_problem, unwritable
from forumgm.daemon.store.lost import StoreGone


ENGINE_PLAYER = re.compile(r"setup\.players\[(?P<index>\d+)\](?P<rest>.*)")


def add_config_argument(parser) -> None:
    parser.add_argument("--config", type=Path, required=True, help="the installation file, forumgm.toml")


def add_by_argument(parser) -> None:
    parser.add_argument("--by", default=None, help="who acts (default: the login name); written to the audit log")


def actor(args) -> str:
    import getpass

    return args.by or getpass.getuser()


def open_installation(path: Path, check_engines: bool = False,
                      check_store: bool = False) -> tuple[Installation, Store] | None:
    """The loaded config and its store, or None after printing every config problem.

    With `check_engines` the engines check their own tables too ([setup], the players' roles,
    [rules]): the daemon never starts on a game whose first tick would fail. With `check_store` the
    whole file is checked for damage (status: seconds on a big store, so not every command)."""
    try:
        installation = load_installation(path)
    except ConfigError as error:
        setups = [problem for game in error.games for problem in setup_problems(game)] if check_engines else []
        print("\n".join(error.problems + setups), file=sys.stderr)
        return None
    problems = ([problem for game in installation.games for problem in setup_problems(game)]
                + thread_problems(installation) + picture_problems(installation)) if check_engines else []
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return None
    store = open_store(installation, check_store)
    if store is None:
        return None
    problems = played_nick_problems(installation, store) if check_engines else []
    if problems:
        print("\n".join(problems), file=sys.stderr)
        store.close()
        return None
    return installation, store


def open_store(installation: Installation, check: bool = False) -> Store | None:
    """The installation's store, or None after one line saying why it cannot be used: SQLite's
    error, a file or folder it could only read, or (`check`) damage found in the file."""
    problem = store_check(installation.storage, installation.raw_pages_kept, check)
    if isinstance(problem, Store):
        return problem
    print(problem, file=sys.stderr)
    return None


def store_check(path: Path, raw_pages_kept: int, check: bool) -> Store | str:
    """The open store, or the line saying why it cannot be used."""
    try:
        store = Store(path, raw_pages_kept=raw_pages_kept)
    except sqlite3.Error as error:
        return store_problem(path, error)
    except StoreGone as gone:
        return str(gone)
    try:
        problem = unwritable(path)
        if problem is None and check and (found := store.damage()) is not None:
            problem = f"{found} ({DAMAGED})"
    except sqlite3.Error as error:
        problem = store_problem(path, error).removeprefix(f"the store {path} cannot be used: ")
    if problem is None:
        return store
    store.close()
    return f"the store {path} cannot be used: {problem}"


def played_nick_problems(installation: Installation, store: Store) -> list[str]:
    """Players renamed in the config after their game dealt the roles (see nick_checks)."""
    from forumgm.daemon.settings.nick_checks import dealt_nick_problems
    from forumgm.daemon.runtime.loop import game_runs

    return [problem for game in game_runs(installation) for problem in dealt_nick_problems(game, store)]


def setup_problems(game) -> list[str]:
    """What the game's own engine says of its setup (the engine owns those keys)."""
    from forumgm.daemon.settings.games import UnknownGame, rules_for
    from forumgm.daemon.settings.setup_files import game_setup
    from forumgm.engines.base import SetupError

    if game.signup_open:
        return []   # the engine sees the players only once the host has written them in
    try:
        rules = rules_for(game.type, game.rules)
        rules.setup(game_setup(rules, game), game.seed)
    except UnknownGame:
        return [f"{game.source}: type: the {game.type} engine is not part of this forumgm yet"]
    except SetupError as error:
        return [f"{game.source}: {_in_file(game, _file_key(key, game))}: {message}" for key, message in error.problems]
    return []


def setup_warnings(game) -> list[str]:
    """What the game's engine finds odd in its setup yet playable (`Rules.setup_warnings`, none by default):
    a Bellum map without the kingdom province, a province no link reaches. Nothing when the setup
    cannot be read: setup_problems names that."""
    from forumgm.daemon.settings.games import UnknownGame, rules_for
    from forumgm.daemon.settings.setup_files import game_setup
    from forumgm.engines.base import SetupError

    try:
        rules = rules_for(game.type, game.rules)
        found = rules.setup_warnings(game_setup(rules, game))
    except (UnknownGame, SetupError):      # an unknown game type: setup_problems names it
        return []
    return [f"{game.source}: {_in_file(game, _file_key(key, game))}: {message}" for key, message in found]


def thread_problems(installation) -> list[str]:
    """A game's thread must be one the forum's engine can name on [forum] base_url: forumgm reads
    it by its number there, so a thread address of another engine could never be read, and one of
    another board would be read as a different thread of this one."""
    from forumgm.daemon.forum import ForumError, open_forum

    try:
        forum = open_forum(installation.forum, "")      # builds the URLs only; it logs in on first use
    except (ForumError, OSError, ValueError):
        return []        # the forum table's own problems are named where it is loaded
    example = forum.url(forum.spec.thread_page.url(1, thread="123", start=0))
    problems = []
    for game in installation.games:
        try:
            forum.thread_id(game.thread_url)
            same_board = _same_board(game.thread_url, forum.settings.base_url)
        except ForumError:
            same_board = False
        if not same_board:
            problems.append(f"{game.source}: {_in_file(game, 'thread_url')}: expected the address of a "
                            f"{forum.spec.name} thread on {forum.settings.base_url}, such as {example} "
                            f"(got {game.thread_url!r})")
    return problems


def _same_board(thread_url: str, base_url: str) -> bool:
    """Whether a thread address is on the board at `base_url`, written with http or https, with or
    without www."""
    thread, base = urlsplit(thread_url), urlsplit(base_url)
    return ((thread.hostname or "").removeprefix("www."), thread.port) == \
        ((base.hostname or "").removeprefix("www."), base.port) and thread.path.startswith(base.path or "/")


def picture_problems(installation) -> list[str]:
    """A game whose engine draws a map with each turn report needs a way to show it in the thread:
    the forum's attachments (forumgm uploads files on phpBB, MyBB and SMF) or the page's public
    address ([web] public_url)."""
    from forumgm.daemon.forum import ADAPTERS, Forum
    from forumgm.daemon.settings.games import game_maps

    adapter = ADAPTERS.get(installation.forum.engine, Forum)
    if installation.web_public_url or adapter.attach is not Forum.attach:
        return []
    problems = []
    for game in installation.games:
        if game_maps(game.type) is not None:        # a missing engine has none: setup_problems names it
            problems.append(f"{installation.source}: web.public_url: expected the page's public address, e.g. "
                            f"\"https://gm.example.org/forumgm/\" (game {game.id} posts a map with each turn report; "
                            f"forumgm attaches no files on {installation.forum.engine}, so the forum shows the map "
                            "by address)")
    return problems


def _in_file(game, key: str) -> str:
    """`key` as the host finds it in the game's file: under `games[N].` for a game written inline."""
    return f"{game.key_prefix}.{key}" if game.key_prefix else key


def _file_key(key: str, game) -> str:
    """The engine sees [[players]] inside its setup table; the host wrote them at the top of the file,
    and counts them from 1 by nick."""
    numbered = ENGINE_PLAYER.fullmatch(key)
    if numbered:
        index = int(numbered["index"])
        nick = game.players[index].nick if index < len(game.players) else None
        return player_key("players", index, nick) + numbered["rest"]
    return key.removeprefix("setup.") if key == "setup.players" else key


def open_game(path: Path, game_id: str, command: str):
    """(installation, store, GameRun) for a command about one game, or None after saying why."""
    from forumgm.daemon.runtime.loop import game_runs

    opened = open_installation(path)
    if opened is None or not known_game(opened[0], game_id, command):
        return None
    installation, store = opened
    return installation, store, next(game for game in game_runs(installation) if game.id == game_id)


def known_game(installation: Installation, game_id: str, command: str) -> bool:
    """True when the installation has the game; else says which games it has."""
    games = [game.id for game in installation.games]
    if game_id not in games:
        print(f"forumgm {command}: no game {game_id!r} in {installation.source} (games: {', '.join(games)})",
              file=sys.stderr)
    return game_id in games
