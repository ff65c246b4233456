"""Invision Power Board 3.4 and Invision Community 4 on hand-written template-based fixtures."""
from forumgm.parsers.forums import ENGINES
from forum_parser_fixtures import page
from forum_parser_twopage import TwoPageEngineTests, pytest_generate_tests  # noqa: F401 (the hook runs per engine)

OTHER_PAGES = ("phpbb/thread_page1", "xenforo/thread_page2", "mybb/pm_inbox", "vbulletin4/thread_page1",
               "vbulletin3/pm_view", "ipb3/thread_page1", "ipb3/pm_inbox", "ipb4/thread_page1", "ipb4/pm_inbox")


class TestInvision(TwoPageEngineTests):
    FIRST_POST = {"ipb3": 101, "ipb4": 201}
    PM_IDS = {"ipb3": ("12", "9"), "ipb4": ("12", "9")}
    OTHER_PAGES = OTHER_PAGES


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
