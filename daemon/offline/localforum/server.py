"""LocalForum: the local board served over real HTTP on 127.0.0.1 from a background thread."""
from __future__ import annotations

import threading
from datetime import timezone
from email.utils import format_datetime

from werkzeug.serving import WSGIRequestHandler, make_server

from forumgm.daemon.offline.localforum.app import create_app
from forumgm.daemon.offline.localforum.board import Board

# The poll of a server served from a background thread (this board; the demo's and the tests' host
# page): shutdown() waits for the poll in progress to end, and socketserver's own 0.5 s made every
# stop wait that long (the tests stop hundreds).
STOP_POLL = 0.02


def _handler(board: Board, quiet: bool) -> type[WSGIRequestHandler]:
    class Handler(WSGIRequestHandler):
        def date_time_string(self, timestamp: float | None = None) -> str:
            # the answers' Date: is the board's clock, as a real board's is its own machine's
            return format_datetime(board.clock().astimezone(timezone.utc), usegmt=True)

        def send_header(self, keyword: str, value: str) -> None:
            if board.dates_answers or keyword.lower() != "date":    # a server set to send no Date:
                super().send_header(keyword, value)

        def log_request(self, *args) -> None:
            if not quiet:    # tests and the demo print their own story
                super().log_request(*args)
    return Handler


class LocalForum:
    """Start on a free port (port=0), read `.url`, stop when done; usable as a context manager."""

    def __init__(self, board: Board | None = None, host: str = "127.0.0.1", port: int = 0, quiet: bool = True):
        self.board = board or Board()
        self._server = make_server(host, port, create_app(self.board), threaded=True,
                                   request_handler=_handler(self.board, quiet))
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": STOP_POLL},
                                        name="localforum", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> "LocalForum":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def serve_forever(self) -> None:
        """Run in the calling thread (the standalone `forumgm localforum` command)."""
        self._server.serve_forever()

    def __enter__(self) -> "LocalForum":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
