"""Every engine adapter driven over real HTTP against its fixture board (tests/forum_http_board.py)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pytest

from forum_http_board import BoardServer, FixtureBoard, Site
from forum_http_sites import FLUXBB, IPB3, IPB4, MYBB, SMF, VBULLETIN3, VBULLETIN4, XENFORO
from forumgm.daemon.forum import ForumError, ForumRefused, NoPrivateMessages, open_forum
from forumgm.daemon.forum.errors import Accepted
from localforum_support import HOST



@dataclass(frozen=True)
class Case:
    site: Site
    thread: str            # the thread URL, relative to the board
    page: int              # a page to read, and the author of its first post
    first_author: str

    @property
    def id(self) -> str:
        return self.site.engine


MYBB_CASE = Case(MYBB, "showthread.php?tid=1", 2, "Кума")
SMF_CASE = Case(SMF, "index.php?topic=2.0", 2, "Кума")
FLUXBB_CASE = Case(FLUXBB, "viewtopic.php?id=2", 2, "Кума")
XENFORO_CASE = Case(XENFORO, "threads/igra-1.7/", 2, "Аскон")
IPB3_CASE = Case(IPB3, "index.php?showtopic=7", 2, "Ильмаринен")
IPB4_CASE = Case(IPB4, "topic/7-igra-1-den-1/", 2, "Ильмаринен")
VBULLETIN3_CASE = Case(VBULLETIN3, "showthread.php?t=7", 2, "Ильмаринен")
VBULLETIN4_CASE = Case(VBULLETIN4, "showthread.php?7-Igra-1-Den-1", 2, "Ильмаринен")
CASES = [MYBB_CASE, SMF_CASE, FLUXBB_CASE, XENFORO_CASE, IPB3_CASE, IPB4_CASE, VBULLETIN3_CASE, VBULLETIN4_CASE]
PM_CASES = [case for case in CASES if case.site.pm is not None]


def each(cases):
    return pytest.mark.parametrize("case", cases, ids=[c.id for c in cases])


@pytest.fixture
def running(case, clock):
    board = FixtureBoard(case.site, password="host-secret", member=HOST, members=("Кума", "Аскон"),
                         clock=clock.monotonic)
    with BoardServer(board) as server:
        yield server


def adapter(running, case, clock, password="host-secret", **config):
    settings = {"engine": case.site.engine, "base_url": running.url, "username": HOST, "posts_per_page": 5,
                "timeout": 5, "retries": 0, **config}
    return open_forum(settings, password, clock=clock.monotonic, sleep=clock.sleep, now=clock.now)


@each(CASES)
def test_logs_in_with_the_pages_tokens_and_reads_a_thread_page(running, case, clock):
    info, posts, _ = adapter(running, case, clock).thread_page(running.url + case.thread, case.page)
    assert info.page == case.page and posts[0].author == case.first_author
    where, login = running.board.received[0]
    fields, digest = case.site.login.fields, case.site.password_digest or (lambda password: password)
    assert (login[fields["username"]], login[fields["password"]]) == (HOST, digest("host-secret"))


@each(CASES)
def test_a_wrong_password_is_the_boards_message(running, case, clock):
    with pytest.raises(ForumError, match="Incorrect username or password"):
        adapter(running, case, clock, password="wrong").login()


def inbox(forum) -> list:
    return [header for headers, _ in forum.inbox_pages() for header in headers]


@each(CASES)
def test_reply_lands_as_written_and_is_found_by_its_text(running, case, clock):
    forum, url, text = adapter(running, case, clock), running.url + case.thread, "Итоги: [color=blue]Кума[/color]"
    try:
        named = forum.reply(url, text)
    except Accepted:     # SMF sends to the topic's new posts: taken, not named
        named = None
    [post] = running.board.posts
    assert post.fields["message"] == text and named in (post.id, None)
    assert (named is None) == ("{id}" not in case.site.reply.target)
    post_id = post.id
    assert forum.find_own_post(url, text) == post_id
    assert forum.find_own_post(url, text, after=post_id) is None            # only what came after the baseline
    assert forum.find_own_post(url, text, claimed={post_id}) is None        # another draft's already
    assert forum.find_own_post(url, "Итоги: [color=blue]Аскон[/color]") is None


@each(CASES)
def test_a_refused_reply_is_a_refusal_with_the_boards_message(running, case, clock):
    with pytest.raises(ForumRefused, match="too short"):
        adapter(running, case, clock).reply(running.url + case.thread, "   ")
    assert running.board.posts == []


@each(CASES)
def test_an_expired_session_is_opened_again_once(running, case, clock):
    forum = adapter(running, case, clock)
    forum.thread_page(running.url + case.thread, 1)
    running.board.expire_sessions()
    _, posts, _ = forum.thread_page(running.url + case.thread, case.page)
    assert posts[0].author == case.first_author
    logins = [form for where, form in running.board.received if "password" in str(case.site.login.fields)
              and case.site.login.fields["password"] in form]
    assert len(logins) == 2


@each(PM_CASES)
def test_inbox_and_a_message(running, case, clock):
    forum = adapter(running, case, clock)
    assert ("Аскон", "Ночной ход") in [(h.sender, h.subject) for h in inbox(forum)]
    askon = next(h for h in inbox(forum) if h.subject == "Ночной ход")
    message = forum.message(askon.id)
    assert message.sender == "Аскон" and "Атака 5 gosha100" in message.text


@each(PM_CASES)
def test_send_pm_and_find_it_in_the_sent_items_by_recipient_subject_and_text(running, case, clock):
    forum, text = adapter(running, case, clock), "Вы — [b]Доктор[/b]"
    before = forum.newest_sent_pm()
    try:
        named = forum.send_pm("Кума", "Ваша роль", text)
    except Accepted:     # the board's answer does not name the PM (MyBB, SMF, IPB 3, vBulletin)
        named = None
    [sent] = running.board.pms
    assert named in (sent.id, None) and case.site.pm.target.count("{id}") == (named is not None)
    assert sent.fields == {"to": "Кума", "subject": "Ваша роль", "message": text}
    assert forum.find_sent_pm("Кума", "Ваша роль", text, after=before) == sent.id
    # another recipient: told apart where the sent folder names him; a list of conversations
    # (XenForo, IPB) names who started each, the host, so there subject and text decide
    other = forum.find_sent_pm("Аскон", "Ваша роль", text, after=before)
    assert other == (None if forum.spec.pm.lists_recipient else sent.id)
    assert forum.find_sent_pm("Кума", "Ваша роль", "Вы — [b]Мафия[/b]", after=before) is None
    assert forum.find_sent_pm("Кума", "Ваша роль", text, after=sent.id) is None     # sent before the baseline
    assert "Ваша роль" not in [h.subject for h in inbox(forum)]   # the host's own PM is no order


@each(PM_CASES)
def test_a_pm_to_an_unknown_member_is_refused_and_nothing_is_sent(running, case, clock):
    with pytest.raises(ForumRefused, match="Незнакомец"):
        adapter(running, case, clock).send_pm("Незнакомец", "Тема", "Текст")
    assert running.board.pms == []


@each([FLUXBB_CASE])
def test_fluxbb_says_it_has_no_private_messages(running, case, clock):
    forum = adapter(running, case, clock)
    assert not forum.pm_supported
    for call in (lambda: inbox(forum), lambda: forum.send_pm("Кума", "Тема", "Текст"), lambda: forum.message("1")):
        with pytest.raises(NoPrivateMessages, match="no private messages"):
            call()


@each([SMF_CASE])
def test_smf_learns_the_posts_per_page_from_the_page_links(running, case, clock):
    forum = adapter(running, case, clock, posts_per_page=None)
    info, posts, _ = forum.thread_page(running.url + case.thread, 3)
    assert info.page == 3 and posts[0].author == "Robozik"


@each([VBULLETIN3_CASE])
def test_vbulletin_sends_the_password_only_as_its_login_script_digests_it(running, case, clock):
    with pytest.raises(ForumError, match="Incorrect username or password"):
        adapter(running, case, clock, password=" пароль 1").login()
    _, login = running.board.received[0]
    assert login["vb_login_password"] == ""
    # str_to_ent() turns letters above U+00FF into entities; the _utf digest keeps each letter's low byte
    entities = "&#1087;&#1072;&#1088;&#1086;&#1083;&#1100; 1"
    assert login["vb_login_md5password"] == hashlib.md5(entities.encode("ascii")).hexdigest()
    low_bytes = bytes([0x3F, 0x30, 0x40, 0x3E, 0x3B, 0x4C, 0x20, 0x31])
    assert login["vb_login_md5password_utf"] == hashlib.md5(low_bytes).hexdigest()
