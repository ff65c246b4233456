"""[forum] inbox_cleanup against the local phpBB-compatible forum over HTTP: stored PMs leave the
inbox (deleted after phpBB's "are you sure?", or moved to the host's folder), never one the store
does not hold with its text, including across a crash between storing and removing."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from datetime import timedelta

import pytest

from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_inbox
from localforum_support import HOST, PLAYERS, game_store, seeded_board

DAY = timedelta(days=1)


@pytest.fixture
def server(clock):
    with LocalForum(seeded_board(clock)) as running:
        yield running


def cleaning_forum(server, clock, **cleanup):
    config = {"engine": "phpbb", "base_url": server.url, "username": HOST, "posts_per_page": 5,
              "inbox_cleanup": "delete", "inbox_cleanup_after": DAY, **cleanup}
    return open_forum(config, "host-secret", clock=clock.monotonic, sleep=clock.sleep, now=clock.now)


def inbox_ids(board: Board) -> list[int]:
    return [pm.id for pm in board.inbox(board.user_named(HOST).id)]


def send(board: Board, count: int, first: int = 0) -> None:
    for n in range(first, first + count):
        board.send_pm(PLAYERS[n % len(PLAYERS)], HOST, f"Ход {n}", f"Атака {n} Кума")


def test_stored_pms_are_deleted_once_they_are_a_day_old_and_stay_in_the_store(tmp_path, server, clock):
    store, forum = game_store(tmp_path, server, clock), cleaning_forum(server, clock)
    send(server.board, 3)
    first = sync_inbox("local", forum, store, clock.now())
    assert first.ok and len(first.new_pms) == 3 and len(inbox_ids(server.board)) == 3   # too young yet
    clock.sleep(DAY.total_seconds() / 2)
    send(server.board, 1, first=3)
    clock.sleep(DAY.total_seconds() / 2 + 60)
    later = sync_inbox("local", forum, store, clock.now())
    assert later.ok and inbox_ids(server.board) == [4]          # the one stored half a day ago stays
    assert sorted(pm["pm_id"] for pm in store.pms("local")) == ["1", "2", "3", "4"]
    assert all(pm["text"].startswith("Атака") for pm in store.pms("local"))
    removals = store.pm_removals("local")
    assert [(r["pm_id"], r["action"], r["done_at"] is not None) for r in removals] == [
        ("1", "delete", True), ("2", "delete", True), ("3", "delete", True)]
    assert all(pm.deleted for pm in server.board.pms.values() if pm.id <= 3)


def test_a_notice_the_host_was_sent_by_his_own_account_leaves_the_inbox_a_day_later(tmp_path, server, clock):
    """An approved notice to the host's own account lands in his inbox (and on MyBB counts against
    his quota once more): it was never removed, being no stored PM; its text is the draft's."""
    store, forum = game_store(tmp_path, server, clock), cleaning_forum(server, clock)
    notice = forum.send_pm(HOST, "Заметка", "Письмо ведущему от forumgm")
    send(server.board, 1)
    assert sync_inbox("local", forum, store, clock.now()).ok
    assert inbox_ids(server.board) == [2, int(notice)]            # a day to read it first
    clock.sleep(DAY.total_seconds() + 60)
    assert sync_inbox("local", forum, store, clock.now()).ok
    assert inbox_ids(server.board) == []
    assert sorted((r["pm_id"], r["done_at"] is not None) for r in store.pm_removals("local")) == [
        ("1", True), ("2", True)]
    assert [pm["sender"] for pm in store.pms("local")] == ["Аскон"]    # the notice was never taken for an order


def test_a_pm_whose_receipt_waits_for_the_host_stays_on_the_board(tmp_path, server, clock):
    store, forum = game_store(tmp_path, server, clock), cleaning_forum(server, clock)
    send(server.board, 2)
    sync_inbox("local", forum, store, clock.now())
    receipt = store.insert_draft("g1", "receipt", "Аскон", "Принято", "round-1", True, ref="receipt:1")
    clock.sleep(DAY.total_seconds() + 60)
    sync_inbox("local", forum, store, clock.now())
    assert inbox_ids(server.board) == [1]
    store.reject(receipt, by="host")
    sync_inbox("local", forum, store, clock.now())
    assert inbox_ids(server.board) == []


