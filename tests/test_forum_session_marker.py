"""Each board's logged-in mark is a piece of its own header that a post cannot produce.

The `real_*_post_quotes_logout.html` pages are one thread on the real board in which a player
linked to the logout URL, typed the old marks and then the header's own markup: once as a guest sees
it (the host's session gone) and once as the host sees it."""
import re
from pathlib import Path

import pytest

from forumgm.daemon.forum import open_forum
from localforum_support import FakeClock

PAGES = Path(__file__).parent / "fixtures" / "forums"
# engine -> the text the board's logout link carries, which a post links to or types as well
LOGOUT_LINK = {"mybb": "action=logout", "smf": "action=logout", "fluxbb": "action=out", "phpbb": "mode=logout"}
MEMBER_PAGES = ("index.html", "forum.html", "thread_page1.html", "newreply_form.html",
                "real_member_post_quotes_logout.html")
PM_PAGES = ("pm_inbox.html", "pm_view_1.html")     # FluxBB has no private messages
GUEST = "real_guest_post_quotes_logout.html"
# the header's own markup as a player typed it into a post: the board escapes it
TYPED_HEADER = {"mybb": 'a class="logout"&gt;Log Out&lt;/a&gt;', "smf": "&lt;li id=&quot;nojs_logout&quot;&gt;",
                "fluxbb": "&lt;li id=&quot;navlogout&quot;&gt;", "phpbb": '&lt;li id="username_logged_in"'}


def page(engine: str, name: str) -> str:
    return (PAGES / engine / name).read_text(encoding="utf-8")


def logged_out(engine: str, html: str) -> bool:
    board = open_forum({"engine": engine, "base_url": "http://board.test/", "username": "Ведущий"},
                       "secret-pw", clock=FakeClock().monotonic, sleep=FakeClock().sleep)
    return board.logged_out(html)


@pytest.mark.parametrize("engine", sorted(LOGOUT_LINK))
def test_a_guest_page_whose_post_links_to_logout_and_types_the_header_is_logged_out(engine):
    html = page(engine, GUEST)
    assert TYPED_HEADER[engine] in html
    assert re.search(r'<a href="http://127\.0\.0\.1:808\d/[^"]*' + re.escape(LOGOUT_LINK[engine]), html)
    assert logged_out(engine, html)


@pytest.mark.parametrize("engine,name", [(engine, name) for engine in sorted(LOGOUT_LINK) for name in
                                         MEMBER_PAGES + (PM_PAGES if engine != "fluxbb" else ())])
def test_every_member_page_is_logged_in(engine, name):
    assert not logged_out(engine, page(engine, name))


@pytest.mark.parametrize("engine", sorted(LOGOUT_LINK))
def test_the_guest_login_page_is_logged_out(engine):
    assert logged_out(engine, page(engine, "login.html"))
