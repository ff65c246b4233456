"""The HTTP server behind `forumgm web`: a thread per connection, the page's views one at a time,
role tokens kept out of the log.

A single-threaded server was frozen by one connection that sent nothing (a browser's spare
socket, or anyone at all): every other request waited for it. Each connection now has a thread
of its own and a socket timeout (a client silent for TIMEOUT seconds is dropped), and a request's
body is read whole before its view runs, within BODY_DEADLINE however slowly it trickles in. The
views still run one at a time, under one lock: the store's one SQLite connection and its
transactions are not to be shared by two requests at once. A slow reader of an answer holds up
nobody either: the answer is made under the lock and sent after it.
"""
from __future__ import annotations

import io
import re
import threading
import time
from typing import Any, Callable, Iterable, Mapping

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from forumgm.daemon.store import Store
from forumgm.daemon.web.app import create_app, page_host_names

ROLE_TOKEN = re.compile(r"(/role/)[^/?\s]+")
TIMEOUT = 30                 # seconds a connection may stay silent
BODY_DEADLINE = 60           # seconds a request's body may take to arrive, all of it
BODY_LIMIT = 1024 * 1024     # the app's MAX_CONTENT_LENGTH: a longer body is its 413, never read here


class RedactingRequestHandler(WSGIRequestHandler):
    """The access log without the one-time role tokens (whoever reads the log must not open them)."""

    timeout = TIMEOUT

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        path = ROLE_TOKEN.sub(r"\1***", getattr(self, "path", ""))
        self.log("info", '"%s %s" %s %s', getattr(self, "command", "-"), path, code, size)


class QuietRequestHandler(RedactingRequestHandler):
    """No access log: the demo's terminal shows the game's own lines to the host, who is the one
    making the requests (errors are still logged)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


class OneAtATime:
    """The app behind a lock, each request's body read before the lock is taken."""

    def __init__(self, app: Callable, deadline: float = BODY_DEADLINE):
        self.app = app
        self.deadline = deadline
        self.lock = threading.Lock()

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        body = self._body(environ)
        if body is None:
            start_response("408 Request Timeout", [("Content-Type", "text/plain; charset=utf-8"),
                                                   ("Connection", "close")])
            return [b"The request's body did not arrive in time.\n"]
        if body is not False:
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("wsgi.input_terminated", None)
        with self.lock:
            answer = self.app(environ, start_response)
            try:
                return [b"".join(answer)]
            finally:
                getattr(answer, "close", lambda: None)()

    def _body(self, environ: dict) -> bytes | bool | None:
        """The whole body; False when there is none to read here (none, or one the app refuses as
        too long unread); None when it did not arrive within the deadline."""
        stream = environ["wsgi.input"]
        terminated = environ.get("wsgi.input_terminated", False)      # chunked: read to its end
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return False
        if not terminated and (length <= 0 or length > BODY_LIMIT):
            return False
        wanted = BODY_LIMIT + 1 if terminated else length
        parts: list[bytes] = []
        got = 0
        ends = time.monotonic() + self.deadline
        while got < wanted:
            if time.monotonic() > ends:
                return None
            try:
                part = stream.read(min(65536, wanted - got))
            except OSError:               # the socket's own timeout, or the client went away
                return None
            if not part:
                break
            parts.append(part)
            got += len(part)
        return b"".join(parts)


def web_server(store: Store, password: str, host: str, port: int,
               games: Callable[[], Mapping[str, Any]] | None = None, public_url: str | None = None,
               quiet: bool = False) -> BaseWSGIServer:
    """A server ready for serve_forever(); port 0 picks a free port (see server.server_port)."""
    app = create_app(store, password, games, public_url, host_names=page_host_names(host, public_url))
    server = make_server(host, port, OneAtATime(app), threaded=True,
                         request_handler=QuietRequestHandler if quiet else RedactingRequestHandler)
    server.daemon_threads = True          # a connection left open never holds up the page's exit
    return server
