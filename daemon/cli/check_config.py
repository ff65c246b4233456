"""`forumgm check-config FILE`: load an installation (or one game file) and list every problem."""
from __future__ import annotations

import sys
from pathlib import Path

from forumgm.daemon.settings.toml_file import TomlFileError, read_toml


def register(subparsers) -> None:
    parser = subparsers.add_parser("check-config", help="validate an installation or game config file")
    parser.add_argument("file", type=Path, help="forumgm.toml (installation) or a game file")


def run(args) -> int:
    from forumgm.daemon.cli.common import picture_problems, setup_problems, setup_warnings, thread_problems
    from forumgm.daemon.settings.nick_checks import gender_notes, mixed_script_warnings
    from forumgm.daemon.settings.game import load_game
    from forumgm.daemon.settings.installation import load_installation
    from forumgm.daemon.settings.records import ConfigError

    load = load_game if _is_game_file(args.file) else load_installation
    try:
        loaded = load(args.file)
    except ConfigError as error:
        problems = error.problems + [problem for game in error.games for problem in setup_problems(game)]
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    games = loaded.games if hasattr(loaded, "games") else (loaded,)
    problems = (secret_problems(loaded) + store_problems(loaded) + thread_problems(loaded) + picture_problems(loaded)
                if hasattr(loaded, "games") else [])
    problems += [problem for game in games for problem in setup_problems(game)]
    for warning in (warning for game in games for warning in mixed_script_warnings(game) + setup_warnings(game)):
        print(f"warning: {warning}", file=sys.stderr)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    for game in games:
        print(f"{game.id}: {game.type}, {len(game.players)} players, zone {game.time_zone.key}")
        for note in gender_notes(game):
            print(note)
    print("ok")
    return 0


def secret_problems(installation) -> list[str]:
    """The passwords `run` and `web` will need, read now (never shown): a variable that is not
    set, a web password too short. A password file's problems are the loader's."""
    from forumgm.daemon.settings.secrets import SecretError, read_password, web_password_problem

    sources = [("forum", installation.forum.password_env, installation.forum.password_file, "the forum password"),
               ("web", installation.web_password_env, installation.web_password_file, "the web page's password")]
    problems = []
    for table, env, file, what in sources:
        try:
            password = read_password(env, file, what)
        except SecretError as error:
            key = "password_env" if env else "password_file"
            problems.append(f"{installation.source}: {table}.{key}: {error} (where forumgm runs)")
            continue
        if table == "web" and password and web_password_problem(password):
            key = "password_env" if env else "password_file"
            problems.append(f"{installation.source}: web.{key}: expected {web_password_problem(password)}")
    return problems


def store_problems(installation) -> list[str]:
    """What the installation's store says of the config: nicks changed since the roles were dealt."""
    from forumgm.daemon.cli.common import played_nick_problems, store_check
    from forumgm.daemon.store.lost import played_games

    if not installation.storage.exists() and not played_games(installation.storage):
        return []      # nothing dealt yet (and check-config creates no store)
    store = store_check(installation.storage, installation.raw_pages_kept, check=True)
    if isinstance(store, str):
        return [store]
    try:
        return played_nick_problems(installation, store)
    finally:
        store.close()


def _is_game_file(path: Path) -> bool:
    """A game file has a top-level `type`; an installation has [forum]."""
    try:
        return "type" in read_toml(path)
    except TomlFileError:
        return False            # the installation's loader names the problem
