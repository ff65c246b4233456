"""Shared helpers for the Legends tests: scenarios through `forumgm simulate`'s driver."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from forumgm.daemon.cli import main
from forumgm.daemon.offline.simulate import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios" / "legends"


def simulate_file(name: str) -> dict:
    """The JSON `forumgm simulate` prints for a shipped scenario (the CLI, in process)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["simulate", str(SCENARIOS / name)]) == 0
    return json.loads(out.getvalue())


def play(players: dict[str, str], *phases: dict, seed: int = 1, **setup) -> dict:
    """A scenario from nick -> role and phase tables (kind, number, orders / votes)."""
    scenario = {"game": "legends", "seed": seed,
                "setup": {"players": [{"nick": n, "role": r} for n, r in players.items()], **setup},
                "phases": list(phases)}
    return run_scenario(scenario)


def night(number: int, **orders: str) -> dict:
    return {"kind": "night", "number": number, "orders": orders}


def day(number: int, **votes: str) -> dict:
    return {"kind": "day", "number": number, "votes": votes}


def events(phase: dict, kind: str) -> list[dict]:
    return [e for e in phase["events"] if e["type"] == kind]


def all_accepted(phase: dict) -> bool:
    return all(line["ok"] for lines in phase["receipts"].values() for line in lines)


def eliminated(phase: dict) -> dict[str, str]:
    return {e["nick"]: e["cause"] for e in phase["eliminated"]}
