"""vBulletin 3.8 and 4.2 on hand-written template-based fixtures (Russian language pack, relative dates)."""
from datetime import timedelta

import pytest

from forumgm.parsers.forums import ENGINES
from forumgm.parsers.forums.base import PageInfo, PageLayoutError
from forum_parser_fixtures import page
from forum_parser_twopage import (
    MSK, NOW, POSTED, ZONE, check_edits, check_inbox, check_message, check_posts, check_votes, thread,
)

FIRST_POST = {"vbulletin3": 301, "vbulletin4": 401}
PM_IDS = {"vbulletin3": ("12", "9"), "vbulletin4": ("12", "9")}
LOGIN_ACTION = {"vbulletin3": "login.php?do=login", "vbulletin4": "login.php?s=&do=login"}
ENGINE_NAMES = sorted(FIRST_POST)


@pytest.fixture(params=ENGINE_NAMES, scope="module")
def posts(request):
    return request.param, thread(request.param)


def test_ids_authors_times_and_pages(posts):
    engine, read = posts
    check_posts(read, FIRST_POST[engine])


def test_votes_outside_quotes_spoilers_and_code(posts):
    check_votes(posts[1])


def test_edit_note_time_and_editor(posts):
    check_edits(posts[1])


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_relative_russian_dates_follow_the_fetch_time(engine):
    next_day = ENGINES[engine].posts(page(engine, "thread_page1"), ZONE, NOW + timedelta(days=1))
    assert [post.posted_at for post in next_day] == [when + timedelta(days=1) for when in POSTED[:4]]
    assert all(post.posted_at.utcoffset() == MSK.utcoffset(NOW) for post in next_day)
    with pytest.raises(PageLayoutError, match="fetch time"):
        ENGINES[engine].posts(page(engine, "thread_page1"), ZONE)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_page_counts(engine):
    assert ENGINES[engine].page_info(page(engine, "thread_page1")) == PageInfo(1, 2)
    assert ENGINES[engine].page_info(page(engine, "thread_page2_last")) == PageInfo(2, 2)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_inbox_and_message(engine):
    check_inbox(ENGINES[engine].inbox(page(engine, "pm_inbox"), ZONE, NOW), PM_IDS[engine])
    check_message(ENGINES[engine].message(page(engine, "pm_view"), ZONE, NOW), PM_IDS[engine][1])


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_forms_carry_the_security_token(engine):
    functions = ENGINES[engine]
    login = functions.form(page(engine, "login"), "login")
    assert (login.action, login.fields["securitytoken"], login.fields["do"]) == (LOGIN_ACTION[engine], "guest", "login")
    assert {"vb_login_username", "vb_login_password", "vb_login_md5password"} <= set(login.fields)
    assert "cookieuser" not in login.fields   # unchecked
    reply = functions.form(page(engine, "thread_page2_last"), "reply")
    assert (reply.action, reply.fields["do"], reply.fields["t"]) == ("newreply.php?do=postreply&t=7", "postreply", "7")
    assert reply.fields["securitytoken"] == "1796045400-VB_SECURITYTOKEN_PLACEHOLDER"
    assert reply.fields["message"] == "" and "sbutton" not in reply.fields
    pm = functions.form(page(engine, "pm_view"), "pm")
    assert (pm.fields["do"], pm.fields["pmid"], pm.fields["recipients"]) == ("insertpm", "9", "Аскон")
    assert pm.fields["securitytoken"] == reply.fields["securitytoken"]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("other", ["phpbb/thread_page1", "ipb3/thread_page1", "ipb4/pm_view", "mybb/pm_inbox", "smf/pm_view_1",
                                   "vbulletin/thread_page1", "vbulletin/pm_inbox", "vbulletin/pm_view"])
def test_other_engines_pages_are_layout_errors(engine, other):
    other_engine, name = other.split("/")
    other_engine = {"vbulletin": "vbulletin4" if engine == "vbulletin3" else "vbulletin3"}.get(other_engine, other_engine)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].posts(page(other_engine, name), ZONE, NOW)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].inbox(page(other_engine, name), ZONE, NOW)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].message(page(other_engine, name), ZONE, NOW)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_own_pages_of_the_wrong_kind_are_layout_errors(engine):
    with pytest.raises(PageLayoutError):
        ENGINES[engine].posts(page(engine, "pm_view"), ZONE, NOW)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].message(page(engine, "thread_page1"), ZONE, NOW)