def test_a_full_inbox_is_emptied_at_once_and_the_pms_it_held_back_come_in(tmp_path, server, clock):
    """phpBB holds new PMs back once the inbox holds 50: past the fill threshold age does not
    matter; the held-back PMs come in on the read that follows, and the game does not stop. A
    sync removes from the pages it read (the newest 25 of 50 here), older pages move up for the next."""
    store, forum = game_store(tmp_path, server, clock), cleaning_forum(server, clock, inbox_cleanup_fill=0.9)
    send(server.board, 44)
    assert sync_inbox("local", forum, store, clock.now()).ok and len(inbox_ids(server.board)) == 44   # 88 %
    send(server.board, 11, first=44)                           # 55: five are held back
    report = sync_inbox("local", forum, store, clock.now())
    assert report.ok, report.error
    assert len(store.known_pm_ids("local")) == 55
    assert inbox_ids(server.board) == [55, 54, 53, 52, 51, *range(25, 0, -1)]   # the held-back five came in
    assert sorted(int(r["pm_id"]) for r in store.pm_removals("local") if r["done_at"]) == list(range(26, 51))
    assert sync_inbox("local", forum, store, clock.now()).ok
    assert len(inbox_ids(server.board)) == 30                  # 60 %: the rest waits for its day
    clock.sleep(DAY.total_seconds() + 60)
    assert sync_inbox("local", forum, store, clock.now()).ok
    assert inbox_ids(server.board) == [5, 4, 3, 2, 1]         # the page it did not read moved up to page 1
    assert sync_inbox("local", forum, store, clock.now()).ok
    assert inbox_ids(server.board) == [] and len(store.known_pm_ids("local")) == 55


def test_pms_are_moved_to_the_hosts_folder(tmp_path, server, clock):
    board = server.board
    folder = board.add_pm_folder(board.user_named(HOST).id, "forumgm")
    store = game_store(tmp_path, server, clock)
    forum = cleaning_forum(server, clock, inbox_cleanup="move", inbox_cleanup_folder="forumgm")
    send(board, 2)
    sync_inbox("local", forum, store, clock.now())
    clock.sleep(DAY.total_seconds() + 60)
    assert sync_inbox("local", forum, store, clock.now()).ok
    assert inbox_ids(board) == []
    assert [pm.id for pm in board.pm_folder(board.user_named(HOST).id, folder)] == [2, 1]
    assert {r["action"] for r in store.pm_removals("local")} == {"move"}


def test_a_folder_the_account_does_not_have_moves_nothing_and_says_which_it_has(tmp_path, server, clock, caplog):
    board = server.board
    board.add_pm_folder(board.user_named(HOST).id, "Архив")
    store = game_store(tmp_path, server, clock)
    forum = cleaning_forum(server, clock, inbox_cleanup="move", inbox_cleanup_folder="forumgm")
    send(board, 2)
    sync_inbox("local", forum, store, clock.now())
    clock.sleep(DAY.total_seconds() + 60)
    report = sync_inbox("local", forum, store, clock.now())
    assert report.ok and inbox_ids(board) == [2, 1]
    assert "no PM folder named 'forumgm'" in caplog.text and "Move marked to Архив [0]" in caplog.text


class LosingStore:
    """A store whose write of one PM is lost (the disk said yes, the row never came back)."""

    def __init__(self, store: Store, lost: str):
        self.store, self.lost = store, lost

    def record_pm(self, forum_id, header, message, seen_at):
        return True if header.id == self.lost else self.store.record_pm(forum_id, header, message, seen_at)

    def __getattr__(self, name):
        return getattr(self.store, name)


def test_a_pm_the_store_does_not_hold_is_never_removed_even_from_a_full_inbox(tmp_path, server, clock):
    store = game_store(tmp_path, server, clock)
    forum = cleaning_forum(server, clock, inbox_cleanup_fill=0.5)
    send(server.board, 30)
    sync_inbox("local", forum, LosingStore(store, lost="7"), clock.now())
    assert inbox_ids(server.board) == [7]
    assert "7" not in {r["pm_id"] for r in store.pm_removals("local")}


