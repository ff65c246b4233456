"""The phpBB adapter against the local forum over real HTTP."""
import pytest

from forumgm.daemon.forum import ForumError, open_forum
from forumgm.daemon.offline.localforum import LocalForum
from localforum_support import HOST, host_forum, seeded_board, thread_url


@pytest.fixture
def server(clock):
    with LocalForum(seeded_board(clock, replies=7)) as running:
        yield running


def test_reads_pages_of_the_thread_after_logging_in(server, clock):
    forum = host_forum(server, clock)
    assert forum.thread_page_count(thread_url(server)) == 2
    info, posts, html = forum.thread_page(thread_url(server), 2)
    assert (info.page, info.pages) == (2, 2)
    assert [p.author for p in posts] == ["Аскон", "gosha100", "Robozik"]
    assert posts[0].colored[0].text == "gosha100" and posts[0].colored[0].color == "#0000ff"
    assert 'id="username_logged_in"' in html


def test_wrong_password_is_the_forums_own_message(server, clock):
    with pytest.raises(ForumError, match="incorrect username or password"):
        host_forum(server, clock, password="wrong").login()


def test_forms_are_never_submitted_in_the_second_they_were_made(server, clock):
    forum = host_forum(server, clock)
    forum.client.policy = type(forum.client.policy)(min_interval=0)   # no rate limit: the form rule alone
    forum.login()
    assert clock.slept and all(s >= 0 for s in clock.slept)
    assert sum(clock.slept) >= 1.0


def test_reply_lands_as_the_hosts_post(server, clock):
    forum = host_forum(server, clock)
    post_id = forum.reply(thread_url(server), "Итоги: [color=blue]Кума[/color] — 2 голоса")
    last = server.board.visible_posts(2)[-1]
    assert str(last.id) == post_id
    assert server.board.users[last.author_id].name == HOST
    assert last.bbcode == "Итоги: [color=blue]Кума[/color] — 2 голоса"


def test_reply_resubmits_once_when_someone_posted_meanwhile(server, clock):
    forum = host_forum(server, clock)
    original = forum.fetch_form

    def form_then_a_new_post(url, name, login=True):
        fetched = original(url, name, login)
        if name == "reply":
            server.board.reply("Кума", 2, "Я успел раньше")
        return fetched

    forum.fetch_form = form_then_a_new_post
    post_id = forum.reply(thread_url(server), "Итоги")
    texts = [p.bbcode for p in server.board.visible_posts(2)]
    assert texts[-2:] == ["Я успел раньше", "Итоги"]
    assert texts.count("Итоги") == 1 and str(server.board.visible_posts(2)[-1].id) == post_id


def test_a_refused_reply_carries_the_forums_message(server, clock):
    with pytest.raises(ForumError, match="too few characters"):
        host_forum(server, clock).reply(thread_url(server), "   ")


def test_send_pm_resolves_the_recipient_by_name(server, clock):
    forum = host_forum(server, clock)
    pm_id = forum.send_pm("кума", "Ваша роль", "Вы — [b]Доктор[/b]")
    pm = server.board.pms[int(pm_id)]
    assert server.board.users[pm.recipient_id].name == "Кума"
    assert (pm.subject, pm.bbcode) == ("Ваша роль", "Вы — [b]Доктор[/b]")
    assert forum.find_sent_pm("Кума", "Ваша роль", "Доктор") == pm_id
    assert forum.find_sent_pm("Кума", "Ваша роль", "Шериф") is None


def test_unknown_recipient_is_an_error_and_nothing_is_sent(server, clock):
    with pytest.raises(ForumError, match="Незнакомец"):
        host_forum(server, clock).send_pm("Незнакомец", "Тема", "Текст")
    assert server.board.pms == {}


def test_inbox_and_message(server, clock):
    server.board.send_pm("Аскон", HOST, "Ночной ход", "Атака 5 gosha100\nЗащита Кума")
    server.board.send_pm("Кума", HOST, "Ход", "Лечение Аскон")
    forum = host_forum(server, clock)
    headers = inbox(forum)
    assert [(h.id, h.sender, h.subject, h.unread) for h in headers] == [
        ("2", "Кума", "Ход", True), ("1", "Аскон", "Ночной ход", True)]
    message = forum.message("1")
    assert message.text == "Атака 5 gosha100\nЗащита Кума" and message.sender == "Аскон"
    assert [h.unread for h in inbox(forum)] == [True, False]


