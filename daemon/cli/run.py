"""`forumgm run --config FILE`: the daemon loop (sync, inputs, resolve due phases, publish)."""
from __future__ import annotations

import logging
import sys
from datetime import datetime

from forumgm.daemon.cli.common import add_config_argument, open_installation


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run the daemon until SIGTERM/SIGINT")
    add_config_argument(parser)
    parser.add_argument("--log-level", choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                        help="overrides [daemon] log_level")
    parser.add_argument("--once", action="store_true", help="one tick, then exit")
    parser.add_argument("--start-at", type=datetime.fromisoformat, metavar="ISO",
                        help="demo/tests: game time starts here (aware ISO time) instead of now")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="demo/tests: game seconds per real second with --start-at (default 1)")


def run(args) -> int:
    from forumgm.daemon.tick.clock import FastClock, SystemClock
    from forumgm.daemon.runtime.lock import AlreadyRunning, take_daemon_lock
    from forumgm.daemon.forum import open_forum
    from forumgm.daemon.runtime.loop import Daemon, StopFlag, configure_logging, run_loop
    from forumgm.daemon.settings.secrets import SecretError, install_redaction, load_secrets
    from forumgm.daemon.runtime.wakeups import polling_text

    # first of all: a SIGTERM while the daemon starts (the store migrating, the secrets read) ends
    # it as one between ticks does, exit 0, not killed by the signal
    stop = StopFlag()
    stop.install()
    opened = open_installation(args.config, check_engines=True)
    if opened is None:
        return 2
    installation, store = opened
    try:
        lock = take_daemon_lock(installation.storage)
    except AlreadyRunning as error:
        print(f"forumgm run: {error}", file=sys.stderr)
        return 2
    configure_logging(args.log_level or installation.log_level)
    try:
        secrets = load_secrets(installation.forum)
    except SecretError as error:
        print(f"forumgm run: {error}", file=sys.stderr)
        return 2
    install_redaction(secrets)
    if args.start_at is not None and args.start_at.tzinfo is None:
        print("forumgm run: --start-at needs a time zone offset, e.g. 2026-03-02T23:00:00+03:00", file=sys.stderr)
        return 2
    clock = FastClock(args.start_at, args.speed) if args.start_at else SystemClock()
    # a SIGTERM wakes the client's backoff and ends its retries: with the forum down the
    # daemon would otherwise wait out every retry of every request left in the tick
    forum = open_forum(installation.forum, secrets, sleep=stop.wait, stopping=lambda: stop.stopped)
    daemon = Daemon(installation, store, forum, clock)
    logging.getLogger(__name__).info("forumgm running: %d game(s), %s, resolving %ss after a deadline",
                                     len(daemon.games), polling_text(daemon.polling), installation.deadline_grace)
    try:
        return run_loop(daemon, stop, max_ticks=1 if args.once else None)
    finally:
        lock.close()
