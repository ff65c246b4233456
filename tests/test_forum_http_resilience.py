"""Failures a local server cannot easily produce: 5xx, timeouts, windows-1251, a session lost mid-sync."""
from pathlib import Path

import pytest
import requests
import responses

from forumgm.daemon.forum import ForumError, open_forum
from forumgm.daemon.forum.charset import decode_page
from forumgm.daemon.forum.errors import MaybeSent
from forumgm.daemon.forum.http import MAX_RETRY_AFTER, HttpClient, HttpError, HttpPolicy, user_agent
from localforum_support import FakeClock

BASE = "http://board.test/"
THREAD = BASE + "viewtopic.php?t=2"
PAGES = Path(__file__).parent / "fixtures" / "forums" / "phpbb"
LOGIN_PAGE = """<html><body><form action="./ucp.php?mode=login&amp;sid=s1" method="post" id="login">
<input type="text" name="username" value=""><input type="password" name="password">
<input type="hidden" name="creation_time" value="1"><input type="hidden" name="form_token" value="t">
<input type="hidden" name="sid" value="s1"><input type="submit" name="login" value="Login"></form></body></html>"""


def thread_page(number: int) -> str:
    names = {1: "thread_page1.html", 2: "thread_page2.html", 3: "thread_page3_last.html"}
    return (PAGES / names[number]).read_text(encoding="utf-8")


def client(clock: FakeClock, retries: int = 4) -> HttpClient:
    return HttpClient(HttpPolicy(min_interval=1.0, retries=retries, backoff=2.0),
                      clock=clock.monotonic, sleep=clock.sleep)


@responses.activate
def test_5xx_is_retried_with_exponential_backoff_then_succeeds():
    clock = FakeClock()
    for status in (502, 503, 500):
        responses.get(THREAD, status=status)
    responses.get(THREAD, body="ok", content_type="text/html; charset=utf-8")
    page = client(clock).get(THREAD)
    assert page.text == "ok"
    assert clock.slept == [2.0, 4.0, 8.0]     # each wait also covers the 1 s rate limit


@responses.activate
def test_gives_up_after_the_configured_retries_with_a_message():
    clock = FakeClock()
    responses.get(THREAD, status=503)
    with pytest.raises(ForumError, match="3 attempts: HTTP 503"):
        client(clock, retries=2).get(THREAD)
    assert len(responses.calls) == 3


@responses.activate
def test_timeouts_are_retried():
    clock = FakeClock()
    responses.get(THREAD, body=requests.ReadTimeout("slow"))
    responses.get(THREAD, body="ok")
    assert client(clock).get(THREAD).text == "ok" and clock.slept == [2.0]


@responses.activate
def test_a_post_whose_answer_is_lost_is_not_repeated():
    clock = FakeClock()
    responses.post(BASE + "posting.php", body=requests.ReadTimeout("lost"))
    with pytest.raises(ForumError, match="not repeated"):
        client(clock).post(BASE + "posting.php", {"message": "x"})
    assert len(responses.calls) == 1


@responses.activate
def test_requests_to_one_host_are_spaced_by_the_rate_limit():
    clock = FakeClock()
    responses.get(THREAD, body="ok")
    http = client(clock)
    for _ in range(3):
        http.get(THREAD)
    assert clock.slept == [1.0, 1.0]
    assert responses.calls[0].request.headers["User-Agent"] == user_agent()
    assert user_agent().startswith("forumgm/") and "bot" in user_agent()


@responses.activate
def test_windows_1251_from_the_header_and_from_meta():
    clock = FakeClock()
    body = "<html><head><meta charset=windows-1251></head><body>Голосую за Хана</body></html>"
    responses.get(BASE + "a", body=body.encode("cp1251"), content_type="text/html; charset=windows-1251")
    responses.get(BASE + "b", body=body.encode("cp1251"), content_type="text/html")
    http = client(clock)
    assert "Голосую за Хана" in http.get(BASE + "a").text
    assert "Голосую за Хана" in http.get(BASE + "b").text
    assert decode_page(None, "без меты".encode()) == "без меты"


