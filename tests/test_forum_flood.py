"""A host account that is a plain member meets the boards' flood rules (MyBB, phpBB, SMF with
their stock settings), replayed by the fixture board with the refusal pages saved from the real
boards: a burst of approved drafts goes out each exactly once, a long pause is waited for between
ticks (never inside one), and the host sees the drafts waiting for it."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from forum_http_board import BoardServer, FixtureBoard
from forum_http_sites import MYBB, MYBB_MEMBER, PHPBB_MEMBER, SMF, SMF_MEMBER
from forumgm.daemon.cli.drafts import _refusal
from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.adapter import FLOOD_INLINE
from forumgm.daemon.forum.errors import FloodPause
from forumgm.daemon.forum.page_text import HOURLY_PAUSE, first_text, flood_wait
from forumgm.daemon.forum.mybb import SPEC as MYBB_SPEC
from forumgm.daemon.forum.phpbb import SPEC as PHPBB_SPEC
from forumgm.daemon.forum.smf import SPEC as SMF_SPEC
from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.drafts.publish import PublishReport, publish_approved
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.tick.flow import Edges
from forumgm.daemon.store import Store
from forumgm.daemon.runtime.wakeups import Polling, next_wake
from localforum_support import HOST
from mafia_daemon_support import example_installation, msk

PLAYERS = ("Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума", "Гладиатор")
THREADS = {"smf": "index.php?topic=2.0", "mybb": "showthread.php?tid=1", "phpbb": "viewtopic.php?t=2"}


def serve(site, clock):
    return BoardServer(FixtureBoard(site, password="host-secret", member=HOST, members=PLAYERS, clock=clock.monotonic))


def host(server, site, clock, **config):
    settings = {"engine": site.engine, "base_url": server.url, "username": HOST, "posts_per_page": 5,
                "timeout": 5, "retries": 0, "min_interval": 0.1, **config}
    return open_forum(settings, "host-secret", clock=clock.monotonic, sleep=clock.sleep, now=clock.now)


def game_store(tmp_path, site, server, clock) -> Store:
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    store.register_forum("main", site.engine, server.url, HOST)
    store.register_game("g1", "mafia", "main", server.url + THREADS[site.engine], "UTC", 1, {p: [] for p in PLAYERS})
    return store


def night_results(store: Store, pms: int = 8) -> tuple[dict[int, str], int]:
    """The night's result PMs (two players get two) and the morning post, approved."""
    results = {store.insert_draft("g1", "result", PLAYERS[n % len(PLAYERS)], f"Итог ночи №{n}: ход принят", f"r{n}",
                               False, subject=f"Ночь 1, итог {n}"): f"Итог ночи №{n}: ход принят" for n in range(pms)}
    post = store.insert_draft("g1", "vote_count", "thread", "Утро 2: ночью убит [b]Кума[/b]", "morning", False)
    return results, post


def ticks_until_published(forum, store, clock, limit: int = 20) -> list[dict]:
    """Publish as the daemon's ticks do: each tick at the moment the last one said the board's
    pause ends. What each tick did, and how long it slept at most."""
    done = []
    for _ in range(limit):
        slept = len(clock.slept)
        report = publish_approved(forum, store, clock.now())
        done.append({"sent": dict(report.sent), "waiting": dict(report.waiting), "refused": dict(report.refused),
                     "failed": dict(report.failed), "longest_sleep": max(clock.slept[slept:], default=0.0)})
        if not report.waiting:
            return done
        clock.sleep((min(report.waiting.values()) - clock.now()).total_seconds())
    raise AssertionError(f"still waiting after {limit} ticks: {done[-1]}")


def test_mybb_eight_result_pms_and_a_post_from_a_member_go_once_each_a_pm_a_minute(tmp_path, clock):
    """MyBB's stock 60 s between a member's PMs and between his posts: one PM per tick, the post
    in the first tick (its own pause), no tick waits more than a few seconds, nothing is refused
    or stopped, and every text reaches its recipient once."""
    with serve(MYBB_MEMBER, clock) as server:
        forum, store = host(server, MYBB_MEMBER, clock), game_store(tmp_path, MYBB_MEMBER, server, clock)
        results, post = night_results(store)
        started = clock.now()
        done = ticks_until_published(forum, store, clock)

        board = server.board
        assert sorted(pm.fields["message"] for pm in board.pms) == sorted(results.values())
        assert [pm.fields["to"] for pm in board.pms] == [PLAYERS[n % len(PLAYERS)] for n in range(8)]
        assert [p.fields["message"] for p in board.posts] == ["Утро 2: ночью убит [b]Кума[/b]"]
        assert all(store.draft(d)["status"] == "sent" and store.draft(d)["send_error"] is None
                   for d in [*results, post])
        assert not any(tick["refused"] or tick["failed"] for tick in done)
        assert [len(tick["sent"]) for tick in done] == [2, 1, 1, 1, 1, 1, 1, 1]   # the post goes with the first PM
        assert post in done[0]["sent"]
        assert max(tick["longest_sleep"] for tick in done) <= FLOOD_INLINE
        # one refusal teaches the pause (the board's own count of seconds): the other PMs keep it
        # without being refused; 8 PMs in about 7 minutes
        assert board.floods == 1
        assert timedelta(minutes=7) <= clock.now() - started <= timedelta(minutes=8)


