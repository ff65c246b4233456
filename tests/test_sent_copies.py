"""forumgm's own copies leave the host's sent folder once their send is recorded, so they never fill
the space the board allows him; a full space is told to the host, and on MyBB (which keeps no copy
once full) the PMs wait instead of going unconfirmable. MyBB is replayed by the fixture board from
the pages saved from MyBB 1.8.37 as the member Гость (quota 200); phpBB 3.3.10 by the local forum
(its CI stand-in), checked against the sent folder pages saved from the real board."""
from __future__ import annotations

from dataclasses import replace

import pytest
from markupsafe import escape

from forum_http_board import FIXTURES, BoardServer, FixtureBoard
from forum_http_sites import MYBB_SENT_85, MYBB_SENT_FULL
from forumgm.daemon.cli import main
from forumgm.daemon.forum.errors import ForumError
from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.http import Page
from forumgm.daemon.forum.phpbb import SPEC as PHPBB
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.drafts.publish import FULL_NOTE, publish_approved
from forumgm.daemon.forum.housekeeping.sent_copies import KEPT_FOR
from forumgm.daemon.store import Store
from forumgm.daemon.web import create_app
from forumgm.parsers.forums import mybb, phpbb
from forumgm.parsers.forums.reader import read_form
from localforum_support import HOST, seeded_board
from mafia_daemon_support import example_installation
from test_game_stops import TOKEN, WEB_PASSWORD

FORUMS = FIXTURES / "forums"
PLAYERS = ("Аскон", "Кума")


def page(engine: str, name: str) -> str:
    return (FORUMS / engine / name).read_text(encoding="utf-8")


def test_the_real_pages_say_how_full_the_space_is():
    # MyBB's bar counts every folder against the member's quota of 200; its width is the exact per cent
    assert mybb.listing(page("mybb", "real_pm_sent_85_percent.html")).fill == pytest.approx(0.85)
    full = page("mybb", "real_pm_sent_quota_full.html")
    assert mybb.listing(full).fill == 1.0
    assert "Warning. You have reached your message limit." in full
    # phpBB's sent folder holds 50; past that it deletes the oldest itself
    assert phpbb.listing(page("phpbb", "real_pm_sentbox_full.html")).fill == 1.0
    assert phpbb.listing(page("phpbb", "real_pm_sentbox.html")).fill == pytest.approx(0.02)
    # an admin's pages show no quota (his group has none): no limit, not "empty"
    assert mybb.listing(page("mybb", "pm_inbox.html")).fill is None


def serve(site, clock):
    return BoardServer(FixtureBoard(site, password="host-secret", member=HOST, members=PLAYERS, clock=clock.monotonic))


def host(base_url: str, engine: str, clock, **config):
    settings = {"id": "main", "engine": engine, "base_url": base_url, "username": HOST, "posts_per_page": 5,
                "timeout": 5, "retries": 0, "min_interval": 0.1, **config}
    return open_forum(settings, "host-secret", clock=clock.monotonic, sleep=clock.sleep, now=clock.now)


THREADS = {"mybb": "showthread.php?tid=1", "phpbb": "viewtopic.php?t=2"}


def game_store(tmp_path, engine: str, base_url: str, clock) -> Store:
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    store.register_forum("main", engine, base_url, HOST)
    store.register_game("g1", "mafia", "main", base_url + THREADS[engine], "UTC", 1, {p: [] for p in PLAYERS})
    return store


def recorded(store: Store, clock, ref: str, to: str = "Кума") -> int:
    """A PM draft sent and recorded with the board's id `ref`."""
    draft = store.insert_draft("g1", "result", to, f"Итог {ref}", f"r{ref}", False, subject=f"Итог {ref}")
    store.mark_sending(draft, clock.now())
    store.mark_sent(draft, ref, clock.now())
    return draft


def approved_pm(store: Store, text: str = "Ход принят") -> int:
    return store.insert_draft("g1", "receipt", "Аскон", text, f"a:{text}", False, subject="Квитанция")


def asked_to_delete(board) -> list[list[str]]:
    """The ids each delete form marked, in the order posted."""
    return [[name[len("check["):-1] for name in form if name.startswith("check[")]
            for _, form in board.received if form.get("action") == "do_stuff"]


def test_mybb_near_its_quota_every_recorded_copy_goes_oldest_first_and_the_pm_goes_once(tmp_path, clock):
    with serve(MYBB_SENT_85, clock) as server:
        store = game_store(tmp_path, "mybb", server.url, clock)
        old = [recorded(store, clock, ref) for ref in ("501", "503")]
        clock.sleep(600)
        recent = recorded(store, clock, "505")           # an hour old at most: kept only while there is room
        unnamed = recorded(store, clock, "")             # the board never named it: not known to be ours
        approved_pm(store)
        started = clock.now()
        report = publish_approved(host(server.url, "mybb", clock), store, started)
        board = server.board
        assert list(report.sent) and len(board.pms) == 1 and not report.held
        to_trash, from_trash = asked_to_delete(board)
        assert to_trash == from_trash == ["501", "503", "505"]
        assert board.removed == {"501": "deleted", "503": "deleted", "505": "deleted"}
        assert all(store.draft(d)["copy_removed_at"] == started for d in (*old, recent))
        assert store.draft(unnamed)["copy_removed_at"] is None
        # the saved page still shows 85 %: the host is told, in the status and on his page
        [note] = store.sent_space_notes().values()
        assert note.startswith("the account's PMs on the forum fill 85% of the space MyBB allows")
        assert "when it is full, PMs wait until there is room" in note


