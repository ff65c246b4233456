"""`forumgm map SCENARIO.toml --out FILE.svg|FILE.png [--turn N]`: draw a Bellum position offline.

SCENARIO.toml is either a `forumgm simulate` scenario of a Bellum game (the map of the position
after turn N, the last by default, the start when it has no turns) or a Bellum scenario file
itself (its start position).
"""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("map", help="draw the Bellum map of a scenario's position (PNG or SVG)")
    parser.add_argument("scenario", type=Path, help="a simulate scenario of a Bellum game, or a Bellum scenario file")
    parser.add_argument("--out", type=Path, required=True, help="the picture to write: FILE.png or FILE.svg")
    parser.add_argument("--turn", type=int, help="draw the position after this turn (default: the last; 0: the start)")


def run(args) -> int:
    from forumgm.daemon.simulate import ScenarioError as SimulateError
    from forumgm.engines.bellum.scenario import ScenarioError

    fmt = args.out.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        print(f"forumgm map: --out must end in .png or .svg (got {args.out})", file=sys.stderr)
        return 2
    try:
        scenario, position, title = read_position(args.scenario, args.turn)
    except (ScenarioError, SimulateError, MapInputError) as error:
        print(f"forumgm map: {args.scenario}: {error}", file=sys.stderr)
        return 2
    from forumgm.engines.bellum.mapdraw import draw_map

    picture = draw_map(scenario, position["people"], position["owners"], position["subjugated"], fmt=fmt,
                       factions=position.get("factions"), title=title)
    try:
        args.out.write_bytes(picture)
    except OSError as error:
        print(f"forumgm map: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 1
    print(f"{args.out}: {title}")
    return 0


class MapInputError(ValueError):
    pass


def read_position(path: Path, turn: int | None):
    """(scenario, position in simulate shapes, title) of the file at `path`."""
    from forumgm.daemon.simulate import load_scenario as load_simulation
    from forumgm.engines.bellum.mapdraw import start_position
    from forumgm.engines.bellum.scenario import load_scenario, parse_scenario
    from forumgm.engines.bellum.turnmap import map_title

    table = load_simulation(path)
    if "provinces" in table:                       # a scenario file: its start
        if turn:
            raise MapInputError("--turn: a scenario file has only its start (--turn 0)")
        scenario = parse_scenario(table, str(path))
        return scenario, start_position(scenario), map_title(scenario.year, 0, 0)
    if table.get("game") != "bellum":
        raise MapInputError(f"game: expected \"bellum\" (got {table.get('game')!r})")
    name = (table.get("setup") or {}).get("scenario")
    if not isinstance(name, str):
        raise MapInputError("setup.scenario: expected a shipped scenario name such as \"370\" or a file path")
    scenario = load_scenario(name, base=path.parent)
    phases = table.get("phases") or []
    last = len(phases)
    turn = last if turn is None else turn
    if not 0 <= turn <= last:
        raise MapInputError(f"--turn: expected 0..{last} (the scenario has {last} turn(s))")
    if turn == 0:
        return scenario, start_position(scenario), map_title(scenario.year, 0, 0)
    from forumgm.daemon.games import rules_for
    from forumgm.daemon.simulate import run_scenario
    from forumgm.engines.bellum.setup import setup_rules

    with contextlib.chdir(path.resolve().parent):     # as `forumgm simulate`: paths are the file's
        result = run_scenario(table)
    # the simulation ran: its [setup.rules] are readable
    years = setup_rules(table["setup"], rules_for("bellum").config).years_per_turn
    return scenario, result["phases"][turn - 1], map_title(scenario.year, years, turn)
