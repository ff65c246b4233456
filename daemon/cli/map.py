"""`forumgm map SCENARIO.toml --out FILE.svg|FILE.png [--turn N]`: draw a game's position offline.

Only a game whose engine draws maps (`Rules.maps`, engines.base.Maps: Bellum) has one. SCENARIO.toml
is either a `forumgm simulate` scenario of such a game (the map of the position after turn N, the
last by default, the start when it has no turns) or a map file of the engine's own (a Bellum
scenario file: its start position).
"""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Mapping

from forumgm.daemon.settings.games import game_maps, game_title, game_types, shipped_rules
from forumgm.daemon.settings.setup_files import with_setup_files
from forumgm.engines.base import Maps, Picture


def register(subparsers) -> None:
    parser = subparsers.add_parser("map", help="draw the map of a scenario's position (PNG or SVG; games with "
                                               "maps: Bellum)")
    parser.add_argument("scenario", type=Path, help="a simulate scenario of a game with maps, or a map file of its "
                                                    "engine (a Bellum scenario file)")
    parser.add_argument("--out", type=Path, required=True, help="the picture to write: FILE.png or FILE.svg")
    parser.add_argument("--turn", type=int, help="draw the position after this turn (default: the last; 0: the start)")


class MapInputError(ValueError):
    pass


def run(args) -> int:
    from forumgm.daemon.offline.simulate import load_scenario

    try:
        table = load_scenario(args.scenario)
        with contextlib.chdir(args.scenario.resolve().parent):     # as `forumgm simulate`: paths are the file's
            picture = draw(table, str(args.scenario), args.out.suffix.lower().lstrip("."), args.turn)
    except ValueError as error:     # a simulation's ScenarioError, MapInputError, or the engine's (Maps)
        print(f"forumgm map: {args.scenario}: {error}", file=sys.stderr)
        return 2
    try:
        args.out.write_bytes(picture.data)
    except OSError as error:
        print(f"forumgm map: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"{args.out}: {picture.title}")
    return 0


def draw(table: Mapping[str, Any], source: str, fmt: str, turn: int | None) -> Picture:
    """The map of the scenario `table` (read from `source`) after `turn`, as a `fmt` file."""
    if "game" not in table:                  # not a simulation: a map file of an engine's own?
        for maps in drawn_games().values():
            picture = maps.of_file(table, source, checked_format(maps, fmt))
            if picture is not None:
                if turn:
                    raise MapInputError("--turn: a scenario file has only its start (--turn 0)")
                return picture
    maps = simulated_maps(table.get("game"))
    fmt = checked_format(maps, fmt)
    last = len(table.get("phases") or [])
    turn = last if turn is None else turn
    if not 0 <= turn <= last:
        raise MapInputError(f"--turn: expected 0..{last} (the scenario has {last} turn(s))")
    if turn == 0:
        return maps.start(with_setup_files(shipped_rules(table["game"]), table.get("setup") or {}), fmt)
    from forumgm.daemon.offline.simulate import play_scenario

    return maps.draw(play_scenario(table).states[turn], fmt)


def drawn_games() -> dict[str, Maps]:
    """The games whose engines draw maps, by type."""
    return {game: maps for game in game_types() if (maps := game_maps(game)) is not None}


def simulated_maps(game: Any) -> Maps:
    """The maps of the game a simulation plays; MapInputError when its engine draws none."""
    drawn = drawn_games()
    if game not in drawn:
        expected = " or ".join(f'"{name}"' for name in drawn)
        why = f": the {game} engine («{game_title(game)}») draws no maps" if game in game_types() else ""
        raise MapInputError(f"game: expected {expected} (got {game!r}){why}")
    return drawn[game]


def checked_format(maps: Maps, fmt: str) -> str:
    if fmt not in maps.formats:
        suffixes = " or ".join(f".{name}" for name in maps.formats)
        raise MapInputError(f"--out must end in {suffixes} (got a .{fmt or '…'} file)")
    return fmt
