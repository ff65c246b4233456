"""Inbox cleanup on the pages the real boards rendered for it (saved from MyBB 1.8.37, SMF 2.1.4 and
phpBB 3.3.10 as the account Гость, tests/fixtures/forums/*/README.md): MyBB and SMF replayed by the
fixture board over HTTP; phpBB's forms compared with what the local forum (its CI stand-in) renders."""
from __future__ import annotations

from datetime import timedelta

from forum_http_board import FIXTURES, BoardServer, FixtureBoard
from forum_http_sites import MYBB_CLEANUP, SMF_CLEANUP, VBULLETIN4_CLEANUP
from forumgm.daemon.forum import open_forum
from forumgm.daemon.forum.phpbb import SPEC as PHPBB
from forumgm.daemon.forum.http import Page
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_inbox
from forumgm.parsers.forums import mybb, phpbb, smf
from forumgm.parsers.forums.reader import read_form, read_options
from localforum_support import HOST, FakeClock, host_forum, seeded_board

FORUMS = FIXTURES / "forums"
DAY = timedelta(days=1)


def cleaning(server, site, clock, **cleanup):
    settings = {"engine": site.engine, "base_url": server.url, "username": HOST, "timeout": 5, "retries": 0,
                "inbox_cleanup": "delete", "inbox_cleanup_after": DAY, **cleanup}
    return open_forum(settings, "host-secret", clock=clock.monotonic, sleep=clock.sleep, now=clock.now)


def served(site, clock):
    return BoardServer(FixtureBoard(site, password="host-secret", member=HOST, clock=clock.monotonic))


def stored_then_a_day_later(tmp_path, server, site, forum, clock):
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    store.register_forum("main", site.engine, server.url, HOST)
    assert sync_inbox("main", forum, store, clock.now()).ok
    assert server.board.removed == {}                               # stored just now: they stay a day
    clock.sleep(DAY.total_seconds() + 60)
    report = sync_inbox("main", forum, store, clock.now())
    assert report.ok, report.error
    return store


def removal_posts(board) -> list[dict]:
    return [form for where, form in board.received if form.get("action") == "do_stuff" or "pmactions" in where]


def test_mybb_deletes_through_the_trash_can_with_the_forms_own_key(tmp_path, clock):
    with served(MYBB_CLEANUP, clock) as server:
        store = stored_then_a_day_later(tmp_path, server, MYBB_CLEANUP, cleaning(server, MYBB_CLEANUP, clock), clock)
        assert server.board.removed == {"71": "deleted", "69": "deleted", "67": "deleted", "65": "deleted"}
        to_trash, from_trash = removal_posts(server.board)
        assert (to_trash["fromfid"], from_trash["fromfid"]) == ("0", "4") and "delete" in from_trash
        assert sorted(store.known_pm_ids("main")) == ["65", "67", "69", "71"]
        assert all(row["done_at"] for row in store.pm_removals("main"))


def test_mybb_moves_to_the_folder_the_inbox_names(tmp_path, clock):
    with served(MYBB_CLEANUP, clock) as server:
        forum = cleaning(server, MYBB_CLEANUP, clock, inbox_cleanup="move", inbox_cleanup_folder="forumgm")
        stored_then_a_day_later(tmp_path, server, MYBB_CLEANUP, forum, clock)
        [moved] = removal_posts(server.board)
        assert (moved["fid"], moved["moveto"]) == ("5", "Move To")
        assert set(server.board.removed.values()) == {"folder 5"}


def test_smf_removes_the_marked_pms_with_the_sessions_own_field(tmp_path, clock):
    with served(SMF_CLEANUP, clock) as server:
        store = stored_then_a_day_later(tmp_path, server, SMF_CLEANUP, cleaning(server, SMF_CLEANUP, clock), clock)
        assert server.board.removed == {str(n): "deleted" for n in range(36, 41)}
        [posted] = removal_posts(server.board)
        assert sorted(v for k, v in posted.items() if k.startswith("pms[")) == ["36", "37", "38", "39", "40"]
        assert all(row["done_at"] for row in store.pm_removals("main"))


def test_vbulletin_deletes_with_the_managepm_form_its_source_reads(tmp_path, clock):
    """Not run against the real software: the form's fields are those private.php reads."""
    with served(VBULLETIN4_CLEANUP, clock) as server:
        store = stored_then_a_day_later(tmp_path, server, VBULLETIN4_CLEANUP,
                                        cleaning(server, VBULLETIN4_CLEANUP, clock), clock)
        assert server.board.removed == {"12": "deleted", "9": "deleted"}
        [posted] = [form for where, form in server.board.received if "managepm" in where]
        assert (posted["do"], posted["dowhat"], posted["pm[12]"], posted["pm[9]"]) == ("managepm", "delete", "yes", "yes")
        assert all(row["done_at"] for row in store.pm_removals("main"))


