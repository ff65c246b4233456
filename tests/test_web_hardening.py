"""Attacks on the host's page that the probe campaign made: another site's name in `Host:` (DNS
rebinding), a session cookie copied before logout, numbers past SQLite's integers in addresses
and forms, and one idle or slow connection freezing the page for everyone."""
from __future__ import annotations

import socket
import threading
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import requests

from forumgm.daemon.host_actions.deadline import move_deadline
from forumgm.daemon.settings.local_time import parse_span
from forumgm.daemon.store import StoreError
from forumgm.daemon.web import create_app
from forumgm.daemon.web import server as web_serving
from forumgm.daemon.web.app import page_host_names
from forumgm.daemon.web.server import web_server
from test_web_routes import csrf
from web_seed import GAME, PASSWORD, seeded_store


@pytest.fixture
def seeded(tmp_path):
    seeded = seeded_store(tmp_path)
    yield seeded
    seeded.store.close()


def logged_in(app):
    client = app.test_client()
    assert client.post("/login", data={"password": PASSWORD, "csrf_token": csrf(client)}).status_code == 302
    return client


def test_a_request_for_another_name_is_refused_before_any_page(seeded):
    """A page the host visits could point its own name at 127.0.0.1 and talk to the page as that site."""
    app = create_app(seeded.store, PASSWORD, host_names=page_host_names("127.0.0.1", "https://gm.example.org/x/"))
    client = logged_in(app)
    for name in ("rebind.attacker.example", "rebind.attacker.example:8090", "127.0.0.1.nip.io"):
        refused = client.get("/", headers={"Host": name})
        assert refused.status_code == 400 and "answers only at its own address" in refused.get_data(as_text=True)
        assert client.post("/login", headers={"Host": name}, data={"password": PASSWORD}).status_code == 400
    for name in ("127.0.0.1:8090", "localhost:8090", "gm.example.org"):
        answered = client.get("/login", headers={"Host": name})       # (the cookie is the test client's localhost's)
        assert answered.status_code == 200 and "Пароль" in answered.get_data(as_text=True), name
    assert page_host_names("0.0.0.0", "https://gm.example.org/") == {"gm.example.org", "localhost", "127.0.0.1"}
    assert page_host_names("192.0.2.5", None) == {"192.0.2.5"}


def test_a_session_cookie_copied_before_logout_no_longer_opens_the_page(seeded):
    app = create_app(seeded.store, PASSWORD)
    host = logged_in(app)
    cookie = host.get_cookie("forumgm_session").value
    copy = app.test_client()
    copy.set_cookie("forumgm_session", cookie)
    assert copy.get("/").status_code == 200                          # the copy works while the host is in
    assert host.post("/logout", data={"csrf_token": csrf(host, "/")}).status_code == 302
    assert copy.get("/").status_code == 302                          # and not after he logged out
    assert copy.get("/drafts").status_code == 302


@pytest.mark.parametrize("path", ["/drafts/99999999999999999999999", "/drafts/9223372036854775808"])
def test_a_number_past_the_stores_integers_in_an_address_is_not_found(seeded, path):
    host = logged_in(create_app(seeded.store, PASSWORD))
    token = csrf(host, "/drafts")
    assert host.post(path, data={"action": "approve", "csrf_token": token}).status_code == 404
    assert host.get(f"/games/{GAME}/maps{path.removeprefix('/drafts')}/1").status_code == 404
    assert host.get(f"/maps/{GAME}{path.removeprefix('/drafts')}/99999999999999999999").status_code == 404


def test_a_huge_number_in_a_form_is_a_clear_refusal(seeded):
    host = logged_in(create_app(seeded.store, PASSWORD))
    token = csrf(host, "/drafts")
    assert host.post("/drafts/approve-all", data={"ids": "1," + "9" * 30, "csrf_token": token}).status_code == 400
    for text in ("99999999999d", "9" * 5000 + "h"):
        with pytest.raises(ValueError, match="дольше любого календаря"):
            parse_span(text)
    store = seeded.store
    with pytest.raises(StoreError, match="так далеко не сдвинуть: новое время дальше любого календаря"):
        move_deadline(store, GAME, "host", store.now(), ZoneInfo("Europe/Moscow"), extend=timedelta(days=999_999_999))


@pytest.fixture
def served(seeded, monkeypatch):
    monkeypatch.setattr(web_serving.RedactingRequestHandler, "timeout", 0.5)     # (the idle one dropped soon)
    server = web_server(seeded.store, PASSWORD, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    thread.join()
    server.server_close()


def test_an_idle_or_slow_connection_freezes_nobody(served):
    """A single-threaded server without a socket timeout served nobody while one connection sat idle."""
    idle = socket.create_connection(("127.0.0.1", served))
    slow = socket.create_connection(("127.0.0.1", served))
    slow.sendall(b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n"
                 b"Content-Type: application/x-www-form-urlencoded\r\n\r\npass")    # the rest never comes
    try:
        answers = [requests.get(f"http://127.0.0.1:{served}/login", timeout=20) for _ in range(3)]
        assert [a.status_code for a in answers] == [200] * 3
        idle.settimeout(20)
        assert idle.recv(1024) == b""                                 # dropped after the server's timeout
        slow.settimeout(20)
        assert slow.recv(1024).startswith(b"HTTP/1.1 408")         # its body never came whole
    finally:
        idle.close()
        slow.close()
    assert requests.get(f"http://127.0.0.1:{served}/login", timeout=20).status_code == 200
