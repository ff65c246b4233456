"""Wrong passwords on the host's page: growing pauses per source (a machine: all of 127/8 is one)
and, past an hourly budget, for the page as a whole, which the log and `forumgm status` mention;
never a lock-out. The session cookie is Secure behind an https address."""
from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta, timezone

import pytest

from forumgm.daemon.cli.status import web_throttle_lines
from forumgm.daemon.store import Store
from forumgm.daemon.web import create_app
from forumgm.daemon.web.throttle import (FREE_FAILURES, GLOBAL_BUDGET, GLOBAL_WINDOW, LOOPBACK, MAX_PAUSE, LoginThrottle,
                                        source_of)

PASSWORD = "a long host web password"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
START = datetime(2026, 11, 30, 18, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self):
        self.moment = START

    def __call__(self):
        return self.moment

    def advance(self, delta: timedelta):
        self.moment += delta


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(tmp_path, clock):
    store = Store(tmp_path / "forumgm.sqlite", now=clock)
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
    clock.advance(timedelta(seconds=2))
    assert attempt(app, "wrong").status_code == 401
    assert attempt(app, "wrong").headers["Retry-After"] == "4"   # twice as long each time
    clock.advance(timedelta(seconds=4))
    assert attempt(app, PASSWORD).status_code == 302             # the right password, after the pause


def test_every_loopback_address_is_one_source(store, clock):
    """Every 127.x.y.z is the same machine: 300 wrong passwords from 300 of them went unrefused."""
    app = create_app(store, PASSWORD)
    codes = [attempt(app, "wrong", address=f"127.0.{n // 250}.{n % 250 + 1}").status_code for n in range(12)]
    assert codes[:FREE_FAILURES + 1] == [401] * (FREE_FAILURES + 1) and set(codes[FREE_FAILURES + 1:]) == {429}
    assert attempt(app, PASSWORD, address="::1").status_code == 429           # the IPv6 loopback too
    assert [source_of(a) for a in ("127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.2")] == [LOOPBACK] * 4
    assert source_of("2001:db8::1") == source_of("2001:db8::ffff:1") == "2001:db8::/64"
    assert source_of("203.0.113.7") != source_of("203.0.113.8")


def test_many_sources_share_one_budget_and_no_one_is_locked_out(store, clock, caplog):
    """A failure budget for the page as a whole, with pauses that grow but never shut the host out:
    10 wrong tries used to lock 127.0.0.1 out for 30 minutes, renewable by anyone."""
    caplog.set_level(logging.WARNING, logger="forumgm.daemon.web")
    app = create_app(store, PASSWORD)
    for n in range(GLOBAL_BUDGET):                  # one wrong try each from as many machines: free
        assert attempt(app, "wrong", address=f"198.51.100.{n + 1}").status_code == 401
    assert attempt(app, "wrong", address="203.0.113.1").status_code == 401     # the budget is spent
    held = attempt(app, PASSWORD, address="203.0.113.99")       # everyone waits now, the host too
    assert held.status_code == 429 and held.headers["Retry-After"] == "2"
    assert any("every login waits" in r.getMessage() for r in caplog.records)
    assert [a["detail"]["address"] for a in store.audit_log() if a["action"] == "web.password_budget"] == ["203.0.113.1"]
    assert web_throttle_lines(store, clock()) == [
        "web page: too many wrong passwords in the last hour (the last from 203.0.113.1): every login waits until "
        f"{START + timedelta(seconds=2):%Y-%m-%d %H:%M:%S} UTC"]
    waits = []
    for n in range(12):                             # pauses double, and stop at MAX_PAUSE
        clock.advance(timedelta(seconds=int(held.headers["Retry-After"])))
        assert attempt(app, "wrong", address=f"192.0.2.{n + 1}").status_code == 401
        held = attempt(app, PASSWORD, address="203.0.113.99")
        assert held.status_code == 429
        waits.append(int(held.headers["Retry-After"]))
    assert waits[:4] == [4, 8, 16, 32] and waits[-3:] == [MAX_PAUSE.total_seconds()] * 3
    clock.advance(MAX_PAUSE)
    assert web_throttle_lines(store, clock()) == []
    assert attempt(app, PASSWORD).status_code == 302                # the host is in after minutes at most
    clock.advance(GLOBAL_WINDOW)
    assert attempt(app, "wrong", address="192.0.2.200").status_code == 401     # an hour later: the budget is back


def test_the_throttle_alone():
    clock = Clock()
    throttle = LoginThrottle(clock)
    waits = [throttle.failed("a").wait.total_seconds() for _ in range(12)]
    assert waits[:FREE_FAILURES] == [0] * FREE_FAILURES
    assert waits[FREE_FAILURES:] == [2, 4, 8, 16, 32, 64, 128, 256, 300]
    assert throttle.wait("a") == MAX_PAUSE and throttle.wait("b") is None
    throttle.succeeded("a")
    assert throttle.wait("a") is None


@pytest.mark.parametrize("public_url, secure", [("https://gm.example.org/", True), ("http://127.0.0.1:8080/", False),
                                                (None, False)])
def test_the_session_cookie_is_secure_when_the_page_is_reached_over_https(store, public_url, secure):
    response = attempt(create_app(store, PASSWORD, public_url=public_url), PASSWORD)
    cookie = response.headers["Set-Cookie"]
    assert ("Secure" in cookie) == secure and "HttpOnly" in cookie
