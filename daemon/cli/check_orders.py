"""`forumgm check-orders`: the receipt a player would get for an order text, as JSON."""
from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path


def register(subparsers) -> None:
    from forumgm.daemon.settings.games import game_types

    parser = subparsers.add_parser(
        "check-orders", help="parse an order text as the daemon would and print the receipt as JSON")
    parser.add_argument("--game", required=True, help=" | ".join(game_types()))
    parser.add_argument("--scenario", type=Path, required=True,
                        help="scenario TOML whose [setup] (and seed) describe the players")
    parser.add_argument("--from", dest="sender", required=True, help="the sender's nickname")
    parser.add_argument("--phase", default=None, help="phase key such as night-1 (default: the game's first phase)")
    parser.add_argument("file", nargs="?", type=Path, help="the order text (default: standard input)")


def run(args) -> int:
    from forumgm.config import load_texts
    from forumgm.daemon.offline.simulate import ScenarioError, check_orders, load_scenario

    text = _order_text(args.file)
    if text is None:
        return 2
    try:
        # the scenario file's path is the caller's; paths inside it are the scenario file's
        scenario = load_scenario(args.scenario)
        with contextlib.chdir(args.scenario.resolve().parent):
            result = check_orders(scenario, args.game, args.sender, text, args.phase, load_texts())
    except ScenarioError as error:
        print(f"forumgm check-orders: {args.scenario}: {error}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def _order_text(file: Path | None) -> str | None:
    """The order text, or None after saying in one line why it cannot be read (no traceback)."""
    name = str(file) if file else "standard input"
    try:
        data = file.read_bytes() if file else sys.stdin.buffer.read()
        return data.decode("utf-8")
    except OSError as error:
        print(f"forumgm check-orders: {name}: cannot read it: {error.strerror}", file=sys.stderr)
    except UnicodeDecodeError as error:
        print(f"forumgm check-orders: {name}: expected UTF-8 text (byte {data[error.start]:#04x} at offset "
              f"{error.start} is not)", file=sys.stderr)
    return None
