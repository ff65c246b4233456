"""What several spine commands share: loading the installation and opening its store."""
from __future__ import annotations

import sys
from pathlib import Path

from forumgm.daemon.config import ConfigError, Installation, load_installation
from forumgm.daemon.store import Store


def add_config_argument(parser) -> None:
    parser.add_argument("--config", type=Path, required=True, help="the installation file, forumgm.toml")


def open_installation(path: Path) -> tuple[Installation, Store] | None:
    """The loaded config and its store, or None after printing every config problem."""
    try:
        installation = load_installation(path)
    except ConfigError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return None
    return installation, Store(installation.storage)


def open_game(path: Path, game_id: str, command: str):
    """(installation, store, GameRun) for a command about one game, or None after saying why."""
    from forumgm.daemon.run import game_runs

    opened = open_installation(path)
    if opened is None:
        return None
    installation, store = opened
    games = {game.id: game for game in game_runs(installation)}
    if game_id not in games:
        print(f"forumgm {command}: no game {game_id!r} in {path} (games: {', '.join(games)})", file=sys.stderr)
        return None
    return installation, store, games[game_id]
