"""`forumgm web --config FILE`: the host's page (drafts, tally, orders, maps) on localhost."""
from __future__ import annotations

import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("web", help="serve the host's web page (127.0.0.1 by default)")
    parser.add_argument("--config", type=Path, required=True, help="the installation file, forumgm.toml")


def run(args) -> int:
    from forumgm.daemon.settings.installation import load_installation
    from forumgm.daemon.settings.records import ConfigError
    from forumgm.daemon.runtime.loop import game_runs
    from forumgm.daemon.settings.secrets import SecretError, read_password, web_password_problem
    from forumgm.daemon.cli.common import open_store
    from forumgm.daemon.web.server import web_server

    try:
        installation = load_installation(args.config)
        password = read_password(installation.web_password_env, installation.web_password_file,
                                 "the web page's password")
    except ConfigError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return 2
    except SecretError as error:
        print(f"forumgm web: {error}", file=sys.stderr)
        return 2
    if not password:
        print(f"forumgm web: {args.config}: web.password_env or web.password_file is required "
              "(the page's login password)", file=sys.stderr)
        return 2
    if web_password_problem(password):
        print(f"forumgm web: the web page's password: expected {web_password_problem(password)}", file=sys.stderr)
        return 2
    store = open_store(installation)
    if store is None:
        return 2
    server = web_server(store, password, installation.web_host, installation.web_port,
                        games=lambda: {game.id: game for game in game_runs(installation)},
                        public_url=installation.web_public_url)
    print(f"forumgm web: http://{installation.web_host}:{server.server_port}/", file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        store.close()
    return 0
