"""The HTTP server behind `forumgm web`: one request at a time, role tokens kept out of the log.

One host and a handful of requests: a single-threaded server keeps the store's one SQLite
connection to one thread at a time.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from forumgm.daemon.store import Store
from forumgm.daemon.web.app import create_app

ROLE_TOKEN = re.compile(r"(/role/)[^/?\s]+")


class RedactingRequestHandler(WSGIRequestHandler):
    """The access log without the one-time role tokens (whoever reads the log must not open them)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        path = ROLE_TOKEN.sub(r"\1***", getattr(self, "path", ""))
        self.log("info", '"%s %s" %s %s', getattr(self, "command", "-"), path, code, size)


class QuietRequestHandler(RedactingRequestHandler):
    """No access log: the demo's terminal shows the game's own lines to the host, who is the one
    making the requests (errors are still logged)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


def web_server(store: Store, password: str, host: str, port: int,
               games: Callable[[], Mapping[str, Any]] | None = None, public_url: str | None = None,
               quiet: bool = False) -> BaseWSGIServer:
    """A server ready for serve_forever(); port 0 picks a free port (see server.server_port)."""
    return make_server(host, port, create_app(store, password, games, public_url), threaded=False,
                       request_handler=QuietRequestHandler if quiet else RedactingRequestHandler)