def test_the_host_sees_a_draft_waiting_for_the_boards_pause_and_the_daemon_wakes_when_it_ends(tmp_path, clock):
    with serve(MYBB_MEMBER, clock) as server:
        forum, store = host(server, MYBB_MEMBER, clock), game_store(tmp_path, MYBB_MEMBER, server, clock)
        first = store.insert_draft("g1", "result", "Кума", "Первый итог", "a", False, subject="Итог")
        second = store.insert_draft("g1", "result", "Аскон", "Второй итог", "b", False, subject="Итог")
        report = publish_approved(forum, store, clock.now())

        assert list(report.sent) == [first] and not report.failed
        waiting = store.draft(second)
        assert waiting["status"] == "approved" and waiting["sending_at"] is None
        assert re.fullmatch(r"waiting for the forum's flood pause, 6[01] s \(the forum: «Please correct the following "
                            r"errors before continuing: You are trying to send a message too quickly after sending a "
                            r"previous message\. Please wait 6?[09] more seconds\.»\); it goes by itself after it",
                            waiting["send_error"])
        assert _refusal(waiting).startswith("not published yet: waiting for the forum's flood pause")
        until = report.waiting[second]
        assert list(report.waiting) == [second] and 59 <= (until - clock.now()).total_seconds() <= 62
        wake = next_wake(clock.now(), [], Polling(), drafts_held=until)
        assert (wake.at, wake.why) == (until, "flood pause")

        # a tick before the pause ends posts nothing: the adapter knows the pause without asking
        clock.sleep(20)
        posts = len(server.board.received)
        assert publish_approved(forum, store, clock.now()).waiting == {second: until}
        assert len(server.board.received) == posts
        clock.sleep((until - clock.now()).total_seconds())
        assert list(publish_approved(forum, store, clock.now()).sent) == [second]
        assert store.draft(second)["send_error"] is None and len(server.board.pms) == 2


def test_phpbb_names_no_pause_its_stock_fifteen_seconds_are_waited_between_ticks(tmp_path, clock):
    """phpBB says only "You cannot make another post so soon after your last.": the engine's
    stock `flood_interval` (15 s) is waited, the text is not stopped after two refusals."""
    with serve(PHPBB_MEMBER, clock) as server:
        forum, store = host(server, PHPBB_MEMBER, clock), game_store(tmp_path, PHPBB_MEMBER, server, clock)
        drafts = [store.insert_draft("g1", "vote_count", "thread", f"Итоги {n}", f"v{n}", False) for n in range(3)]
        started = clock.now()
        done = ticks_until_published(forum, store, clock)

        assert [p.fields["message"] for p in server.board.posts] == ["Итоги 0", "Итоги 1", "Итоги 2"]
        assert [list(tick["sent"]) for tick in done] == [[d] for d in drafts]
        assert [sorted(tick["waiting"]) for tick in done] == [drafts[1:], drafts[2:], []]
        assert timedelta(seconds=32) <= clock.now() - started <= timedelta(seconds=40)   # twice 15 s and a margin
        assert store.draft(drafts[2])["send_error"] is None and server.board.floods == 1


