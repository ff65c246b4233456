"""What the real boards do on the paths that only matter when something goes wrong, replayed by
the fixture board from pages saved on SMF 2.1.4, MyBB 1.8.37 and FluxBB 1.5.11 (tests/fixtures/forums)."""
from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import quote

import pytest

from forum_http_board import BoardServer, FixtureBoard
from forum_http_sites import FLUXBB, MYBB, SMF, SMF_PAGED_INBOX
from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.errors import Accepted, BoardSaid
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_inbox
from localforum_support import HOST

THREADS = {"smf": "index.php?topic=2.0", "mybb": "showthread.php?tid=1", "fluxbb": "viewtopic.php?id=2"}


def serve(site, clock):
    return BoardServer(FixtureBoard(site, password="host-secret", member=HOST, members=("Кума", "Аскон"),
                                    clock=clock.monotonic))


def host(server, site, clock, **config):
    settings = {"engine": site.engine, "base_url": server.url, "username": HOST, "posts_per_page": 5,
                "timeout": 5, "retries": 0, **config}
    return open_forum(settings, "host-secret", clock=clock.monotonic, sleep=clock.sleep, now=clock.now)


def store_with_game(tmp_path, site, server, clock) -> Store:
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    store.register_forum("main", site.engine, server.url, HOST)
    store.register_game("g1", "mafia", "main", server.url + THREADS[site.engine], "UTC", 1, {"Кума": []})
    return store


def test_smf_every_pm_of_an_oldest_first_inbox_is_read_from_its_last_page_back(tmp_path, clock):
    """18 PMs, 5 a page: the inbox opens on page 4 (3 PMs); pages 3, 2, 1 are reached by the page's
    own links. A later sync stops at the page holding PMs already stored."""
    with serve(SMF_PAGED_INBOX, clock) as server:
        forum, store = host(server, SMF_PAGED_INBOX, clock), store_with_game(tmp_path, SMF_PAGED_INBOX, server, clock)
        first = sync_inbox("main", forum, store, clock.now())
        assert first.ok and first.pages_fetched == 4
        assert sorted(first.new_pms, key=int) == ["1", *map(str, range(3, 20))]
        assert sorted(store.known_pm_ids("main"), key=int) == ["1", *map(str, range(3, 20))]
        again = sync_inbox("main", forum, store, clock.now())
        assert again.ok and again.new_pms == [] and again.pages_fetched == 1


def test_smf_a_reply_answered_with_the_topics_new_posts_is_found_and_never_posted_again(tmp_path, clock):
    with serve(SMF, clock) as server:
        forum, store = host(server, SMF, clock), store_with_game(tmp_path, SMF, server, clock)
        draft = store.insert_draft("g1", "vote_count", "thread", "Итоги: [color=blue]Кума[/color] — 2", "d1", False)
        report = publish_approved(forum, store, clock.now())
        [post] = server.board.posts
        assert report.sent == {draft: post.id} and store.draft(draft)["status"] == "sent"
        for _ in range(3):     # the next ticks: nothing again
            assert publish_approved(forum, store, clock.now()).sent == {}
        assert len(server.board.posts) == 1


def test_smf_a_pm_answered_done_sent_is_found_in_the_sent_items(tmp_path, clock):
    with serve(SMF, clock) as server:
        forum, store = host(server, SMF, clock), store_with_game(tmp_path, SMF, server, clock)
        draft = store.insert_draft("g1", "receipt", "Кума", "Принято: Атака 3 → Аскон", "n1", False, subject="Квитанция")
        report = publish_approved(forum, store, clock.now())
        [pm] = server.board.pms
        assert report.sent == {draft: pm.id}


def test_smf_a_flood_refusal_is_read_waited_out_and_the_text_goes_once(clock):
    """An admin may post once per 2 s per address (the login counts): the 403 page says so; the
    adapter waits what it names and posts again, the board having taken nothing."""
    with serve(SMF, clock) as server:
        forum = host(server, SMF, clock, post_interval=0, min_interval=0.1)   # as if no interval were known
        with pytest.raises(Accepted):
            forum.reply(server.url + THREADS["smf"], "Итоги")
        assert server.board.floods == 1 and 2.0 + 1.0 in clock.slept      # the 2 s the page names, and a margin
        assert [p.fields["message"] for p in server.board.posts] == ["Итоги"]


