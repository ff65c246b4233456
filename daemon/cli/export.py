"""`forumgm export --config FILE GAME [--output FILE]`: the game's archive as one JSON file, which
anyone can check with `forumgm verify` once the game is over (its seed and salt revealed)."""
from __future__ import annotations

from pathlib import Path

from forumgm.daemon.cli.common import add_config_argument, open_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("export", help="write a game's archive (JSON) for `forumgm verify`")
    add_config_argument(parser)
    parser.add_argument("game", help="game id")
    parser.add_argument("--output", "-o", type=Path, help="the file to write (default: GAME.json here)")


def run(args) -> int:
    from forumgm.daemon.record.archive import archive_text, build_archive

    opened = open_game(args.config, args.game, "export")
    if opened is None:
        return 2
    _, store, game = opened
    archive = build_archive(game, store)
    path = args.output or Path(f"{args.game}.json")
    path.write_text(archive_text(archive), encoding="utf-8")
    resolved = sum(1 for phase in archive["phases"] if phase["outcome"] is not None)
    revealed = ("the seed and salt revealed: `forumgm verify` checks it" if archive["seed"] is not None
                else "the game is not over: its seed and salt stay secret, so it cannot be verified yet")
    print(f"{path}: {args.game}, {resolved} resolved phase(s); {revealed}")
    return 0