@responses.activate
def test_a_session_lost_mid_sync_logs_in_again_and_retries_the_page():
    clock = FakeClock()
    guest_page_2 = thread_page(2).replace('id="username_logged_in"', 'id="guest"')
    responses.get(BASE + "ucp.php?mode=login", body=LOGIN_PAGE)
    responses.post(BASE + "ucp.php?mode=login&sid=s1", body=thread_page(1))   # logged-in header
    responses.get(THREAD, body=thread_page(1))
    responses.get(THREAD + "&start=5", body=guest_page_2)
    responses.get(THREAD + "&start=5", body=thread_page(2))
    forum = open_forum({"engine": "phpbb", "base_url": BASE, "username": "Ведущий", "posts_per_page": 5},
                       "secret-pw", clock=clock.monotonic, sleep=clock.sleep)
    forum.thread_page(THREAD, 1)
    info, posts, _ = forum.thread_page(THREAD, 2)
    assert info.page == 2 and [p.id for p in posts][0] == "7"
    logins = [c for c in responses.calls if c.request.method == "POST"]
    assert len(logins) == 2
    assert "secret-pw" in logins[0].request.body


@responses.activate
def test_the_password_never_reaches_the_log(caplog):
    clock = FakeClock()
    responses.get(BASE + "ucp.php?mode=login", body=LOGIN_PAGE)
    responses.post(BASE + "ucp.php?mode=login&sid=s1",
                   body=LOGIN_PAGE.replace("<form", "<div class=\"error\">You have specified an incorrect "
                                                     "username or password.</div><form"))
    forum = open_forum({"engine": "phpbb", "base_url": BASE, "username": "Ведущий"}, "secret-pw",
                       clock=clock.monotonic, sleep=clock.sleep)
    caplog.set_level("DEBUG")
    with pytest.raises(ForumError, match="incorrect username or password") as raised:
        forum.login()
    assert "secret-pw" not in caplog.text and "secret-pw" not in str(raised.value)
    assert "secret-pw" not in repr(forum)


@responses.activate
def test_too_many_requests_waits_as_long_as_the_board_asks_capped():
    clock = FakeClock()
    responses.get(THREAD, status=429, headers={"Retry-After": "7"})
    responses.get(THREAD, status=503, headers={"Retry-After": "86400"})
    responses.get(THREAD, status=429)
    responses.get(THREAD, body="ok")
    assert client(clock).get(THREAD).text == "ok"
    assert clock.slept == [7.0, MAX_RETRY_AFTER, 8.0]     # asked, capped, then the own backoff (2, 4, 8)


@responses.activate
def test_a_post_refused_as_too_many_requests_is_repeated_after_the_pause():
    clock = FakeClock()
    responses.post(BASE + "posting.php", status=429, headers={"Retry-After": "5"})
    responses.post(BASE + "posting.php", body="posted")
    assert client(clock).post(BASE + "posting.php", {"message": "x"}).text == "posted"
    assert clock.slept == [5.0] and len(responses.calls) == 2


@responses.activate
@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_a_post_answered_with_a_server_error_may_have_been_carried_out_and_is_not_repeated(status):
    """A proxy may answer 502 after the board posted: the POST is "maybe sent" (publishing looks
    for it before sending again), never repeated here."""
    clock = FakeClock()
    responses.post(BASE + "posting.php", status=status)
    with pytest.raises(MaybeSent, match=f"HTTP {status}; not repeated"):
        client(clock).post(BASE + "posting.php", {"message": "x"})
    assert len(responses.calls) == 1


@responses.activate
def test_an_error_page_keeps_the_boards_own_words():
    clock = FakeClock()
    responses.get(THREAD, status=403, body="<div id='message'><p>You are banned.</p></div>")
    with pytest.raises(HttpError) as raised:
        client(clock).get(THREAD)
    assert raised.value.page.status == 403 and "You are banned." in raised.value.page.text
