"""Private messages and forms on the engines captured from real installs."""
import pytest
from selectolax.lexbor import LexborHTMLParser

from forumgm.parsers.forums import ENGINES
from forumgm.parsers.forums.base import PageLayoutError
from forum_parser_fixtures import CAPTURED, page

SENDERS = {"Аскон": "Ночной ход", "Гладиатор": "Ход на ночь 1", "Кума": "Мой ход", "Robozik": "Ночь 1"}
INBOX = {   # engine: ids in page order, ids of PM 1 and PM 2 (read before the second capture)
    "phpbb": (["4", "3", "2", "1"], "1", "2"),
    "mybb": (["1", "3", "5", "7"], "1", "3"),
    "smf": (["1", "2", "3", "4"], "1", "2"),
}
# SMF shows every PM in full on the inbox page, so opening the inbox reads them all.
READ_AFTER = {"phpbb": {"1", "2"}, "mybb": {"1", "3"}, "smf": {"1", "2", "3", "4"}}


@pytest.mark.parametrize("engine", sorted(INBOX))
def test_inbox_lists_every_pm_unread_before_reading(engine):
    headers = ENGINES[engine].inbox(page(engine, "pm_inbox"), "UTC", CAPTURED)
    assert [h.id for h in headers] == INBOX[engine][0]
    assert {h.sender: h.subject for h in headers} == SENDERS
    assert all(h.unread for h in headers)
    assert all(h.sent_at.date() == CAPTURED.date() for h in headers)
    assert all(h.sender_id and h.sender_id.isdigit() for h in headers)


@pytest.mark.parametrize("engine", sorted(INBOX))
def test_inbox_after_reading_two(engine):
    headers = ENGINES[engine].inbox(page(engine, "pm_inbox_after_read"), "UTC", CAPTURED)
    assert {h.id for h in headers if not h.unread} == READ_AFTER[engine]


@pytest.mark.parametrize("engine", sorted(INBOX))
def test_pm_body_sender_and_subject(engine):
    first = ENGINES[engine].message(page(engine, "pm_view_1"), "UTC", CAPTURED)
    assert (first.id, first.sender, first.subject) == (INBOX[engine][1], "Аскон", "Ночной ход")
    assert first.text.split("\n") == ["Атака 5 gosha100", "Атака магией gosha100", "Атака 10 Robozik"]
    second = ENGINES[engine].message(page(engine, "pm_view_2"), "UTC", CAPTURED)
    assert (second.id, second.sender, second.text) == (INBOX[engine][2], "Гладиатор", "Атака 7 Кума\nЗащита Аскон")


@pytest.mark.parametrize("engine", sorted(INBOX))
def test_an_empty_inbox_is_an_empty_list(engine):
    module = ENGINES[engine]
    tree = LexborHTMLParser(page(engine, "pm_inbox"))
    for row in tree.css(module.LAYOUT.inbox.row):
        row.decompose()
    assert module.inbox(tree.html, "UTC", CAPTURED) == []


@pytest.mark.parametrize("engine", sorted(INBOX))
def test_a_thread_page_is_not_an_inbox(engine):
    with pytest.raises(PageLayoutError):
        ENGINES[engine].inbox(page(engine, "thread_page1"), "UTC", CAPTURED)
    with pytest.raises(PageLayoutError):
        ENGINES[engine].message(page(engine, "thread_page1"), "UTC", CAPTURED)


def test_fluxbb_has_no_private_messages():
    with pytest.raises(PageLayoutError, match="no private messages"):
        ENGINES["fluxbb"].inbox(page("fluxbb", "index"), "UTC", CAPTURED)


@pytest.mark.parametrize("engine, fixture, name, action, tokens", [
    ("phpbb", "login", "login", "./ucp.php?mode=login&sid=PHPBB_SID_ANON_PLACEHOLDER",
     {"form_token": "PHPBB_FORM_TOKEN_PLACEHOLDER", "sid": "PHPBB_SID_ANON_PLACEHOLDER", "redirect": "index.php"}),
    ("phpbb", "newreply_form", "reply", "./posting.php?mode=reply&t=2",
     {"form_token": "PHPBB_FORM_TOKEN_PLACEHOLDER", "topic_cur_post_id": "14",
      "subject": "Re: Игра №1: День 1 — голосование"}),
    ("phpbb", "pm_compose", "pm", "./ucp.php?i=pm&mode=compose&action=post&sid=PHPBB_SID_HOST_PLACEHOLDER",
     {"form_token": "PHPBB_FORM_TOKEN_PLACEHOLDER"}),
    ("mybb", "login", "login", "member.php", {"action": "do_login", "my_post_key": "MYBB_POST_KEY_PLACEHOLDER"}),
    ("mybb", "newreply_form", "reply", "newreply.php?tid=1&processed=1",
     {"my_post_key": "MYBB_POST_KEY_PLACEHOLDER", "posthash": "MYBB_POSTHASH_PLACEHOLDER", "tid": "1"}),
    ("mybb", "pm_compose", "pm", "private.php", {"action": "do_send", "my_post_key": "MYBB_POST_KEY_PLACEHOLDER"}),
    ("smf", "login", "login", "http://127.0.0.1:8083/index.php?action=login2",
     {"SMF_SESSION_VAR_PLACEHOLDER": "SMF_SESSION_ID_PLACEHOLDER"}),
    ("smf", "newreply_form", "reply", "http://127.0.0.1:8083/index.php?action=post2;start=0;board=2",
     {"topic": "2", "SMF_SESSION_VAR_PLACEHOLDER": "SMF_SESSION_ID_PLACEHOLDER"}),
    ("fluxbb", "login", "login", "login.php?action=in", {"csrf_token": "FLUXBB_CSRF_TOKEN_PLACEHOLDER", "form_sent": "1"}),
    ("fluxbb", "newreply_form", "reply", "post.php?action=post&tid=2", {"form_sent": "1"}),
])
def test_forms_give_action_and_hidden_tokens(engine, fixture, name, action, tokens):
    form = ENGINES[engine].form(page(engine, fixture), name)
    assert form.action == action
    assert form.method == "post"
    assert tokens.items() <= form.fields.items()
    assert not any(value in ("Submit", "Login", "Post") for value in form.fields.values())


def test_phpbb_reply_form_is_multipart():
    assert ENGINES["phpbb"].form(page("phpbb", "newreply_form"), "reply").enctype == "multipart/form-data"


def test_a_missing_form_is_a_layout_error():
    with pytest.raises(PageLayoutError):
        ENGINES["phpbb"].form(page("phpbb", "index"), "reply")