def test_a_board_that_keeps_the_pms_is_tried_again_and_nothing_is_marked_done(tmp_path, clock, caplog):
    with served(SMF_CLEANUP, clock) as server:
        server.board.site = SMF_CLEANUP.__class__(**{**SMF_CLEANUP.__dict__, "removal": None})   # ignores the form
        forum = cleaning(server, SMF_CLEANUP, clock)
        store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
        store.register_forum("main", "smf", server.url, HOST)
        sync_inbox("main", forum, store, clock.now())
        clock.sleep(DAY.total_seconds() + 60)
        sync_inbox("main", forum, store, clock.now())
        assert [row["done_at"] for row in store.pm_removals("main")] == [None] * 5
        assert "still lists PMs it was asked to remove (36, 37, 38, 39, 40)" in caplog.text


def test_the_real_boards_pages_after_a_removal_are_inboxes_without_those_pms():
    # MyBB's "deleted" pages send back to the folder the form was on (none named: the Inbox)
    assert 'URL=private.php"' in (FORUMS / "mybb" / "real_pm_deleted_to_trash.html").read_text(encoding="utf-8")
    assert "URL=private.php?fid=4" in (FORUMS / "mybb" / "real_pm_deleted.html").read_text(encoding="utf-8")
    assert 'URL=private.php"' in (FORUMS / "mybb" / "real_pm_moved.html").read_text(encoding="utf-8")
    smf_after = (FORUMS / "smf" / "real_pm_inbox_removed.html").read_text(encoding="utf-8")
    fetched = FakeClock().now()
    assert smf.inbox(smf_after, "UTC", fetched) == []
    assert [h.id for h in smf.inbox((FORUMS / "smf" / "real_pm_inbox_to_remove.html").read_text(encoding="utf-8"),
                                    "UTC", fetched)] == ["36", "37", "38", "39", "40"]
    trash = (FORUMS / "mybb" / "real_pm_trash.html").read_text(encoding="utf-8")
    assert [h.id for h in mybb.inbox(trash, "UTC", fetched)] == ["77", "75", "73"]
    assert read_form(trash, mybb.LAYOUT, "pmForm").fields["fromfid"] == "4"


# ---------------------------------------------------------------- phpBB: the local forum against the real pages

def phpbb_page(name: str) -> str:
    return (FORUMS / "phpbb" / name).read_text(encoding="utf-8")


def form_names(html: str, css: str) -> set[str]:
    from dataclasses import replace
    return set(read_form(html, replace(phpbb.LAYOUT, forms={"x": css}), "x").fields)


def test_phpbb_folder_form_confirm_and_answers_as_the_local_forum_renders_them(clock):
    """The local forum stands in for phpBB in CI: its folder form, its "are you sure?" form and its
    answers carry what phpBB 3.3.10's do (the sort selects of the real form aside)."""
    real_inbox, real_confirm = phpbb_page("real_pm_inbox_with_folder.html"), phpbb_page("real_pm_delete_confirm.html")
    board = seeded_board(clock)
    host = board.user_named(HOST)
    board.add_pm_folder(host.id, "forumgm")
    for n in range(4):
        board.send_pm("Кума", HOST, f"Ход {n}", "Атака 1 Аскон")
    with LocalForum(board) as server:
        forum = host_forum(server, clock)
        local_inbox = forum.fetch(server.url + "ucp.php?i=pm&folder=inbox")
        assert form_names(real_inbox, PHPBB.pm.removal.form) - {"export_option", "st", "sk", "sd"} == \
            form_names(local_inbox.text, PHPBB.pm.removal.form)
        assert [text for _, text in read_options(real_inbox, PHPBB.pm.removal.folder_options)][:2] == \
            [text for _, text in read_options(local_inbox.text, PHPBB.pm.removal.folder_options)][:2]
        assert forum._folder_value(Page(local_inbox.url, 200, real_inbox), PHPBB.pm.removal, "forumgm") == "1"
        assert forum._folder_value(local_inbox, PHPBB.pm.removal, "forumgm") == "1"
        page, form = forum._removal_form(server.url + "ucp.php?i=pm&folder=inbox", PHPBB.pm.removal.form)
        marked = forum._marked(PHPBB.pm.removal, form, ["4", "3", "2", "1"])
        local_confirm = forum.submit(page, form, {**marked, **PHPBB.pm.removal.delete}).text
        assert form_names(real_confirm, PHPBB.pm.removal.confirm) == form_names(local_confirm, PHPBB.pm.removal.confirm)
        assert "Are you sure you want to delete all marked messages?" in real_confirm
        assert "Are you sure you want to delete all marked messages?" in local_confirm
        confirm = forum._read_css_form(Page(server.url, 200, local_confirm), PHPBB.pm.removal.confirm)
        local_deleted = forum.submit(Page(server.url, 200, local_confirm), confirm, dict(PHPBB.pm.removal.confirm_with))
        assert "Messages successfully deleted" in local_deleted.text
    assert "Messages successfully deleted" in phpbb_page("real_pm_deleted.html")
    moved = phpbb_page("real_pm_moved.html")
    assert [h.id for h in phpbb.inbox(moved, "UTC")] == [] and "forumgm (2)" in moved.replace("\t", "")
