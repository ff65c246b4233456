"""Invision Power Board 3.4 and Invision Community 4 on hand-written template-based fixtures."""
import pytest

from forumgm.parsers.forums import ENGINES
from forumgm.parsers.forums.base import PageInfo, PageLayoutError
from forum_parser_fixtures import page
from forum_parser_twopage import NOW, ZONE, check_edits, check_inbox, check_message, check_posts, check_votes, thread

FIRST_POST = {"ipb3": 101, "ipb4": 201}
PM_IDS = {"ipb3": ("12", "9"), "ipb4": ("12", "9")}
ENGINE_NAMES = sorted(FIRST_POST)


@pytest.fixture(params=ENGINE_NAMES, scope="module")
def posts(request):
    return request.param, thread(request.param)


def test_ids_authors_times_and_pages(posts):
    engine, read = posts
    check_posts(read, FIRST_POST[engine])


def test_votes_outside_quotes_spoilers_and_code(posts):
    check_votes(posts[1])


def test_edit_marker_time_and_editor(posts):
    check_edits(posts[1])


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_page_counts(engine):
    assert ENGINES[engine].page_info(page(engine, "thread_page1")) == PageInfo(1, 2)
    assert ENGINES[engine].page_info(page(engine, "thread_page2_last")) == PageInfo(2, 2)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_inbox_and_message(engine):
    check_inbox(ENGINES[engine].inbox(page(engine, "pm_inbox"), ZONE, NOW), PM_IDS[engine])
    check_message(ENGINES[engine].message(page(engine, "pm_view"), ZONE, NOW), PM_IDS[engine][1])


def test_ipb3_forms_carry_auth_key():
    login = ENGINES["ipb3"].form(page("ipb3", "login"), "login")
    assert login.fields["auth_key"] == "880ea6a14ea49e853634fbdc5015a024"
    assert (login.fields["rememberMe"], "anonymous" in login.fields) == ("1", False)
    assert {"ips_username", "ips_password", "referer"} <= set(login.fields)
    reply = ENGINES["ipb3"].form(page("ipb3", "thread_page1"), "reply")
    assert (reply.method, reply.fields["do"], reply.fields["t"], reply.fields["auth_key"]) == (
        "post", "reply_post_do", "7", "IPB_AUTH_KEY_PLACEHOLDER")
    assert "Post" in reply.fields and "submit" not in reply.fields
    pm = ENGINES["ipb3"].form(page("ipb3", "pm_view"), "pm")
    assert (pm.fields["topicID"], pm.fields["auth_key"]) == ("9", "IPB_AUTH_KEY_PLACEHOLDER")


def test_ipb4_forms_carry_csrf_key():
    login = ENGINES["ipb4"].form(page("ipb4", "login"), "login")
    assert (login.action, login.fields["csrfKey"], login.fields["remember_me"]) == (
        "https://forum.example.ru/login/", "IPS_CSRF_KEY_PLACEHOLDER", "1")
    assert {"auth", "password", "ref"} <= set(login.fields) and "anonymous" not in login.fields
    assert "_processLogin" not in login.fields   # the submit button: the caller sends its value
    reply = ENGINES["ipb4"].form(page("ipb4", "thread_page2_last"), "reply")
    assert (reply.action, reply.enctype) == ("https://forum.example.ru/topic/7-igra-1-den-1/page/2/", "multipart/form-data")
    assert (reply.fields["commentform_7_submitted"], reply.fields["csrfKey"], reply.fields["topic_comment_7"]) == (
        "1", "IPS_CSRF_KEY_PLACEHOLDER", "")
    pm = ENGINES["ipb4"].form(page("ipb4", "pm_view"), "pm")
    assert (pm.action, pm.fields["commentform_9_submitted"]) == ("https://forum.example.ru/messenger/9/", "1")


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("other", ["phpbb/thread_page1", "xenforo/thread_page2", "mybb/pm_inbox",
                                   "vbulletin4/thread_page1", "vbulletin3/pm_view", "ipb/thread_page1", "ipb/pm_inbox"])
def test_other_engines_pages_are_layout_errors(engine, other):
    other_engine, name = other.split("/")
    other_engine = {"ipb": "ipb4" if engine == "ipb3" else "ipb3"}.get(other_engine, other_engine)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].posts(page(other_engine, name), ZONE, NOW)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].inbox(page(other_engine, name), ZONE, NOW)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].message(page(other_engine, name), ZONE, NOW)


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_own_pages_of_the_wrong_kind_are_layout_errors(engine):
    with pytest.raises(PageLayoutError):
        ENGINES[engine].posts(page(engine, "pm_inbox"), ZONE, NOW)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].inbox(page(engine, "thread_page1"), ZONE, NOW)