def test_with_room_a_recorded_copy_stays_a_day_and_an_unconfirmed_pm_keeps_every_copy(tmp_path, clock):
    roomy = replace(MYBB_SENT_85, pm_row_from="real_pm_sent_11_percent.html")
    with serve(roomy, clock) as server:
        store = game_store(tmp_path, "mybb", server.url, clock)
        day_old = recorded(store, clock, "501")
        clock.sleep(KEPT_FOR.total_seconds() - 3600)
        fresh = recorded(store, clock, "503")
        clock.sleep(3601)
        forum = host(server.url, "mybb", clock)
        lost = approved_pm(store, "Потерянный ответ")
        store.mark_sending(lost, clock.now(), after="400")   # a crash left it maybe sent: its search reads the folder
        sends = forum.send_pm

        def no_answer(*args):                                # ... and this time the board does not answer
            forum.send_pm = sends
            raise ForumError("the forum's answer to the PM was lost")
        forum.send_pm = no_answer
        approved_pm(store)
        publish_approved(forum, store, clock.now())
        assert store.draft(lost)["status"] == "sending" and asked_to_delete(server.board) == []
        assert len(server.board.pms) == 1                    # the approved PM went all the same
        publish_approved(forum, store, clock.now())          # the lost one is not found: sent again, recorded
        assert store.draft(lost)["status"] == "sent" and len(server.board.pms) == 2
        approved_pm(store, "Ещё ход")
        publish_approved(forum, store, clock.now())
        assert asked_to_delete(server.board) == [["501"], ["501"]]
        assert store.draft(day_old)["copy_removed_at"] is not None and store.draft(fresh)["copy_removed_at"] is None
        assert store.sent_space_notes() == {}


def test_with_sent_cleanup_off_no_copy_goes_and_the_host_is_told_to_delete_them(tmp_path, clock):
    with serve(MYBB_SENT_85, clock) as server:
        store = game_store(tmp_path, "mybb", server.url, clock)
        kept = recorded(store, clock, "501")
        approved_pm(store)
        report = publish_approved(host(server.url, "mybb", clock, sent_cleanup=False), store, clock.now())
        assert list(report.sent) and asked_to_delete(server.board) == []
        assert store.draft(kept)["copy_removed_at"] is None
        assert "[forum] sent_cleanup is off: delete old sent PMs on the forum" in store.sent_space_notes()["main"]


def test_sent_cleanup_is_on_unless_the_config_says_false_and_a_wrong_value_is_named(tmp_path):
    from forumgm.daemon.forum import ForumSettings
    from test_inbox_cleanup import config_problems, forum_config
    assert ForumSettings.read(forum_config(tmp_path, "mybb", "")().forum).sent_cleanup is True
    assert open_forum(forum_config(tmp_path, "mybb", "sent_cleanup = false")().forum, "x").settings.sent_cleanup is False
    assert config_problems(forum_config(tmp_path, "phpbb", 'sent_cleanup = "no"')) == [
        f"{tmp_path / 'forumgm.toml'}: forum.sent_cleanup: expected true or false (got 'no')"]


def test_mybb_with_a_full_quota_the_pms_wait_noted_and_go_once_there_is_room(tmp_path, clock, capsys):
    with serve(MYBB_SENT_FULL, clock) as server:
        store = game_store(tmp_path, "mybb", server.url, clock)
        waiting = [approved_pm(store, f"Ход {n}") for n in range(2)]
        post = store.insert_draft("g1", "vote_count", "thread", "Итоги дня", "vc", False)
        forum = host(server.url, "mybb", clock)
        report = publish_approved(forum, store, clock.now())
        assert set(report.held) == set(waiting) and server.board.pms == []
        assert list(report.sent) == [post] and len(server.board.posts) == 1     # a post is not held
        for draft in waiting:
            assert (store.draft(draft)["status"], store.draft(draft)["send_error"]) == ("approved", FULL_NOTE)
        [note] = store.sent_space_notes().values()
        assert "fill 100% of the space MyBB allows" in note and "PMs wait until there is room" in note
        server.board.site = MYBB_SENT_85                          # the host deleted PMs on the forum
        report = publish_approved(forum, store, clock.now())
        assert sorted(report.sent) == waiting and len(server.board.pms) == 2
        assert all(store.draft(d)["send_error"] is None for d in waiting)


