"""A real HTTP proxy on 127.0.0.1 between forumgm and the local forum that injects faults.

The client talks to the proxy as if it were the board (base_url = proxy.url); the proxy passes
the Host header on, so the board's own links and redirects keep pointing at the proxy. Faults are
queued per method and path and used up in order:

    status   answer with that status (a GET is not passed on; a POST is, then the answer is lost)
    reset    close the connection without an answer (a POST is passed on first)
    truncate pass on, then send the board's headers and half its body, and close
    cut      pass on, then answer close-delimited (no Content-Length: the end of the connection ends
             the body, as an HTTP/1.0 proxy does) and close after `cut(body)` bytes: the client sees
             no error at all, only a shorter page
    delay    wait `seconds` before passing on
    stall    answer nothing until the client hangs up (its timeout ran out, however slow the
             machine: no race against the clock); a POST is passed on to the board after that
    rewrite  pass on, and answer with `edit(html)` instead of the board's page (a changed layout)

Every POST the board really received is counted by its body, so a test can assert that nothing
was sent twice.
"""
from __future__ import annotations

import http.client
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

# a client that never gives up on a stalled request must not hold its test forever
STALL_LIMIT = 60.0
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
              "proxy-authorization", "proxy-authenticate"}


@dataclass
class Fault:
    method: str         # GET or POST
    path: str           # a part of the path and query the fault applies to
    kind: str           # status | reset | truncate | delay | stall | rewrite
    status: int = 502
    seconds: float = 0.0
    edit: Callable[[str], str] | None = None
    cut: Callable[[bytes], int] | None = None


class FaultProxy:
    def __init__(self, upstream: str):
        self.upstream = urlsplit(upstream)
        self.faults: list[Fault] = []
        self.injected: list[Fault] = []
        self.posted: Counter[bytes] = Counter()      # bodies of the POSTs the board received
        self.requests: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._busy = 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # the answer's head and body go out in writes of their own on a kept-alive connection:
            # Nagle's algorithm held the body back for the client's delayed acknowledgement, ~40 ms
            # an answer (a test's sync through the proxy 0.4 s, 0.05-0.12 s without)
            disable_nagle_algorithm = True

            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                proxy._handle(self)

            def do_POST(self) -> None:
                proxy._handle(self)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), name="fault-proxy", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/"

    def inject(self, method: str, path: str, kind: str, times: int = 1, **details) -> None:
        with self._lock:
            self.faults += [Fault(method, path, kind, **details) for _ in range(times)]

    def _next_fault(self, method: str, path: str) -> Fault | None:
        with self._lock:
            self.requests.append((method, path))
            for fault in self.faults:
                if fault.method == method and fault.path in path:
                    self.faults.remove(fault)
                    self.injected.append(fault)
                    return fault
        return None

    def settle(self, timeout: float = 10.0) -> None:
        """Wait until the requests under way are through (a delayed POST reaches the board late)."""
        with self._idle:
            self._idle.wait_for(lambda: self._busy == 0, timeout)

    def _handle(self, request: BaseHTTPRequestHandler) -> None:
        with self._lock:
            self._busy += 1
        try:
            self._pass(request)
        finally:
            with self._idle:
                self._busy -= 1
                self._idle.notify_all()

    def _pass(self, request: BaseHTTPRequestHandler) -> None:
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        fault = self._next_fault(request.command, request.path)
        if fault is not None and fault.kind == "delay":
            time.sleep(fault.seconds)
        if fault is not None and fault.kind == "stall":
            self._until_hung_up(request)
            if request.command == "POST":
                self._forward(request, body)
            return
        passed_on = fault is None or fault.kind in ("truncate", "cut", "delay", "rewrite") or request.command == "POST"
        answer = self._forward(request, body) if passed_on else None
        if fault is None or fault.kind == "delay":
            self._reply(request, *answer)
        elif fault.kind == "status":
            request.send_response(fault.status)
            request.send_header("Content-Length", "0")
            request.end_headers()
        elif fault.kind == "reset":
            self._reset(request)
        elif fault.kind == "rewrite":
            status, headers, content = answer
            self._reply(request, status, headers, fault.edit(content.decode("utf-8")).encode("utf-8"))
        elif fault.kind == "truncate":
            status, headers, content = answer
            self._reply(request, status, headers, content, truncate=True)
        elif fault.kind == "cut":
            status, headers, content = answer
            self._reply_cut(request, status, headers, content[: fault.cut(content)])
        else:
            raise ValueError(f"unknown fault {fault.kind}")

    def _forward(self, request: BaseHTTPRequestHandler, body: bytes) -> tuple[int, list, bytes]:
        connection = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port, timeout=30)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP}
        connection.request(request.command, request.path, body=body or None, headers=headers)
        response = connection.getresponse()
        content = response.read()
        connection.close()
        if request.command == "POST":
            with self._lock:
                self.posted[body] += 1
        return response.status, response.getheaders(), content

    @staticmethod
    def _reply(request: BaseHTTPRequestHandler, status: int, headers: list, content: bytes,
               truncate: bool = False) -> None:
        request.send_response(status)
        for name, value in headers:
            if name.lower() not in HOP_BY_HOP and name.lower() not in ("content-length", "date", "server"):
                request.send_header(name, value)
        request.send_header("Content-Length", str(len(content)))
        request.end_headers()
        request.wfile.write(content[: len(content) // 2] if truncate else content)
        request.wfile.flush()
        if truncate:
            FaultProxy._reset(request)

    @staticmethod
    def _reply_cut(request: BaseHTTPRequestHandler, status: int, headers: list, content: bytes) -> None:
        request.send_response(status)
        for name, value in headers:
            if name.lower() not in HOP_BY_HOP and name.lower() not in ("content-length", "date", "server"):
                request.send_header(name, value)
        request.send_header("Connection", "close")
        request.end_headers()
        request.wfile.write(content)
        request.wfile.flush()
        FaultProxy._reset(request)

    @staticmethod
    def _until_hung_up(request: BaseHTTPRequestHandler) -> None:
        """Block until the client closes the connection (it sends nothing more while it waits)."""
        request.close_connection = True
        request.connection.settimeout(STALL_LIMIT)
        try:
            request.connection.recv(1)
        except OSError:
            pass

    @staticmethod
    def _reset(request: BaseHTTPRequestHandler) -> None:
        request.close_connection = True
        try:
            request.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def start(self) -> "FaultProxy":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> "FaultProxy":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
