"""A form the board refuses as expired (phpBB's "The submitted form was invalid": its token older than
the board allows, after a slow tick or a jump of the board's clock) is fetched again once and sent;
refused again, the host reads what to look at, and nothing was sent."""
import re
from pathlib import Path

import pytest
import responses

from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.errors import StaleForm
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.offline.localforum.board import FORM_MAX_AGE
from localforum_support import HOST, FakeClock, host_forum, seeded_board, thread_url

PAGES = Path(__file__).parent / "fixtures" / "forums" / "phpbb"
BASE = "http://board.test/"


@pytest.fixture
def server(clock):
    with LocalForum(seeded_board(clock, replies=2)) as running:
        yield running


def jump_after_fetching(forum, board, clock, name: str, times: int) -> list[str]:
    """After each of the first `times` fetches of the form `name`, the board's clock jumps past the
    form's lifetime (as a tick held up between fetching and sending would); returns the fetches."""
    jumped = [0.0]
    board.form_clock = lambda: clock.monotonic() + jumped[0]
    fetched: list[str] = []
    original = forum.fetch_form

    def fetch_form(url, form_name, login=True):
        page_and_form = original(url, form_name, login)
        fetched.append(form_name)
        if form_name == name and fetched.count(name) <= times:
            jumped[0] += FORM_MAX_AGE + 1
        return page_and_form

    forum.fetch_form = fetch_form
    return fetched


def test_a_login_form_expired_before_it_went_is_fetched_again_and_logs_in(server, clock):
    forum = host_forum(server, clock)
    fetched = jump_after_fetching(forum, server.board, clock, "login", times=1)
    forum.login()
    assert fetched == ["login", "login"]
    assert forum.thread_page(thread_url(server), 1)[1][0].author == HOST     # logged in: the thread reads


def test_a_reply_whose_form_expired_goes_once_with_a_fresh_form(server, clock):
    forum = host_forum(server, clock)
    forum.login()
    before = len(server.board.visible_posts(2))
    fetched = jump_after_fetching(forum, server.board, clock, "reply", times=1)
    post_id = forum.reply(thread_url(server), "Итоги дня")
    posts = server.board.visible_posts(2)
    assert fetched == ["reply", "reply"]
    assert len(posts) == before + 1 and str(posts[-1].id) == post_id and posts[-1].bbcode == "Итоги дня"


def test_a_form_expired_again_right_after_fetching_tells_the_host_and_sends_nothing(server, clock):
    forum = host_forum(server, clock)
    forum.login()
    before = len(server.board.visible_posts(2))
    fetched = jump_after_fetching(forum, server.board, clock, "reply", times=2)
    with pytest.raises(StaleForm) as refused:
        forum.reply(thread_url(server), "Итоги дня")
    assert str(refused.value) == (
        "the forum refused the reply: The submitted form was invalid. Try submitting again.; the form was refused "
        "as expired twice, the second time just after it was fetched: the board's clock may be wrong, or its form "
        "lifetime too short (phpBB: ACP, Security settings, 'Maximum time to submit forms'); nothing was sent")
    assert fetched == ["reply", "reply"]
    assert len(server.board.visible_posts(2)) == before


def saved_board(answers: list[str]):
    """phpBB 3.3.10's own login page, then its answers to the login POSTs, in turn."""
    responses.get(re.compile(re.escape(BASE + "ucp.php?mode=login") + ".*"),
                  body=(PAGES / "login.html").read_text(encoding="utf-8"), content_type="text/html; charset=UTF-8")
    for answer in answers:
        responses.post(re.compile(re.escape(BASE + "ucp.php") + ".*"),
                       body=(PAGES / answer).read_text(encoding="utf-8"), content_type="text/html; charset=UTF-8")
    clock = FakeClock()
    config = {"engine": "phpbb", "base_url": BASE, "username": HOST}
    return open_forum(config, "HostPass123!", clock=clock.monotonic, sleep=clock.sleep)


@responses.activate
def test_the_real_boards_expired_login_form_is_fetched_again_once():
    forum = saved_board(["real_login_form_invalid.html", "index.html"])
    forum.login()
    assert [call.request.method for call in responses.calls] == ["GET", "POST", "GET", "POST"]


@responses.activate
def test_the_real_boards_login_form_expired_twice_names_what_to_look_at():
    forum = saved_board(["real_login_form_invalid.html", "real_login_form_invalid.html"])
    with pytest.raises(StaleForm, match=r"^login to http://board\.test/ as Ведущий failed: The submitted form was "
                                        r"invalid\. Try submitting again\.; the form was refused as expired twice"):
        forum.login()
    assert [call.request.method for call in responses.calls] == ["GET", "POST", "GET", "POST"]