def test_the_real_boards_refusals_name_their_pauses():
    """The refusal pages saved from the boards, read as the adapters read them."""
    def said(engine: str, page: str, errors: str) -> str:
        return first_text((MYBB.fixtures.parent / engine / page).read_text(encoding="utf-8"), errors)

    mybb_errors, smf_errors = MYBB_SPEC.errors, SMF_SPEC.errors
    assert flood_wait(said("mybb", "real_pm_flood.html", mybb_errors), 99) == 59.0
    assert flood_wait(said("mybb", "real_reply_flood.html", mybb_errors), 99) == 59.0
    phpbb_pm = said("phpbb", "real_pm_flood.html", PHPBB_SPEC.errors)
    assert phpbb_pm == "You cannot make another post so soon after your last."
    assert flood_wait(phpbb_pm, PHPBB_SPEC.flood_pause) == 15.0
    assert flood_wait(said("phpbb", "real_reply_flood.html", PHPBB_SPEC.errors), PHPBB_SPEC.flood_pause) == 15.0
    assert flood_wait(said("smf", "real_pm_flood_403.html", smf_errors), 99) == 5.0
    assert flood_wait(said("smf", "real_reply_flood_403.html", smf_errors), 99) == 5.0
    assert flood_wait(said("smf", "real_pm_hourly_limit_403.html", smf_errors), 99) == HOURLY_PAUSE
    assert flood_wait("Please wait 1 more second.", 99) == 1.0
    assert flood_wait("The user Кума does not exist.", 99) is None


def test_smf_a_members_five_seconds_go_between_ticks_and_an_admins_two_inside_one(tmp_path, clock):
    """SMF holds a member's posts and PMs 5 s apart (each kind on its own): longer than
    FLOOD_INLINE, so each PM waits for a tick after the pause while the post goes with the first.
    An admin's 2 s (the engine's 3 s kept between POSTs) is waited inside the tick, as before."""
    with serve(SMF_MEMBER, clock) as server:
        forum, store = host(server, SMF_MEMBER, clock), game_store(tmp_path, SMF_MEMBER, server, clock)
        results, post = night_results(store, pms=3)
        done = ticks_until_published(forum, store, clock)

        assert [len(tick["sent"]) for tick in done] == [2, 1, 1] and post in done[0]["sent"]
        assert sorted(pm.fields["message"] for pm in server.board.pms) == sorted(results.values())
        assert len(server.board.posts) == 1 and server.board.floods == 1
        assert max(tick["longest_sleep"] for tick in done) <= FLOOD_INLINE

    with serve(SMF, clock) as server:
        (tmp_path / "admin").mkdir()
        forum, store = host(server, SMF, clock), game_store(tmp_path / "admin", SMF, server, clock)
        results, post = night_results(store, pms=3)
        report = publish_approved(forum, store, clock.now())
        assert sorted(report.sent) == sorted([*results, post]) and not report.waiting and server.board.floods == 0


def test_a_pause_that_never_ends_keeps_the_draft_waiting_never_stopped_or_sent_twice(tmp_path, clock):
    with serve(MYBB_MEMBER, clock) as server:
        forum, store = host(server, MYBB_MEMBER, clock), game_store(tmp_path, MYBB_MEMBER, server, clock)
        store.insert_draft("g1", "result", "Кума", "Первый", "a", False, subject="Итог")
        publish_approved(forum, store, clock.now())
        server.board.clock = lambda: 0.0      # the board's clock stands still: its pause never ends
        second = store.insert_draft("g1", "result", "Аскон", "Второй", "b", False, subject="Итог")
        for _ in range(5):
            clock.sleep(61)
            report = publish_approved(forum, store, clock.now())
            assert second in report.waiting and not report.failed and not report.refused
        assert store.draft(second)["status"] == "approved" and len(server.board.pms) == 1


def test_a_long_interval_the_host_set_is_kept_between_ticks_not_slept_in_one(tmp_path, clock):
    """`post_interval = 60` in `[forum]`: the second text waits for a later tick without asking
    the board; none of the tick's sleeps is longer than FLOOD_INLINE."""
    with serve(MYBB, clock) as server:
        forum, store = host(server, MYBB, clock, post_interval=60), game_store(tmp_path, MYBB, server, clock)
        first = store.insert_draft("g1", "result", "Кума", "Первый", "a", False, subject="Итог")
        second = store.insert_draft("g1", "result", "Аскон", "Второй", "b", False, subject="Итог")
        forum.login()
        clock.sleep(60)      # the login is a POST too
        clock.slept.clear()
        report = publish_approved(forum, store, clock.now())
        assert list(report.sent) == [first] and list(report.waiting) == [second]
        assert server.board.floods == 0 and max(clock.slept) <= FLOOD_INLINE
        with pytest.raises(FloodPause):
            forum.send_pm("Аскон", "Итог", "Второй")
        clock.sleep(60)
        assert list(publish_approved(forum, store, clock.now()).sent) == [second]


