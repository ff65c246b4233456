"""A board behind a proxy the environment names (HTTP_PROXY, NO_PROXY): the client's session reads
the environment once a board address, and every request there still goes through the proxy."""
from __future__ import annotations

import copy
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from forumgm.daemon.forum.http import HttpClient, HttpPolicy

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


class Recording(ThreadingHTTPServer):
    """A local HTTP server answering every GET with its name, keeping the request line's target
    (a proxy is asked for the absolute address, a board for its path)."""

    def __init__(self, name: str):
        self.name, self.targets = name, []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(handler) -> None:
                self.targets.append(handler.path)
                body = f"<html><body>{self.name}</body></html>".encode()
                handler.send_response(200)
                handler.send_header("Content-Type", "text/html; charset=utf-8")
                handler.send_header("Content-Length", str(len(body)))
                handler.end_headers()
                handler.wfile.write(body)

            def log_message(handler, *args) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


@pytest.fixture
def servers(monkeypatch):
    proxy, board = Recording("proxy"), Recording("board")
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    yield proxy, board
    proxy.stop()
    board.stop()


def test_every_request_to_a_board_behind_the_environments_proxy_goes_through_it(servers):
    proxy, board = servers
    client = HttpClient(HttpPolicy(min_interval=0, retries=0))
    pages = [client.get(f"http://board.invalid/viewtopic.php?t={topic}") for topic in (1, 2, 1)]
    assert [page.text for page in pages] == ["<html><body>proxy</body></html>"] * 3
    assert proxy.targets == [f"http://board.invalid/viewtopic.php?t={topic}" for topic in (1, 2, 1)]
    assert board.targets == []


def test_a_host_no_proxy_names_is_asked_directly_beside_one_behind_the_proxy(servers):
    proxy, board = servers
    client = HttpClient(HttpPolicy(min_interval=0, retries=0))
    assert client.get(f"{board.url}/index.php").text == "<html><body>board</body></html>"
    assert client.get("http://board.invalid/index.php").text == "<html><body>proxy</body></html>"
    assert client.get(f"{board.url}/ucp.php").text == "<html><body>board</body></html>"
    assert board.targets == ["/index.php", "/ucp.php"] and proxy.targets == ["http://board.invalid/index.php"]


def test_a_copied_client_still_asks_through_the_proxy(servers):
    """A session copied (a played game snapshotted, a pickled session) reads the environment anew:
    requests copies a session by its own attribute list, which left the kept settings behind."""
    proxy, board = servers
    client = HttpClient(HttpPolicy(min_interval=0, retries=0))
    client.get("http://board.invalid/index.php")
    copied = copy.deepcopy(client)
    assert copied.get("http://board.invalid/ucp.php").text == "<html><body>proxy</body></html>"
    assert copied.get(f"{board.url}/index.php").text == "<html><body>board</body></html>"
    assert proxy.targets == ["http://board.invalid/index.php", "http://board.invalid/ucp.php"]
