"""The MyBB adapter's form flows, served the saved MyBB 1.8 pages through `responses`."""
from pathlib import Path

import pytest
import responses

from forumgm.daemon.forum import ForumError, open_forum
from localforum_support import FakeClock

BASE = "http://mybb.test/"
PAGES = Path(__file__).parent / "fixtures" / "forums" / "mybb"


def page(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


def mybb_forum(clock):
    return open_forum({"engine": "mybb", "base_url": BASE, "username": "Ведущий"}, "pw",
                      clock=clock.monotonic, sleep=clock.sleep)


def logged_in():
    responses.get(BASE + "member.php?action=login", body=page("login.html"))
    responses.post(BASE + "member.php", body=page("thread_page2.html"))


@responses.activate
def test_login_posts_the_my_post_key_and_reads_a_thread_page():
    clock = FakeClock()
    logged_in()
    responses.get(BASE + "showthread.php?tid=1&page=2", body=page("thread_page2.html"))
    info, posts, _ = mybb_forum(clock).thread_page(BASE + "showthread.php?tid=1", 2)
    assert info.page == 2 and posts[0].author == "Кума"
    login = responses.calls[1].request
    assert "my_post_key=MYBB_POST_KEY_PLACEHOLDER" in login.body and "action=do_login" in login.body


@responses.activate
def test_reply_returns_the_new_pid_from_the_redirect():
    clock = FakeClock()
    logged_in()
    responses.get(BASE + "newreply.php?tid=1", body=page("newreply_form.html"))
    responses.post(BASE + "newreply.php?tid=1&processed=1", status=302,
                   headers={"Location": BASE + "showthread.php?tid=1&pid=14#pid14"})
    assert mybb_forum(clock).reply(BASE + "showthread.php?tid=1", "Итоги") == "14"
    sent = responses.calls[-1].request
    assert b"do_newreply" in sent.body and "Итоги".encode() in sent.body


@responses.activate
def test_a_refused_reply_carries_mybbs_message():
    clock = FakeClock()
    logged_in()
    responses.get(BASE + "newreply.php?tid=1", body=page("newreply_form.html"))
    refusal = page("newreply_form.html").replace(
        "<form", '<div class="error"><ul><li>The message is too short.</li></ul></div><form', 1)
    responses.post(BASE + "newreply.php?tid=1&processed=1", body=refusal)
    with pytest.raises(ForumError, match="too short"):
        mybb_forum(clock).reply(BASE + "showthread.php?tid=1", "x")