def test_a_store_failing_while_storing_pms_removes_nothing(tmp_path, server, clock):
    """The store fails on the second PM (a full disk): the sync ends there and no PM goes."""
    store = game_store(tmp_path, server, clock)
    forum = cleaning_forum(server, clock, inbox_cleanup_fill=0.01)
    send(server.board, 3)

    class FailingStore(LosingStore):
        def record_pm(self, forum_id, header, message, seen_at):
            if header.id == "2":
                raise __import__("sqlite3").OperationalError("database or disk is full")
            return self.store.record_pm(forum_id, header, message, seen_at)

    with pytest.raises(Exception, match="disk is full"):
        sync_inbox("local", forum, FailingStore(store, lost=""), clock.now())
    assert inbox_ids(server.board) == [3, 2, 1]
    assert sync_inbox("local", forum, store, clock.now()).ok
    assert inbox_ids(server.board) == []                       # stored on the next sync, then removed


CRASHING_SYNC = textwrap.dedent("""
    import os, sys
    from datetime import datetime, timezone
    from forumgm.daemon.forum import open_forum
    from forumgm.daemon.store import Store
    from forumgm.daemon.tick.sync import sync_inbox

    url, path = sys.argv[1], sys.argv[2]
    forum = open_forum({"engine": "phpbb", "base_url": url, "username": "Ведущий", "min_interval": 0,
                        "inbox_cleanup": "delete", "inbox_cleanup_fill": 0.01}, "host-secret")
    forum.remove_pms = lambda *args: os._exit(9)     # killed as the board is about to be asked
    sync_inbox("local", forum, Store(path), datetime.now(timezone.utc))
""")


def test_a_crash_between_storing_and_removing_loses_nothing_and_the_next_run_removes(tmp_path, clock):
    """The daemon is killed after the removal was noted and before the board was asked: the PMs,
    with their text, and the note are on disk; the board still has the PMs; the next run removes
    them."""
    board = Board()                                       # the wall clock: the child logs in for real
    board.add_user(HOST, "host-secret", admin=True)
    for nick in PLAYERS:
        board.add_user(nick, f"{nick}-pw")
    send(board, 2)
    with LocalForum(board) as running:
        path = tmp_path / "forumgm.sqlite"
        store = Store(path)
        store.register_forum("local", "phpbb", running.url, HOST)
        store.close()
        child = subprocess.run([sys.executable, "-c", CRASHING_SYNC, running.url, str(path)],
                               capture_output=True, text=True, timeout=60, env={**os.environ})
        assert child.returncode == 9, child.stderr
        after_crash = Store(path)
        assert sorted((pm["pm_id"], pm["text"]) for pm in after_crash.pms("local")) == [
            ("1", "Атака 0 Кума"), ("2", "Атака 1 Кума")]
        assert [(r["pm_id"], r["done_at"]) for r in after_crash.pm_removals("local")] == [("1", None), ("2", None)]
        assert inbox_ids(board) == [2, 1]
        forum = open_forum({"engine": "phpbb", "base_url": running.url, "username": HOST, "min_interval": 0,
                            "inbox_cleanup": "delete", "inbox_cleanup_fill": 0.01}, "host-secret")
        assert sync_inbox("local", forum, after_crash, after_crash.now()).ok
        assert inbox_ids(board) == []
        assert all(r["done_at"] is not None for r in after_crash.pm_removals("local"))


def test_cleanup_off_leaves_every_pm(tmp_path, server, clock):
    store = game_store(tmp_path, server, clock)
    send(server.board, 3)
    forum = cleaning_forum(server, clock, inbox_cleanup="off", inbox_cleanup_fill=0.01)
    sync_inbox("local", forum, store, clock.now())
    clock.sleep(2 * DAY.total_seconds())
    assert sync_inbox("local", forum, store, clock.now()).ok and inbox_ids(server.board) == [3, 2, 1]
    assert store.pm_removals("local") == []


# ---------------------------------------------------------------- the installation's [forum] keys

def forum_config(tmp_path, engine: str, extra: str):
    from forumgm.daemon.settings.installation import load_installation
    (tmp_path / "forumgm.toml").write_text(
        f'games = []\n[forum]\nengine = "{engine}"\nbase_url = "https://forum.example"\naccount = "host"\n'
        f'password_env = "FORUMGM_PASSWORD"\n{extra}\n[storage]\npath = "db.sqlite"\n', encoding="utf-8")
    return lambda: load_installation(tmp_path / "forumgm.toml")