def test_without_flood_rules_a_burst_goes_in_one_tick_without_waiting(tmp_path, clock):
    """The admin host of the test boards (no flood rule): unchanged, everything in one tick."""
    with serve(MYBB, clock) as server:
        forum, store = host(server, MYBB, clock), game_store(tmp_path, MYBB, server, clock)
        results, post = night_results(store)
        report = publish_approved(forum, store, clock.now())
        assert sorted(report.sent) == sorted([*results, post]) and not report.waiting
        assert len(server.board.pms) == 8 and len(server.board.posts) == 1 and max(clock.slept) <= 1.0


def test_the_daemon_ticks_again_when_the_pause_ends_not_at_the_next_poll(tmp_path, monkeypatch):
    """The tick's publishing says until when the board holds drafts; the daemon's plan wakes then
    (the poll is 10 minutes away), and plans as before once nothing is held."""
    installation = example_installation(tmp_path, monkeypatch)
    start = msk(2, 12)   # before the example game's first deadline: polling every 10 minutes
    held = [start + timedelta(seconds=61)]

    def publish(forum, store, now, until=None):
        return PublishReport(waiting={7: held[0]} if held else {})

    daemon = Daemon(installation, Store(installation.storage), object(), FixedClock(start), Edges(publish=publish))
    daemon.tick()
    assert (daemon.plan(start).at, daemon.plan(start).why) == (start + timedelta(seconds=61), "flood pause")
    held.clear()
    daemon.tick()
    assert daemon.plan(start).why != "flood pause" and daemon.plan(start).at > start + timedelta(seconds=61)


def test_a_draft_left_sending_by_a_crash_meets_the_pause_and_goes_once_after_it(tmp_path, clock):
    """A crash left a PM "sending"; it is not on the board, and sending it again meets the
    board's pause: approved again, waiting, then sent once."""
    with serve(MYBB_MEMBER, clock) as server:
        forum, store = host(server, MYBB_MEMBER, clock), game_store(tmp_path, MYBB_MEMBER, server, clock)
        first = store.insert_draft("g1", "result", "Кума", "Первый", "a", False, subject="Итог")
        publish_approved(forum, store, clock.now())
        second = store.insert_draft("g1", "result", "Аскон", "Второй", "b", False, subject="Итог")
        store.mark_sending(second, clock.now(), after=store.draft(first)["forum_ref"])   # then the crash
        report = publish_approved(forum, store, clock.now())
        assert list(report.waiting) == [second] and store.draft(second)["status"] == "approved"
        clock.sleep((report.waiting[second] - clock.now()).total_seconds())
        assert list(publish_approved(forum, store, clock.now()).sent) == [second]
        assert [pm.fields["message"] for pm in server.board.pms] == ["Первый", "Второй"]


def test_smfs_limit_of_pms_an_hour_holds_the_pms_ten_minutes_at_a_time_and_not_the_post(tmp_path, clock):
    """SMF's stock `pm_spam_settings` let a member send 20 PMs an hour; past them even the PM form
    is refused (403, saved from the board). The PMs wait, looked at again every ten minutes; the
    post goes; once the hour frees places the PMs go together: the limit is no pause between two."""
    with serve(SMF, clock) as server:
        forum, store = host(server, SMF, clock), game_store(tmp_path, SMF, server, clock)
        server.board.closed[r"index\.php\?action=pm;sa=send"] = "real_pm_hourly_limit_403.html"
        results, post = night_results(store, pms=2)
        report = publish_approved(forum, store, clock.now())
        assert list(report.sent) == [post] and sorted(report.waiting) == sorted(results) and not report.failed
        note = store.draft(next(iter(results)))["send_error"]
        assert note == ("waiting for the forum's flood pause, 601 s (the forum: «You have exceeded the limit of 20 "
                        "personal messages per hour.»); it goes by itself after it")
        server.board.closed.clear()
        clock.sleep((min(report.waiting.values()) - clock.now()).total_seconds())
        assert sorted(publish_approved(forum, store, clock.now()).sent) == sorted(results)
        assert sorted(pm.fields["message"] for pm in server.board.pms) == sorted(results.values())


def test_a_login_refused_as_too_soon_after_another_clients_is_waited_out(clock):
    """SMF allows one login per 2 s from an address, whoever logs in (another client of the same
    address too): the refusal is waited out as a post's, not a sync problem."""
    with serve(SMF, clock) as server:
        other, forum = host(server, SMF, clock), host(server, SMF, clock)
        other.login()
        forum.login()
        assert server.board.floods == 1 and 2.0 + 1.0 in clock.slept
        assert forum.thread_page_count(server.url + THREADS["smf"]) == 3
