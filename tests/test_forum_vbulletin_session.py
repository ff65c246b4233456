"""vBulletin's logged-in mark: the navbar's logout link, as the default templates render it
(vB 4.2 `header`, vB 3.8 `navbar`: `login.php?{session}do=logout&amp;logouthash=…` with an
`onclick="return log_out(…)"`), and never a post that quotes that link."""
import re
from pathlib import Path

import pytest
import responses

from forumgm.daemon.forum import open_forum
from localforum_support import FakeClock

BASE = "http://board.test/"
THREAD = BASE + "showthread.php?t=7"
PAGES = Path(__file__).parent / "fixtures" / "forums" / "vbulletin4"
MEMBER_PAGES = ("thread_page1.html", "thread_page2_last.html", "pm_inbox.html", "pm_view.html", "pm_compose.html")
# a player's post of the link, as the board renders its [url] and its text: quotes become &quot;
QUOTED_LINK = ('<a href="login.php?do=logout&amp;logouthash=abc" target="_blank">login.php?do=logout&amp;'
               'logouthash=abc</a> onclick=&quot;return log_out(&#39;x&#39;)&quot;')


def page(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


def forum(clock: FakeClock):
    return open_forum({"engine": "vbulletin4", "base_url": BASE, "username": "Ведущий", "posts_per_page": 5},
                      "secret-pw", clock=clock.monotonic, sleep=clock.sleep)


def guest(html: str) -> str:
    """The page as a guest gets it: the header's guest links (`ul.nouser`) instead of the member's,
    and a post quoting the logout link."""
    member = html[html.index('<ul class="isuser">'):html.index("</ul>", html.index('class="welcomelink"')) + 5]
    return html.replace(member, '<ul class="nouser"><li><a href="register.php">Регистрация</a></li></ul>').replace(
        "Голос за <font", QUOTED_LINK + " Голос за <font")


@pytest.mark.parametrize("name", MEMBER_PAGES)
def test_every_member_page_logs_out_as_the_4_2_header_template_links_and_is_logged_in(name):
    html = page(name)
    assert re.findall(r'<a href="([^"]*do=logout[^"]*)"', html) == [
        "login.php?do=logout&amp;logouthash=VB_LOGOUTHASH_PLACEHOLDER"]
    assert not forum(FakeClock()).logged_out(html)


def test_the_guest_login_page_is_logged_out():
    assert forum(FakeClock()).logged_out(page("login.html"))


def test_the_link_with_the_session_in_the_url_is_logged_in_too():
    # without cookies the template puts `s=<session hash>&amp;` before `do=logout`
    html = page("thread_page1.html").replace("login.php?do=logout", "login.php?s=0123abcd&amp;do=logout")
    assert not forum(FakeClock()).logged_out(html)


def test_a_guest_page_quoting_the_logout_link_is_logged_out():
    html = guest(page("thread_page2_last.html"))
    assert QUOTED_LINK in html and 'class="isuser"' not in html
    assert forum(FakeClock()).logged_out(html)


@responses.activate
def test_a_session_lost_mid_sync_logs_in_again_though_a_post_quotes_the_logout_link():
    clock = FakeClock()
    responses.get(BASE + "login.php?do=login", body=page("login.html"))
    responses.post(BASE + "login.php?s=&do=login", body=page("thread_page1.html"))   # logged-in header
    responses.get(THREAD, body=page("thread_page1.html"))
    responses.get(THREAD + "&page=2", body=guest(page("thread_page2_last.html")))
    responses.get(THREAD + "&page=2", body=page("thread_page2_last.html"))
    board = forum(clock)
    board.thread_page(THREAD, 1)
    info, posts, _ = board.thread_page(THREAD, 2)
    assert info.page == 2 and [p.author for p in posts] == ["Ильмаринен", "Robozik"]
    assert len([c for c in responses.calls if c.request.method == "POST"]) == 2
