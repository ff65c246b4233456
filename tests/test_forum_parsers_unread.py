"""The unread-PM count in the header of the pages saved from the real boards, and of the pages written
after the default templates of XenForo 2, IP.Board 3.4, Invision Community 4 and vBulletin 3.8 / 4.2
(tests/fixtures/forums, each README names the template): a poll reads it off the thread page to know
whether the PM inbox holds anything new."""
from __future__ import annotations

import pytest

from forum_parser_fixtures import page
from forumgm.daemon.forum import ADAPTERS, open_forum
from forumgm.parsers.forums.unread import unread_pms


def count(engine: str, name: str) -> int | None:
    return unread_pms(page(engine, name), ADAPTERS[engine].spec.unread_pms)


@pytest.mark.parametrize("engine, name, unread", [
    ("phpbb", "thread_page3_last", 4),
    ("phpbb", "real_thread_softdeleted", 27),
    ("phpbb", "pm_view_1", 3),                       # the PM shown is read already
    ("phpbb", "real_thread_no_unread_pms", 0),       # <strong class="badge hidden">0</strong>
    ("mybb", "thread_page3_last", 4),
    ("mybb", "real_thread_softdeleted", 22),
    ("mybb", "pm_view_1", 4),                        # MyBB counts the PM shown until the next page
    ("mybb", "real_thread_no_unread_pms", 0),        # (Unread 0, Total 0)
    ("smf", "thread_page3_last", 4),
    ("smf", "real_thread_sanitised", 0),             # no <span class="amt"> at all when nothing is unread
    ("xenforo", "conversations", 1),                 # data-badge="1"
    ("xenforo", "thread_page2", 0),                  # data-badge="0"
    ("ipb3", "thread_page1", 1),                     # <span class='ipsHasNotifications'>1</span>
    ("ipb3", "thread_page2_last", 0),                # the messenger icon without the span
    ("ipb4", "thread_page1", 1),                     # the inbox's ipsNotificationCount
    ("ipb4", "thread_page2_last", 0),                # 0, hidden by ipsHide
    ("vbulletin3", "thread_page1", 1),               # the notifications menu's PM row, not the profile messages'
    ("vbulletin3", "thread_page2_last", 0),          # "Личные сообщения: Непрочитанных 0, Всего 2."
    ("vbulletin4", "thread_page1", 1),               # li#notifications: <span>1</span> Непрочитанные личные сообщения
    ("vbulletin4", "thread_page2_last", 0),          # li#nonotifications
])
def test_a_member_page_counts_the_unread_pms(engine, name, unread):
    assert count(engine, name) == unread


@pytest.mark.parametrize("engine", ["phpbb", "mybb", "smf", "xenforo", "ipb3", "ipb4", "vbulletin3", "vbulletin4"])
def test_a_guest_page_has_no_count_rather_than_zero(engine):
    assert count(engine, "login") is None


def test_a_theme_without_the_number_where_the_board_always_prints_one_gives_no_count():
    html = page("phpbb", "thread_page3_last").replace('<strong class="badge">4</strong>', "")
    assert unread_pms(html, ADAPTERS["phpbb"].spec.unread_pms) is None


# a theme or a plugin that moved the header's count away: unknown, never "nothing new" (the inbox is read)
HEADER_GONE = {
    "xenforo": ("thread_page2", 'data-badge="0" data-xf-click="menu" data-xf-key=","', 'data-xf-click="menu" data-xf-key=","'),
    "ipb3": ("thread_page2_last", "id='inbox_link'", "id='inbox'"),
    "ipb4": ("thread_page1", ">1</span>", "></span>"),
    "vbulletin3": ("thread_page2_last", '<a href="private.php">Личные сообщения</a>', "Личные сообщения"),
    "vbulletin4": ("thread_page2_last", 'id="nonotifications"', 'id="usermenu"'),
}


@pytest.mark.parametrize("engine", sorted(HEADER_GONE))
def test_a_page_without_the_count_where_the_template_prints_one_gives_none(engine):
    name, old, new = HEADER_GONE[engine]
    html = page(engine, name)
    assert old in html
    assert count(engine, name) is not None
    assert unread_pms(html.replace(old, new), ADAPTERS[engine].spec.unread_pms) is None


def test_vbulletin3_reads_the_notifications_menu_before_a_line_it_no_longer_shows():
    """With a notification waiting, vBulletin 3.8 shows the menu and no "Unread N" line; a page
    carrying both (a plugin keeping the line) is read by the menu, which the board keeps current."""
    line = '<div><a href="private.php">Личные сообщения</a>: Непрочитанных 0, Всего 2.</div>'
    script = '<script type="text/javascript"> vBmenu.register("notifications"); </script>'
    html = page("vbulletin3", "thread_page1").replace(script, script + line)     # in the welcome cell, above the menu
    assert line in html
    assert unread_pms(html, ADAPTERS["vbulletin3"].spec.unread_pms) == 1


def test_a_board_without_private_messages_gives_no_count():
    forum = open_forum({"engine": "fluxbb", "base_url": "http://127.0.0.1:9/", "username": "Ведущий"}, "pw")
    assert forum.unread_pms(page("fluxbb", "thread_page1")) is None
