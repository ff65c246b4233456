"""Conditional GETs: a page that came with a validator is asked for again with it, and a 304
stands for the copy kept. The real boards send none that means anything (phpBB, MyBB: none; SMF,
FluxBB: a Last-Modified that is the time of the answer), so the local forum sends an ETag here
as a board behind a caching proxy would."""
from __future__ import annotations

from datetime import timedelta

import pytest
import responses

from forumgm.daemon.forum.conditional import KeptPages, validators
from forumgm.daemon.forum.http import HttpClient, HttpPolicy, Page
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.sync import sync_game
from localforum_support import PLAYERS, game_store, host_forum, seeded_board

NO_WINDOW = timedelta(0)
ANSWERED = "Tue, 01 Dec 2026 10:00:00 GMT"


def record_exchanges(forum) -> list[tuple[int, str | None]]:
    """(status, If-None-Match sent) of every answer the host's session gets over HTTP."""
    seen: list[tuple[int, str | None]] = []
    forum.client.session.hooks["response"].append(
        lambda response, *args, **kwargs: seen.append((response.status_code,
                                                       response.request.headers.get("If-None-Match"))))
    return seen


@pytest.mark.parametrize("etags", [True, False])
def test_an_unchanged_thread_page_is_answered_304_and_read_from_the_copy_kept(tmp_path, clock, etags):
    with LocalForum(seeded_board(clock, replies=6)) as server:      # 7 posts: pages of 5 and 2
        server.board.etags = etags
        store, forum = game_store(tmp_path, server, clock), host_forum(server, clock)
        assert sync_game(store.game("g1"), forum, store, clock.now(), NO_WINDOW).ok
        seen = record_exchanges(forum)
        again = sync_game(store.game("g1"), forum, store, clock.now(), NO_WINDOW)
        assert again.ok and again.pages_fetched == 1 and again.new_posts == [] and again.unread_pms == 0
        if etags:
            [(status, sent)] = seen
            assert status == 304 and sent
        else:       # as phpBB: nothing to send back, every answer whole
            assert seen == [(200, None)]
        server.board.reply(PLAYERS[0], 2, "Голосую за [color=blue]Кума[/color]")
        changed = sync_game(store.game("g1"), forum, store, clock.now(), NO_WINDOW)
        assert changed.ok and len(changed.new_posts) == 1 and seen[-1][0] == 200
        assert len(store.posts("g1")) == 8


def test_a_pm_waiting_changes_the_page_so_its_count_is_never_read_from_a_stale_copy(tmp_path, clock):
    with LocalForum(seeded_board(clock, replies=2)) as server:
        server.board.etags = True
        store, forum = game_store(tmp_path, server, clock), host_forum(server, clock)
        assert sync_game(store.game("g1"), forum, store, clock.now(), NO_WINDOW).unread_pms == 0
        server.board.send_pm(PLAYERS[1], "Ведущий", "Ночь 1", "Шпионаж Кума")
        assert sync_game(store.game("g1"), forum, store, clock.now(), NO_WINDOW).unread_pms == 1


@responses.activate
def test_a_real_last_modified_is_sent_back_and_a_304_gives_the_kept_page():
    url = "http://board.test/viewtopic.php?t=2"
    responses.get(url, body="<p>page</p>", headers={"Last-Modified": "Tue, 01 Dec 2026 09:00:00 GMT",
                                                    "Date": ANSWERED})
    responses.get(url, status=304, match=[responses.matchers.header_matcher(
        {"If-Modified-Since": "Tue, 01 Dec 2026 09:00:00 GMT"})])
    client = HttpClient(HttpPolicy(min_interval=0), sleep=lambda seconds: None)
    first, second = client.get(url), client.get(url)
    assert first.text == second.text == "<p>page</p>" and second.unchanged and not first.unchanged
    assert client.requests_made == 2


@pytest.mark.parametrize("headers, sent", [
    ({"ETag": '"a1"'}, {"If-None-Match": '"a1"'}),
    ({"ETag": 'W/"a1"', "Last-Modified": "Tue, 01 Dec 2026 09:00:00 GMT", "Date": ANSWERED},
     {"If-None-Match": 'W/"a1"', "If-Modified-Since": "Tue, 01 Dec 2026 09:00:00 GMT"}),
    ({"Last-Modified": ANSWERED, "Date": ANSWERED}, {}),              # SMF, FluxBB: the answer's own time
    ({"Last-Modified": "Tue, 01 Dec 2026 09:00:00 GMT"}, {}),         # no Date to tell it from one
    ({"Last-Modified": "yesterday", "Date": ANSWERED}, {}),
    ({"Cache-Control": 'private, no-cache="set-cookie"'}, {}),        # phpBB, MyBB
])
def test_which_validators_are_sent_back(headers, sent):
    assert validators(headers) == sent


def test_only_the_newest_pages_are_kept():
    kept = KeptPages(size=2)
    for n in range(3):
        kept.answer(f"u{n}", Page(f"u{n}", 200, "text", validators={"If-None-Match": f'"{n}"'}))
    assert [kept.ask(f"u{n}") for n in range(3)] == [{}, {"If-None-Match": '"1"'}, {"If-None-Match": '"2"'}]
    kept.answer("u1", Page("u1", 200, "text"))        # now sent without a validator: forgotten
    assert kept.ask("u1") == {}