def test_status_and_the_hosts_page_tell_a_nearly_full_space(tmp_path, monkeypatch, capsys):
    installation = example_installation(tmp_path, monkeypatch)
    store = Store(installation.storage)
    forum_id = installation.forum.id
    store.register_forum(forum_id, "mybb", "http://forum.invalid/", HOST)
    note = "the account's PMs on the forum fill 85% of the space MyBB allows; delete old PMs on the forum"
    store.set_sent_space(forum_id, 0.85, note)
    assert main(["status", "--config", str(tmp_path / "forumgm.toml")]) == 0
    assert f"forum {forum_id}: {note}" in capsys.readouterr().out
    client = create_app(store, WEB_PASSWORD).test_client()
    token = TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)
    assert client.post("/login", data={"password": WEB_PASSWORD, "csrf_token": token}).status_code == 302
    games = client.get("/").get_data(as_text=True)
    assert "заполняют почти всё место, которое даёт форум" in games and str(escape(note)) in games
    store.set_sent_space(forum_id, 0.3, None)                 # room again: nothing to tell
    assert "заполняют почти всё место" not in client.get("/").get_data(as_text=True)


# ---------------------------------------------------------------- phpBB: the local forum, against the real pages

def test_phpbb_deletes_recorded_copies_from_the_sent_folder_never_the_outbox(tmp_path, clock):
    board = seeded_board(clock)
    with LocalForum(board) as server:
        store = game_store(tmp_path, "phpbb", server.url, clock)
        forum = host(server.url, "phpbb", clock)
        read = forum.send_pm("Кума", "Итог 1", "Прочитан")           # Кума opens his PMs: it moves to Sent
        board.place_pms(board.user_named("Кума").id)
        unread = forum.send_pm("Аскон", "Итог 2", "Не прочитан")      # stays in the outbox
        for ref, to in ((read, "Кума"), (unread, "Аскон")):
            draft = store.insert_draft("g1", "result", to, "x", f"r{ref}", False, subject="x")
            store.mark_sending(draft, clock.now())
            store.mark_sent(draft, ref, clock.now())
        clock.sleep(KEPT_FOR.total_seconds() + 60)
        approved_pm(store)
        publish_approved(forum, store, clock.now())
        pms = board.pms
        assert pms[int(read)].sender_deleted and not pms[int(read)].deleted   # Кума keeps his
        assert not pms[int(unread)].sender_deleted                            # never recalled unread
        assert store.sent_copies("main", None, 10) == [unread, "3"]     # and the receipt just sent


def test_phpbb_drops_the_oldest_copies_past_its_limit_and_forumgm_keeps_below_it(tmp_path, clock):
    board = seeded_board(clock)
    board.pm_folder_limit = 5
    with LocalForum(board) as server:
        store = game_store(tmp_path, "phpbb", server.url, clock)
        forum = host(server.url, "phpbb", clock)
        for n in range(4):
            approved_pm(store, f"Ход {n}")
            publish_approved(forum, store, clock.now())
            board.place_pms(board.user_named("Аскон").id)
        assert forum.sent_space().fill == pytest.approx(0.8)
        approved_pm(store, "Ход 4")
        publish_approved(forum, store, clock.now())       # at 80 %: the four recorded copies went first
        board.place_pms(board.user_named("Аскон").id)
        assert forum.sent_space().stored == 1
        assert [d["status"] for d in store.drafts(game_id="g1")] == ["sent"] * 5


def test_phpbbs_sent_folder_form_and_confirm_are_as_the_real_board_renders_them(clock):
    real_sent, real_confirm = page("phpbb", "real_pm_sentbox_full.html"), page("phpbb", "real_pm_sent_delete_confirm.html")
    board = seeded_board(clock)
    with LocalForum(board) as server:
        forum = host(server.url, "phpbb", clock)
        for n in range(5):
            forum.send_pm("Кума", f"Итог {n}", "Текст")
        board.place_pms(board.user_named("Кума").id)
        local_page, form = forum._removal_form(server.url + "ucp.php?i=pm&folder=sentbox", PHPBB.pm.removal.form)
        real_form = read_form(real_sent, replace(phpbb.LAYOUT, forms={"x": PHPBB.pm.removal.form}), "x")
        assert set(real_form.fields) - {"export_option", "st", "sk", "sd"} == set(form.fields)
        assert (real_form.fields["cur_folder_id"], form.fields["cur_folder_id"]) == ("-1", "-1")
        marked = forum._marked(PHPBB.pm.removal, form, ["5", "4", "3", "2"])   # as many as the real page
        local_confirm = forum.submit(local_page, form, {**marked, **PHPBB.pm.removal.delete}).text
        confirm_css = replace(phpbb.LAYOUT, forms={"x": PHPBB.pm.removal.confirm})
        assert set(read_form(real_confirm, confirm_css, "x").fields) == set(read_form(local_confirm, confirm_css, "x").fields)
        assert "Are you sure you want to delete all marked messages?" in real_confirm
        done = forum.submit(Page(server.url, 200, local_confirm), forum._read_css_form(
            Page(server.url, 200, local_confirm), PHPBB.pm.removal.confirm), dict(PHPBB.pm.removal.confirm_with))
        assert "Messages successfully deleted" in done.text
        assert "Messages successfully deleted" in page("phpbb", "real_pm_sent_deleted.html")
        assert [h.id for h in next(forum._folder_pages(PHPBB.pm.sentbox, sent=True))[0]] == ["1"]
