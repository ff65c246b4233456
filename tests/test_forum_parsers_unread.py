"""The unread-PM count in the header of the pages saved from the real boards (tests/fixtures/forums):
a poll reads it off the thread page to know whether the PM inbox holds anything new."""
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
])
def test_a_member_page_counts_the_unread_pms(engine, name, unread):
    assert count(engine, name) == unread


@pytest.mark.parametrize("engine", ["phpbb", "mybb", "smf"])
def test_a_guest_page_has_no_count_rather_than_zero(engine):
    assert count(engine, "login") is None


def test_a_theme_without_the_number_where_the_board_always_prints_one_gives_no_count():
    html = page("phpbb", "thread_page3_last").replace('<strong class="badge">4</strong>', "")
    assert unread_pms(html, ADAPTERS["phpbb"].spec.unread_pms) is None


@pytest.mark.parametrize("engine, name", [("xenforo", "thread_page2"), ("fluxbb", "thread_page1")])
def test_a_board_whose_pages_are_not_read_for_a_count_gives_none(engine, name):
    """XenForo: not taught yet; FluxBB: no private messages at all."""
    forum = open_forum({"engine": engine, "base_url": "http://127.0.0.1:9/", "username": "Ведущий"}, "pw")
    assert forum.unread_pms(page(engine, name)) is None
