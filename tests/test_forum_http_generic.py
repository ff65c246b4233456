"""The generic engine, configured by config/forums/generic.example.toml (a phpBB-like board),
against the local forum over real HTTP."""
import tomllib
from pathlib import Path

import pytest

import forumgm.config
from forumgm.daemon.forum import ForumError, ForumRefused, open_forum
from forumgm.daemon.offline.localforum import LocalForum
from localforum_support import HOST, seeded_board, thread_url

EXAMPLE = Path(forumgm.config.__file__).parent / "forums" / "generic.example.toml"


@pytest.fixture
def server(clock):
    with LocalForum(seeded_board(clock, replies=7)) as running:
        yield running


def generic_forum(server, clock, selectors=EXAMPLE):
    config = {"engine": "generic", "base_url": server.url, "username": HOST, "selectors": selectors}
    return open_forum(config, "host-secret", clock=clock.monotonic, sleep=clock.sleep, now=clock.now)


def test_reads_the_thread_with_the_configured_urls_and_selectors(server, clock):
    forum = generic_forum(server, clock)
    assert forum.thread_page_count(thread_url(server)) == 2
    info, posts, _ = forum.thread_page(thread_url(server), 2)
    assert info.page == 2 and posts[0].colored[0].text == "gosha100"


def test_reply_and_find_it_by_its_text(server, clock):
    forum = generic_forum(server, clock)
    post_id = forum.reply(thread_url(server), "Итоги [b]дня[/b]")
    assert str(server.board.visible_posts(2)[-1].id) == post_id
    assert forum.find_own_post(thread_url(server), "Итоги [b]дня[/b]") == post_id
    assert forum.find_own_post(thread_url(server), "Итоги ночи") is None


def test_inbox_message_and_a_pm_found_in_the_sent_items(server, clock):
    server.board.send_pm("Аскон", HOST, "Ночной ход", "Атака 5 gosha100")
    sent = server.board.send_pm(HOST, "Кума", "Ваша роль", "Доктор")
    forum = generic_forum(server, clock)
    [([header], listing)] = list(forum.inbox_pages())
    assert (header.sender, header.subject) == ("Аскон", "Ночной ход") and listing.total == 1
    assert forum.message(header.id).text == "Атака 5 gosha100"
    assert forum.find_sent_pm("Кума", "Ваша роль", "Доктор") == str(sent.id)     # still in the outbox


def test_a_pm_the_board_refuses_carries_its_message(server, clock):
    # a phpBB board wants recipients added first: the generic engine's one-form PM is refused
    with pytest.raises(ForumRefused, match="No recipient defined"):
        generic_forum(server, clock).send_pm("Кума", "Тема", "Текст")


def test_a_missing_http_key_is_named(server, clock):
    table = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    del table["http"]["reply"]["fields"]["message"]
    with pytest.raises(ForumError, match=r"http\.reply\.fields needs message"):
        generic_forum(server, clock, selectors=table)
