"""`forumgm demo`: a scripted Legends game on the local forum, hosted by the daemon."""
from __future__ import annotations

import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="play a scripted game on a local forum and host it")
    parser.add_argument("--duration", type=float, default=180,
                        help="real seconds to run at most (default 180); the demo stops when its game is over")
    parser.add_argument("--speed", type=float, default=1440,
                        help="game seconds per real second (default 1440: a game day a minute)")
    parser.add_argument("--auto-approve", action="store_true", help="approve every draft so it gets posted")
    parser.add_argument("--dir", type=Path, default=None, help="where to write the config and database")
    parser.add_argument("--port", type=int, default=0, help="local forum port (default: a free one)")
    parser.add_argument("--web-port", type=int, default=0, help="the host's page port (default: a free one)")


def run(args) -> int:
    from forumgm.daemon.offline.demo import run_demo

    return run_demo(args.duration, args.speed, args.auto_approve, args.dir, args.port, sys.stdout,
                    web_port=args.web_port)
