"""Playing the Bellum rule scenarios of tests/scenarios/bellum through `forumgm simulate`."""
from __future__ import annotations

import tomllib
from pathlib import Path

from forumgm.daemon.settings.setup_files import with_setup_files
from forumgm.daemon.offline.simulate import run_scenario
from forumgm.engines.bellum import RULES
from forumgm.engines.bellum.setup import game_scenario

SCENARIOS = Path(__file__).parent / "scenarios" / "bellum"
SMALL_MAP = SCENARIOS / "small_map.toml"


def setup_of(table: dict) -> dict:
    """A [setup] table with the files it names read, as the edge hands it to the engine."""
    return with_setup_files(RULES, table)


def shipped_scenario(name: str = "370"):
    """A shipped scenario (config/bellum/scenarios/NAME.toml), read as a game naming it would."""
    return game_scenario(setup_of({"scenario": name})["scenario"])


def scenario(name: str) -> dict:
    """A scenario table with its map path made absolute (it is written relative to the file)."""
    with open(SCENARIOS / f"{name}.toml", "rb") as handle:
        table = tomllib.load(handle)
    table["setup"]["scenario"] = str(SCENARIOS / table["setup"]["scenario"])
    return table


def play(name: str, texts, **changes) -> dict:
    table = scenario(name)
    table["setup"].update(changes)
    return run_scenario(table, texts)


def events_of(phase: dict, kind: str) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "type"} for e in phase["events"] if e["type"] == kind]


def battle_in(phase: dict, province: str, number: int = 5) -> dict:
    (found,) = [b for b in phase["battles"] if b["province"] == province and b["phase"] == number]
    return found


def total_people(people: dict) -> int:
    return sum(n for here in people.values() for n in here.values())