def config_problems(load) -> list[str]:
    from forumgm.daemon.settings.records import ConfigError
    with pytest.raises(ConfigError) as caught:
        load()
    return caught.value.problems


def test_cleanup_is_off_unless_configured_and_read_with_its_keys(tmp_path):
    from forumgm.daemon.forum import ForumSettings
    from forumgm.daemon.forum.housekeeping.inbox_cleanup import Cleanup
    off = forum_config(tmp_path, "phpbb", "")()
    assert off.forum.inbox_cleanup == "off" and Cleanup.of(ForumSettings.read(off.forum)) is None
    on = forum_config(tmp_path, "mybb", 'inbox_cleanup = "move"\ninbox_cleanup_folder = "Игры"\n'
                                        'inbox_cleanup_after = "3d 12h"\ninbox_cleanup_fill = 0.5')()
    assert Cleanup.of(ForumSettings.read(on.forum)) == Cleanup("move", "Игры", timedelta(days=3, hours=12), 0.5)
    daemons_forum = open_forum(on.forum, "secret")          # as `forumgm run` opens it
    assert Cleanup.of(daemons_forum.settings) == Cleanup("move", "Игры", timedelta(days=3, hours=12), 0.5)


@pytest.mark.parametrize("engine, extra, problem", [
    ("smf", 'inbox_cleanup = "move"\ninbox_cleanup_folder = "x"',
     'forum.inbox_cleanup: expected "off" or "delete" on smf (SMF 2.1 has labels, not folders, and a labelled '
     "PM still counts against the PM limit) (got 'move')"),
    ("vbulletin4", 'inbox_cleanup = "move"\ninbox_cleanup_folder = "x"',
     'forum.inbox_cleanup: expected "off" or "delete" on vbulletin4 (vBulletin counts every folder against the '
     "PM quota) (got 'move')"),
    ("fluxbb", 'inbox_cleanup = "delete"',
     'forum.inbox_cleanup: expected "off" on fluxbb (FluxBB has no private messages; delete old PMs there by '
     "hand) (got 'delete')"),
    ("xenforo", 'inbox_cleanup = "delete"',
     'forum.inbox_cleanup: expected "off" on xenforo (forumgm cannot delete PMs on xenforo boards; delete old '
     "PMs there by hand) (got 'delete')"),
    ("phpbb", 'inbox_cleanup = "move"',
     "forum.inbox_cleanup_folder: expected the name of a PM folder the account has on the forum (needed with "
     'inbox_cleanup = "move")'),
    ("phpbb", 'inbox_cleanup = "delete"\ninbox_cleanup_folder = "x"',
     "forum.inbox_cleanup_folder: expected no folder unless inbox_cleanup = \"move\" (got 'x')"),
    ("phpbb", 'inbox_cleanup = "yes"', "forum.inbox_cleanup: expected one of off, delete, move (got 'yes')"),
    ("phpbb", "inbox_cleanup_fill = 80", "forum.inbox_cleanup_fill: expected a share above 0 and at most 1, "
                                         "such as 0.8 (got 80)"),
    ("phpbb", 'inbox_cleanup_after = "a week"', 'forum.inbox_cleanup_after: expected a duration such as "3d", '
                                                "\"12h\" or \"1d 6h 30m\" (got 'a week')"),
])
def test_check_config_names_the_file_the_key_and_what_the_board_can_do(tmp_path, engine, extra, problem):
    assert config_problems(forum_config(tmp_path, engine, extra)) == [f"{tmp_path / 'forumgm.toml'}: {problem}"]


def test_the_config_knows_what_each_adapter_can_remove():
    from forumgm.daemon.settings.installation import INBOX_CLEANUP_ACTIONS
    from forumgm.daemon.forum import ADAPTERS
    can = {engine: adapter.spec.pm.removal.actions for engine, adapter in ADAPTERS.items()
           if getattr(adapter, "spec", None) and adapter.spec.pm and adapter.spec.pm.removal}
    assert can == INBOX_CLEANUP_ACTIONS
