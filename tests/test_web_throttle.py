"""Wrong passwords on the host's page: growing pauses per client address, then a lock-out that
the log and `forumgm status` mention; the session cookie is Secure behind an https address."""
from __future__ import annotations

import logging
import re
from datetime import timedelta

import pytest

from forumgm.daemon.cli.status import web_lockout_lines
from forumgm.daemon.store import Store
from forumgm.daemon.web import create_app
from forumgm.daemon.web.throttle import FREE_FAILURES, LOCKOUT, LOCKOUT_AFTER, LoginThrottle

PASSWORD = "a long host web password"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
@pytest.fixture
def store(tmp_path, clock):
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    yield store
    store.close()


def attempt(app, password, address="203.0.113.7"):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    token = TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)
    return client.post("/login", data={"password": password, "csrf_token": token})


def test_pauses_grow_and_a_pause_refuses_even_the_right_password(store, clock):
    app = create_app(store, PASSWORD)
    for _ in range(FREE_FAILURES):
        assert attempt(app, "wrong").status_code == 401          # typos cost nothing
    assert attempt(app, "wrong").status_code == 401              # this one starts a pause
    during = attempt(app, PASSWORD)
    assert during.status_code == 429 and during.headers["Retry-After"] == "2"
    assert "Слишком много неверных паролей" in during.get_data(as_text=True)
    assert attempt(app, PASSWORD, address="198.51.100.1").status_code == 302   # another address is not held
    clock.sleep(2)
    assert attempt(app, "wrong").status_code == 401
    assert attempt(app, "wrong").headers["Retry-After"] == "4"   # twice as long each time
    clock.sleep(4)
    assert attempt(app, PASSWORD).status_code == 302             # the right password, after the pause


def test_a_lock_out_is_logged_audited_and_shown_by_status(store, clock, caplog):
    caplog.set_level(logging.WARNING, logger="forumgm.daemon.web")
    app, start = create_app(store, PASSWORD), clock.now()
    for _ in range(LOCKOUT_AFTER):
        attempt(app, "wrong")
        clock.sleep(6 * 60)                      # past every pause before the lock-out
    clock.moment -= timedelta(minutes=6)
    locked = attempt(app, PASSWORD)
    assert locked.status_code == 429 and int(locked.headers["Retry-After"]) == LOCKOUT.total_seconds()
    assert any("203.0.113.7 is locked out" in r.getMessage() for r in caplog.records)
    assert [a["detail"]["address"] for a in store.audit_log() if a["action"] == "web.lockout"] == ["203.0.113.7"]
    assert web_lockout_lines(store, clock.now()) == [
        f"web page: 203.0.113.7 locked out until {start + timedelta(minutes=54) + LOCKOUT:%Y-%m-%d %H:%M} UTC "
        f"after {LOCKOUT_AFTER} wrong passwords"]
    clock.sleep(LOCKOUT.total_seconds())
    assert web_lockout_lines(store, clock.now()) == []
    assert attempt(app, PASSWORD).status_code == 302


def test_the_throttle_alone(clock):
    throttle = LoginThrottle(clock.now)
    waits = [throttle.failed("a").wait.total_seconds() for _ in range(LOCKOUT_AFTER)]
    assert waits[:FREE_FAILURES] == [0] * FREE_FAILURES
    assert waits[FREE_FAILURES:-1] == [2, 4, 8, 16, 32, 64]
    assert waits[-1] == LOCKOUT.total_seconds()
    assert throttle.wait("a") == LOCKOUT and throttle.wait("b") is None
    throttle.succeeded("a")
    assert throttle.wait("a") is None


@pytest.mark.parametrize("public_url, secure", [("https://gm.example.org/", True), ("http://127.0.0.1:8080/", False),
                                                (None, False)])
def test_the_session_cookie_is_secure_when_the_page_is_reached_over_https(store, public_url, secure):
    response = attempt(create_app(store, PASSWORD, public_url=public_url), PASSWORD)
    cookie = response.headers["Set-Cookie"]
    assert ("Secure" in cookie) == secure and "HttpOnly" in cookie
