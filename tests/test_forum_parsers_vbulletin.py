"""vBulletin 3.8 and 4.2 on hand-written template-based fixtures (Russian language pack, relative dates)."""
from datetime import timedelta

import pytest

from forumgm.parsers.forums import ENGINES
from forumgm.parsers.forums.base import PageLayoutError
from forum_parser_fixtures import page
from forum_parser_twopage import (  # noqa: F401 (the hook runs the shared tests per engine)
    MSK, NOW, POSTED, ZONE, TwoPageEngineTests, pytest_generate_tests,
)

OTHER_PAGES = ("phpbb/thread_page1", "ipb3/thread_page1", "ipb4/pm_view", "mybb/pm_inbox", "smf/pm_view_1",
               "vbulletin3/thread_page1", "vbulletin3/pm_inbox", "vbulletin3/pm_view",
               "vbulletin4/thread_page1", "vbulletin4/pm_inbox", "vbulletin4/pm_view")
LOGIN_ACTION = {"vbulletin3": "login.php?do=login", "vbulletin4": "login.php?s=&do=login"}


class TestVbulletin(TwoPageEngineTests):
    FIRST_POST = {"vbulletin3": 301, "vbulletin4": 401}
    PM_IDS = {"vbulletin3": ("12", "9"), "vbulletin4": ("12", "9")}
    OTHER_PAGES = OTHER_PAGES

    def test_relative_russian_dates_follow_the_fetch_time(self, engine):
        next_day = ENGINES[engine].posts(page(engine, "thread_page1"), ZONE, NOW + timedelta(days=1))
        assert [post.posted_at for post in next_day] == [when + timedelta(days=1) for when in POSTED[:4]]
        assert all(post.posted_at.utcoffset() == MSK.utcoffset(NOW) for post in next_day)
        with pytest.raises(PageLayoutError, match="fetch time"):
            ENGINES[engine].posts(page(engine, "thread_page1"), ZONE)

    def test_forms_carry_the_security_token(self, engine):
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