def test_smf_with_its_known_interval_no_flood_refusal_comes(clock):
    with serve(SMF, clock) as server:
        forum = host(server, SMF, clock, min_interval=0.1)
        for text in ("Первый", "Второй", "Третий"):
            with pytest.raises(Accepted):
                forum.reply(server.url + THREADS["smf"], text)
        assert server.board.floods == 0 and len(server.board.posts) == 3


def test_a_flood_refusal_that_never_ends_is_the_boards_message(clock):
    with serve(SMF, clock) as server:
        forum = host(server, SMF, clock)
        forum.login()
        server.board.clock = lambda: 0.0          # waiting does not help: the board's clock stands still
        with pytest.raises(BoardSaid, match="less than 2 seconds ago") as said:
            forum.reply(server.url + THREADS["smf"], "Итоги")
        assert said.value.wait == 2.0 and server.board.posts == [] and server.board.floods == 3


@pytest.mark.parametrize("site", [MYBB, FLUXBB, SMF], ids=lambda site: site.engine)
def test_a_text_the_board_trims_or_sanitises_is_still_found(tmp_path, clock, site):
    """A host's template may leave invisible or blank characters: MyBB and FluxBB drop them,
    SMF shows U+FFFD; the text is still recognised as the draft's, and sent once."""
    body = "Итоги\u200b дня:\n[b]Кума[/b] — 2\u200d\n\n"
    with serve(site, clock) as server:
        forum, store = host(server, site, clock), store_with_game(tmp_path, site, server, clock)
        draft = store.insert_draft("g1", "vote_count", "thread", body, "d1", False)
        store.mark_sending(draft, clock.now(), after="0")
        try:    # the daemon died after this request, before recording it
            forum.reply(server.url + THREADS[site.engine], body)
        except Accepted:
            pass
        [post] = server.board.posts
        assert post.fields["message"] != body                    # the board changed it
        report = publish_approved(forum, store, clock.now())
        assert report.reconciled == {draft: post.id} and len(server.board.posts) == 1


def test_smf_a_report_the_flood_rule_refused_holds_back_the_phases_reports_after_it(tmp_path, clock):
    """SMF refused the second of a phase's three reports past its retries (the board's 2 s pause did
    not end): the third waits for it, and on the next run they go in their order."""
    with serve(SMF, clock) as server:
        forum, store = host(server, SMF, clock), store_with_game(tmp_path, SMF, server, clock)
        drafts = [store.insert_draft("g1", kind, "thread", f"Отчёт: {kind}", "round-1", False)
                  for kind in ("technical_report", "summary_report", "literary_report")]
        board = server.board
        [rule] = SMF.floods
        # after the first report, the board's clock stands still until it has refused three times
        board.clock = lambda: board._counted_at[rule] if len(board.posts) == 1 and board.floods < 3 else clock.monotonic()
        first = publish_approved(forum, store, clock.now())
        assert [p.fields["message"] for p in board.posts] == ["Отчёт: technical_report"]
        assert list(first.failed) == [drafts[1]] and "less than 2 seconds ago" in first.failed[drafts[1]]
        assert store.draft(drafts[2])["status"] == "approved"
        clock.sleep(5)
        again = publish_approved(forum, store, clock.now())
        assert again.ok and [p.fields["message"] for p in board.posts] == [
            "Отчёт: technical_report", "Отчёт: summary_report", "Отчёт: literary_report"]


# the member-list searches the real boards answered (tests/fixtures/forums/<engine>/README.md): for
# Кума her row (in any case, as the boards search), for any other name none
MEMBER_SEARCH = {"mybb": r"memberlist\.php\?username=", "smf": r"index\.php\?action=mlist;sa=search;search=",
                 "fluxbb": r"userlist\.php\?username="}


@pytest.mark.parametrize("site", [MYBB, SMF, FLUXBB], ids=lambda site: site.engine)
def test_the_board_is_asked_whether_a_replacement_account_exists_by_its_member_list(site, clock):
    search = MEMBER_SEARCH[site.engine]
    kuma = "|".join(re.escape(quote(name)) for name in ("Кума", "кума"))
    members = replace(site, pages=((search + f"(?:{kuma})" + r"(?:[&;].*)?", "real_members_found.html"),
                                   (search + ".*", "real_members_none.html"), *site.pages))
    with serve(members, clock) as server:
        forum = host(server, members, clock)
        # only the exact name (the board's own search forgives case): a player is his exact account
        assert [forum.knows_account(name) for name in ("Кума", "кума", "Нетакого")] == [True, False, False]
        assert server.board.pms == [] and server.board.posts == []        # asked, nothing sent
