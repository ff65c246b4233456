"""`forumgm rehearse GAME_FILE`: the host's own game played on the local forum on a fast clock."""
from __future__ import annotations

import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("rehearse", help="play your game file on a local forum, phases compressed")
    parser.add_argument("game_file", type=Path, help="the game file to rehearse (it is copied, never changed)")
    parser.add_argument("--phase-seconds", type=float, default=15,
                        help="real seconds the game's longest phase takes (default 15)")
    parser.add_argument("--autoplay", action="store_true",
                        help="stand-in players: each living player sends a plausible vote or orders each phase")
    parser.add_argument("--auto-approve", action="store_true", help="approve every draft so it gets posted")
    parser.add_argument("--max-phases", type=int, default=30,
                        help="stop after this many phases if the game has not ended (default 30)")
    parser.add_argument("--dir", type=Path, default=None, help="where to write the rehearsal's config and database")
    parser.add_argument("--port", type=int, default=0, help="local forum port (default: a free one)")
    parser.add_argument("--web-port", type=int, default=0, help="the host's page port (default: a free one)")


def run(args) -> int:
    from forumgm.daemon.offline.rehearse import run_rehearsal

    return run_rehearsal(args.game_file, args.phase_seconds, args.autoplay, args.auto_approve, args.max_phases,
                         args.dir, args.port, sys.stdout, web_port=args.web_port)