def test_an_expired_session_is_reopened_once(server, clock):
    forum = host_forum(server, clock)
    inbox(forum)
    server.board.expire_sessions()
    server.board.send_pm("Аскон", HOST, "Ход", "Атака 5 Кума")
    assert [h.subject for h in inbox(forum)] == ["Ход"]
    assert len(server.board.sessions) == 1


def inbox(forum) -> list:
    return [header for headers, _ in forum.inbox_pages() for header in headers]


def test_find_own_post_by_its_text_as_the_board_renders_it(server, clock):
    forum = host_forum(server, clock)
    forum.reply(thread_url(server), "Итоги дня:\n[list][*][color=blue]Кума[/color] — 2[/list]")
    found = forum.find_own_post(thread_url(server), "Итоги дня:\n[list][*][color=blue]Кума[/color] — 2[/list]")
    assert found == str(server.board.visible_posts(2)[-1].id)
    assert forum.find_own_post(thread_url(server), "Итоги дня: Аскон — 2") is None


def test_a_sent_pm_waits_in_the_outbox_until_read_and_is_found_in_either_folder(server, clock):
    """phpBB keeps a sent PM in the Outbox until its recipient opens his PMs, then moves it to
    Sent messages; both folders are read, in their own layout ("To …", "Sent: …")."""
    forum = host_forum(server, clock)
    before = forum.newest_sent_pm()
    pm_id = forum.send_pm("Кума", "Ваша роль", "Вы — [b]Доктор[/b]")
    assert forum.find_sent_pm("Кума", "Ваша роль", "Вы — [b]Доктор[/b]", after=before) == pm_id    # outbox
    kuma = open_forum({"engine": "phpbb", "base_url": server.url, "username": "Кума"}, "Кума-pw",
                      clock=clock.monotonic, sleep=clock.sleep)
    list(kuma.inbox_pages())                                                       # Кума opens his PMs
    assert not server.board.outbox(server.board.user_named(HOST).id)
    assert forum.find_sent_pm("Кума", "Ваша роль", "Вы — [b]Доктор[/b]", after=before) == pm_id    # sent folder
    assert forum.find_sent_pm("Аскон", "Ваша роль", "Вы — [b]Доктор[/b]", after=before) is None


def test_a_full_inbox_is_a_problem_for_the_host_and_a_nearly_full_one_a_warning(tmp_path, server, clock, caplog,
                                                                                 monkeypatch):
    from forumgm.daemon.tick import sync
    from forumgm.daemon.tick.sync import sync_inbox
    from localforum_support import game_store
    monkeypatch.setattr(sync, "_TOLD_NEARLY_FULL", set())      # said once per run: this run starts here
    store = game_store(tmp_path, server, clock)
    for n in range(41):
        server.board.send_pm("Аскон", HOST, f"Ход {n}", "Атака 1 Кума")
    nearly = sync_inbox("local", host_forum(server, clock), store, clock.now())
    assert nearly.ok and len(nearly.new_pms) == 41 and "nearly full (41 of 50)" in caplog.text
    for n in range(41, 55):
        server.board.send_pm("Аскон", HOST, f"Ход {n}", "Атака 1 Кума")
    full = sync_inbox("local", host_forum(server, clock), store, clock.now())
    assert "is full (50 of 50)" in full.error and "holds new PMs back" in full.error
    assert len(store.known_pm_ids("local")) == 50          # the four held back are not shown by the board


def test_a_pm_the_host_sent_himself_is_no_order_and_no_missing_pm(tmp_path, server, clock):
    """A notice approved to the host's own account lands in his inbox: it is not read as an order,
    and the inbox's count, which includes it, does not look like PMs left unread (before or after
    a restart, when the page holding it is no longer read)."""
    from forumgm.daemon.tick.sync import sync_inbox
    from localforum_support import game_store
    store = game_store(tmp_path, server, clock)
    host_forum(server, clock).send_pm(HOST, "Заметка", "Письмо ведущему от forumgm")
    server.board.send_pm("Аскон", HOST, "Ход", "Атака 1 Кума")
    first = sync_inbox("local", host_forum(server, clock), store, clock.now())
    assert first.ok, first.error
    assert [store.pms("local")[0]["sender"]] == ["Аскон"] and len(first.new_pms) == 1
    server.board.send_pm("Кума", HOST, "Ход", "Лечение Аскон")
    again = sync_inbox("local", host_forum(server, clock), store, clock.now())
    assert again.ok, again.error
    assert [pm["sender"] for pm in store.pms("local")] == ["Аскон", "Кума"]
