"""`forumgm check-config FILE`: load an installation (or one game file) and list every problem."""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("check-config", help="validate an installation or game config file")
    parser.add_argument("file", type=Path, help="forumgm.toml (installation) or a game file")


def run(args) -> int:
    from forumgm.daemon.commands.common import setup_problems
    from forumgm.daemon.config import ConfigError, load_game, load_installation

    load = load_game if _is_game_file(args.file) else load_installation
    try:
        loaded = load(args.file)
    except ConfigError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"{len(error.problems)} problem(s)", file=sys.stderr)
        return 1
    games = loaded.games if hasattr(loaded, "games") else (loaded,)
    problems = [problem for game in games for problem in setup_problems(game)]
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    for game in games:
        print(f"{game.id}: {game.type}, {len(game.players)} players, zone {game.time_zone.key}")
    print("ok")
    return 0


def _is_game_file(path: Path) -> bool:
    """A game file has a top-level `type`; an installation has [forum]."""
    try:
        with open(path, "rb") as handle:
            return "type" in tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return False
