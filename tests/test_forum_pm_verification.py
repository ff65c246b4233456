"""SMF's stock `pm_spam_settings` ask a member with fewer than 5 posts to read a picture before every
PM; a host account that new gets its PMs refused for good, each time. forumgm recognises the
verification on the pages saved from SMF 2.1.4 (tests/fixtures/forums/smf/README.md) and tells the
host what to change on the board, before anything is sent: the PM goes back to him, never dropped,
never sent again and again."""
from __future__ import annotations

import pytest

from forum_http_board import FIXTURES, BoardServer, FixtureBoard
from forum_http_sites import SMF, SMF_NEW_MEMBER
from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.errors import ForumRefused
from forumgm.daemon.forum.http import Page
from forumgm.daemon.notify.events import current_events
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.store import Store
from localforum_support import HOST

ADVICE = ("set Admin → Security and Moderation → Anti-Spam (index.php?action=admin;area=antispam) \"Post count "
          "under which users must pass verification when sending personal messages\" to 0")


def smf_page(name: str) -> Page:
    return Page("http://127.0.0.1:8083/index.php?action=pm;sa=send", 200,
                (FIXTURES / "forums" / "smf" / name).read_text(encoding="utf-8"))


def host(server, clock):
    settings = {"id": "main", "engine": "smf", "base_url": server.url, "username": HOST, "posts_per_page": 5,
                "timeout": 5, "retries": 0, "min_interval": 0.1}
    return open_forum(settings, "host-secret", clock=clock.monotonic, sleep=clock.sleep, now=clock.now)


def test_the_pm_form_and_the_refusal_the_real_board_showed_are_both_recognised():
    forum = open_forum({"engine": "smf", "base_url": "http://127.0.0.1:8083/", "username": "Ильмаринен"}, "x")
    for name in ("real_pm_compose_verification.html", "real_pm_verification_refused.html"):
        with pytest.raises(ForumRefused) as refused:
            forum._refuse_verification(smf_page(name))
        assert "SMF asks the account Ильмаринен to pass a verification" in str(refused.value)
        assert ADVICE in str(refused.value) and "approve the PM again (nothing was sent)" in str(refused.value)
    # the refusal the board gave to a PM without the code, as it reads without this check
    assert ("The letters you typed do not match the letters that were shown in the picture."
            in smf_page("real_pm_verification_refused.html").text)
    forum._refuse_verification(smf_page("pm_compose.html"))      # an account the board trusts: no question


def test_a_new_member_hosts_pm_goes_back_to_him_with_what_to_change_and_is_never_posted(tmp_path, clock):
    with BoardServer(FixtureBoard(SMF_NEW_MEMBER, password="host-secret", member=HOST, members=("Кума",),
                                    clock=clock.monotonic)) as server:
        store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
        store.register_forum("main", "smf", server.url, HOST)
        store.register_game("g1", "mafia", "main", server.url + "index.php?topic=2.0", "UTC", 1, {"Кума": []})
        pm = store.insert_draft("g1", "result", "Кума", "Итог ночи", "r1", False, subject="Ночь 1")
        post = store.insert_draft("g1", "vote_count", "thread", "Итоги дня", "vc", False)
        forum = host(server, clock)
        report = publish_approved(forum, store, clock.now())
        assert list(report.refused) == [pm] and list(report.sent) == [post]    # the post is not held by it
        assert server.board.pms == [] and not any("sa=send2" in where for where, _ in server.board.received)
        draft = store.draft(pm)
        assert draft["status"] == "pending" and ADVICE in draft["send_error"]
        [told] = [e for e in current_events(store, [], clock.now(), clock.now() - clock.now()) if e.kind == "refused"]
        assert told.data["id"] == pm and ADVICE in told.data["error"]
        publish_approved(forum, store, clock.now())                              # not tried again by itself
        assert not any("sa=send2" in where for where, _ in server.board.received)
        server.board.site = SMF                 # the host set the post count to 0 and approves the PM again
        store.approve(pm, "host")
        assert list(publish_approved(forum, store, clock.now()).sent) == [pm] and len(server.board.pms) == 1
