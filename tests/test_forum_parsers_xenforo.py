"""XenForo 2 on hand-written fixtures (tests/fixtures/forums/xenforo/README.md)."""
from datetime import datetime, timedelta, timezone

import pytest

from forumgm.parsers.forums import xenforo
from forumgm.parsers.forums.base import PageInfo, PageLayoutError
from forum_parser_fixtures import page

MSK = timezone(timedelta(hours=3))


@pytest.fixture(scope="module")
def posts():
    return xenforo.posts(page("xenforo", "thread_page2"), "UTC")


def test_ids_authors_times_and_edit(posts):
    assert [(p.id, p.author, p.author_id, p.page) for p in posts] == [("21", "Аскон", "58", 2), ("22", "Кума", "62", 2)]
    assert posts[0].posted_at == datetime(2026, 11, 30, 7, 42, 57, tzinfo=MSK)
    assert posts[0].edited_at == datetime(2026, 11, 30, 7, 43, 10, tzinfo=MSK)
    assert posts[1].edited_at is None


def test_votes_outside_nested_quotes_spoilers_and_code(posts):
    assert [(f.color, f.text) for f in posts[0].colored] == [("#0000ff", "Robozik")]
    assert [(f.color, f.text) for f in posts[1].colored] == [("#0000ff", "Гладиатор"), ("#ff0000", "Ильмаринен")]
    assert [(f.text, f.where) for f in posts[1].flagged] == [
        ("Гладиатор", "quote"), ("Кума", "quote"), ("Аскон", "spoiler")]
    assert posts[1].text.startswith("Голосую за Гладиатор\n\nА я за Кума")
    assert posts[1].text_unquoted.startswith("Без доказательств обвиняешь.")
    assert "Click to expand" not in posts[1].text


def test_page_info_inbox_message_and_forms():
    assert xenforo.page_info(page("xenforo", "thread_page2")) == PageInfo(2, 3)
    headers = xenforo.inbox(page("xenforo", "conversations"), "UTC")
    assert [(h.id, h.sender, h.sender_id, h.subject, h.unread) for h in headers] == [
        ("4", "Robozik", "60", "Ночь 1", True), ("1", "Аскон", "58", "Ночной ход", False)]
    pm = xenforo.message(page("xenforo", "conversation_view"), "UTC")
    assert (pm.id, pm.sender, pm.subject) == ("1", "Аскон", "Ночной ход")
    assert pm.text.split("\n") == ["Атака 5 gosha100", "Атака магией gosha100", "Атака 10 Robozik"]
    login = xenforo.form(page("xenforo", "login"), "login")
    assert (login.action, login.fields["_xfToken"], login.fields["remember"]) == ("/login/login", "XF_TOKEN_PLACEHOLDER", "1")
    assert xenforo.form(page("xenforo", "thread_page2"), "reply").action == "/threads/igra-1.7/add-reply"


def test_pages_of_other_engines_are_layout_errors():
    with pytest.raises(PageLayoutError):
        xenforo.posts(page("phpbb", "thread_page1"), "UTC")
    with pytest.raises(PageLayoutError):
        xenforo.inbox(page("xenforo", "thread_page2"), "UTC")
